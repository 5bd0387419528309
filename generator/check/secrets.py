"""Submission checks for credentials shipped in the package: vendor-shaped tokens in any text file,
and long random-looking strings assigned to a name such as `API_KEY` (in Python, read from the
syntax tree; elsewhere, from `name = value` and `name: value` lines)."""

from __future__ import annotations

import ast
import io
import math
import re
import tokenize
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from generator.check import CheckContext
from generator.check.common import every_node, submission_only
from generator.check.submission import unwanted_reason
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.rules import rule

# Vendor formats identify themselves: the marketplace's pre-check blocks any match, whatever the name
# it is assigned to (toolkit/checks/secrets.py of langgenius/dify-marketplace-toolkit).
_VENDOR = (
    (
        "a private key",
        re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----(?:\s|\\n)*(?P<body>[A-Za-z0-9+/=]{0,64})"),
    ),
    ("an AWS access key id", re.compile(r"\bAKIA[0-9A-Z]{16}\b")),
    ("an OpenAI-style API key", re.compile(r"\bsk-[A-Za-z0-9_-]{20,}")),
    ("a GitHub token", re.compile(r"\bgh[pousr]_[A-Za-z0-9_]{20,}")),
    ("a Slack token", re.compile(r"\bxox[abprs]-[A-Za-z0-9-]{10,}")),
    ("a Google API key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}")),
    ("a JSON Web Token", re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")),
)
# Words in a name that the pre-check treats as naming a secret (the same list as its own).
_PRECHECK_WORDS = re.compile(
    r"api[_-]?key|access[_-]?key|access[_-]?token|auth[_-]?token|client[_-]?secret|password"
    r"|private[_-]?key|secret|token",
    re.IGNORECASE,
)
# `OPENAI_KEY`, `service-key`: names that say "key" without a word of the pre-check's list.
# The words the pre-check then requires in the name, as it spells them (`SECRET_KEYWORDS`): its
# pattern also matches `api-key` and `accessKey`, which these words leave out.
PRECHECK_KEYWORDS = (
    "api_key",
    "apikey",
    "access_key",
    "access_token",
    "auth_token",
    "client_secret",
    "password",
    "private_key",
    "secret",
    "token",
)
# The values it never calls secrets (`PLACEHOLDER_VALUES`, `NON_SECRET_VALUES`).
_PRECHECK_PLACEHOLDERS = frozenset(
    {"changeme", "dummy", "example", "fake", "none", "null", "placeholder", "test", "todo", "xxx", "xxxx"}
    | {"your-api-key", "your_api_key", "your-key", "your-secret", "your-token"}
    | {"true", "false", "yes", "no", "on", "off"}
)
_KEY_SUFFIX = re.compile(r"(^|[_.-])key$", re.IGNORECASE)
# Names of digests and identifiers, which are long random-looking strings and not secrets.
_NOT_SECRET_NAME = re.compile(r"hash|digest|checksum|sha\d*|md5|etag|fingerprint|_id$|_ids$", re.IGNORECASE)
# `name = "value"`, `name: value` in configuration files, READMEs and comments (the value is the
# quoted string, or an unquoted word).
_ASSIGNMENT = re.compile(
    r"""(?P<name>[A-Za-z0-9_.-]*[A-Za-z0-9_])\s*[:=]\s*(?P<value>"[^"\n]*"|'[^'\n]*'|[^"',\s#}]+)"""
)
_PLACEHOLDER_WORDS = ("your", "example", "sample", "placeholder", "dummy", "fake", "test", "changeme", "xxx")
_HEX = re.compile(r"[0-9a-fA-F]+")
_TOKEN = re.compile(r"[A-Za-z0-9+/=_.-]+")
# Entropy floors in bits per character, as detect-secrets and the pre-check set them.
HEX_ENTROPY = 3.0
TOKEN_ENTROPY = 4.5
PRECHECK_MIN_LENGTH = 12
# Our floor for calling a value a secret outright: shorter random strings are rarely credentials.
CERTAIN_MIN_LENGTH = 20
_BINARY_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".ico", ".pdf", ".woff", ".woff2", ".ttf")

PLACEHOLDER_HINT = (
    "This looks like a placeholder, but the marketplace's pre-check blocks the shape itself: write "
    "`<your-api-key>` instead."
)

SECRET_IN_FILE = rule(
    "U009",
    "secret-in-file",
    Severity.ERROR,
    "{path} appears to contain a secret ({kind})",
    "Remove the secret, revoke it, and read credentials from the provider's credentials instead.",
    """
A file contains text shaped like a private key or a vendor's token: an AWS access key id, an
OpenAI-style `sk-` key, a GitHub token (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`), a Slack token, a
Google API key or a JSON Web Token. Published plugins are public; a token in them can be used by
anyone. Credentials belong in `credentials_for_provider`. Every packaged text file is read, sample
files such as `.env.example` too (a real key there is as leaked as anywhere). The marketplace's
pre-check (`toolkit/checks/secrets.py` in `langgenius/dify-marketplace-toolkit`) blocks every match,
so a placeholder of the same shape (`sk-xxxxxxxxxxxxxxxxxxxxxxxx`) is reported too, as a warning:
write `<your-api-key>` instead.
""",
)
SECRET_ASSIGNMENT = rule(
    "U014",
    "secret-assignment",
    Severity.ERROR,
    "{path}: {name} is set to a {length}-character {shape} string ({shown})",
    "If it is a credential, remove and revoke it and read it from the provider's credentials; if it is "
    "not (a digest, an identifier), name it without key, token, secret or password: the pre-check "
    "judges by the name.",
    """
A long, random-looking literal is assigned to a name such as `API_KEY`, `access_token`,
`CLIENT_SECRET` or `password`. The marketplace's pre-check (`toolkit/checks/secrets.py` of
`langgenius/dify-marketplace-toolkit`, which reads every text file line by line) blocks such an
assignment when the name holds one of its words (api_key, apikey, access_key, access_token,
auth_token, client_secret, password, private_key, secret, token), the value is not one of its
placeholders, is at least 12 characters of a token alphabet, and its entropy reaches 3.0 bits per
character for hexadecimal or 4.5 for other strings (the floors of detect-secrets): all of that is
an error here, hexadecimal digests included (rename what is not a secret). Where the pre-check does
not see the assignment (a dictionary entry with a quoted key, an annotated assignment) it is an
error when the value is at least 20 characters, mixes letters and digits and is not hexadecimal;
other random-looking values under such names, and names that only end in `_KEY`, are warnings.
Placeholders (`your-api-key`, `<token>`, `xxxx`), numbers, URLs, paths and expressions that read a
credential (`api_key = credentials["api_key"]`) are not reported (a placeholder only when the
pre-check takes it for one too). In Python files the syntax tree is read (assignments, keyword
arguments, dictionary entries) plus the comments; other text files line by line.
""",
)


@dataclass(frozen=True, slots=True)
class Assigned:
    """A literal assigned to a name, and where the literal starts (1-based line and column)."""

    name: str
    value: str
    line: int
    column: int
    # False where the pre-check's line pattern does not see the assignment: a dictionary entry with
    # a quoted key, an annotated assignment (`TOKEN: str = "..."`)
    precheck: bool = True


@submission_only
def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """Secrets in every packaged text file, only with `--submission`."""
    for file in loaded.reader.tree.files:
        if unwanted_reason(file.relative)[0] or file.relative.lower().endswith(_BINARY_SUFFIXES):
            continue  # U008 names the file itself; images hold no text
        text = loaded.reader.packaged_text(file)
        if text is not None:
            tree = loaded.reader.python_tree(file) if file.relative.endswith(".py") else None
            yield from secrets_in(loaded, file.relative, text, tree)


def secrets_in(loaded: LoadedPlugin, relative: str, text: str, tree: ast.Module | None) -> Iterator[Finding]:
    """The vendor tokens of one file, then its secret-looking assignments on other lines."""
    vendor_lines: set[int] = set()
    for kind, pattern in _VENDOR:
        for found in pattern.finditer(text):
            line, column = _position(text, found.start())
            vendor_lines.add(line)
            where = Location(loaded.display_path(relative), line, column)
            if _placeholder_token(found):
                yield SECRET_IN_FILE.at(where, Severity.WARNING, PLACEHOLDER_HINT, path=relative, kind=kind)
            else:
                yield SECRET_IN_FILE.at(where, path=relative, kind=kind)
            break  # one finding per kind and file: the author revokes the lot
    assignments = _python_assignments(text, tree) if tree is not None else _line_assignments(text, 1)
    for assigned in assignments:
        if assigned.line in vendor_lines:
            continue  # the token was reported under its vendor's name
        severity = judge(assigned.name, assigned.value, assigned.precheck)
        if severity is not None:
            where = Location(loaded.display_path(relative), assigned.line, assigned.column)
            yield SECRET_ASSIGNMENT.at(
                where,
                severity,
                path=relative,
                name=assigned.name,
                length=len(assigned.value),
                shape="hexadecimal" if _HEX.fullmatch(assigned.value) else "random-looking",
                shown=mask(assigned.value),
            )


def judge(name: str, value: str, precheck: bool = True) -> Severity | None:
    """How sure we are that `value` assigned to `name` is a credential: error, warning or not at all.
    What the pre-check blocks is an error whatever we think of it (`precheck`: it sees the line)."""
    if precheck and precheck_blocks(name, value):
        return Severity.ERROR
    if _placeholder(value) or not _TOKEN.fullmatch(value) or len(value) < PRECHECK_MIN_LENGTH:
        return None
    hexadecimal = bool(_HEX.fullmatch(value))
    random = entropy(value) >= (HEX_ENTROPY if hexadecimal else TOKEN_ENTROPY)
    if not random or value.replace(".", "").isdigit():
        return None
    if _PRECHECK_WORDS.search(name):
        certain = (
            not hexadecimal
            and len(value) >= CERTAIN_MIN_LENGTH
            and any(c.isdigit() for c in value)
            and any(c.isalpha() for c in value)
            and not _NOT_SECRET_NAME.search(name)
        )
        return Severity.ERROR if certain else Severity.WARNING
    if _KEY_SUFFIX.search(name) and not hexadecimal and len(value) >= CERTAIN_MIN_LENGTH:
        return Severity.WARNING
    return None


def precheck_blocks(name: str, value: str) -> bool:
    """True when the marketplace's pre-check blocks this literal assigned to this name: a word of its
    list in the name, not one of its placeholders, and at least 12 characters of hexadecimal with 3.0
    bits of entropy per character or of a token alphabet with 4.5 (`scan_text` and
    `looks_like_secret_value` in toolkit/checks/secrets.py)."""
    lowered = value.lower()
    if not any(word in name.lower() for word in PRECHECK_KEYWORDS) or _precheck_placeholder(lowered):
        return False
    if len(value) < PRECHECK_MIN_LENGTH or lowered.startswith(("http://", "https://", "./", "../", "/")):
        return False
    if value.lstrip("-").replace(".", "", 1).isdigit():
        return False
    if _HEX.fullmatch(value):
        return entropy(value) >= HEX_ENTROPY
    return bool(_TOKEN.fullmatch(value)) and entropy(value) >= TOKEN_ENTROPY


def _precheck_placeholder(lowered: str) -> bool:
    return (
        lowered in _PRECHECK_PLACEHOLDERS
        or (lowered.startswith("<") and lowered.endswith(">"))
        or lowered.startswith("${")
        or ("your" in lowered and any(word in lowered for word in ("key", "secret", "token", "password")))
        or set(lowered) <= set("x*-_")
    )


def entropy(value: str) -> float:
    """Shannon entropy in bits per character."""
    total = len(value)
    return -sum(n / total * math.log2(n / total) for n in Counter(value).values()) if total else 0.0


def mask(value: str) -> str:
    """The first and last four characters only: findings end up in CI logs."""
    return f"{value[:4]}…{value[-4:]}" if len(value) > 12 else "…"


def _placeholder(value: str) -> bool:
    lowered = value.lower()
    return (
        any(word in lowered for word in _PLACEHOLDER_WORDS)
        or lowered.startswith(("<", "${", "{{", "http://", "https://", "/", "./", "../"))
        or set(lowered) <= set("x*-_.0")
    )


def _placeholder_token(found: re.Match[str]) -> bool:
    """A vendor-shaped token whose body is a placeholder (`sk-xxxx…`, `ghp_your_token_here…`, a key
    header followed by `...`)."""
    if "body" in found.groupdict():
        return len(found.group("body")) < CERTAIN_MIN_LENGTH
    body = re.split(r"[-_]", found.group(), maxsplit=1)[-1]
    return _placeholder(body) or entropy(body) < HEX_ENTROPY


def _position(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _line_assignments(text: str, first_line: int, column_offset: int = 0) -> Iterator[Assigned]:
    for number, line in enumerate(text.splitlines(), start=first_line):
        for found in _ASSIGNMENT.finditer(line):
            raw = found.group("value")
            value = raw[1:-1] if raw[:1] in "\"'" else raw
            start = found.start("value") + (1 if raw[:1] in "\"'" else 0)
            yield Assigned(found.group("name"), value, number, start + column_offset + 1)


def _python_assignments(text: str, tree: ast.Module) -> Iterator[Assigned]:
    """String literals given to a name in code, and `name = value` in comments (a Python file that
    does not parse, and any other file, is read line by line)."""
    for node in every_node(tree):
        seen = not isinstance(node, ast.Dict | ast.AnnAssign)
        for name, value in _named_values(node):
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                yield Assigned(name, value.value, value.lineno, value.col_offset + 2, seen)
    yield from _comment_assignments(text)


def _named_values(node: ast.AST) -> Iterator[tuple[str, ast.expr]]:
    """(name, value) pairs a node binds: assignments, keyword arguments, dictionary entries."""
    if isinstance(node, ast.Assign):
        for target in node.targets:
            if name := _target_name(target):
                yield name, node.value
    elif isinstance(node, ast.AnnAssign) and node.value is not None:
        if name := _target_name(node.target):
            yield name, node.value
    elif isinstance(node, ast.keyword) and node.arg:
        yield node.arg, node.value
    elif isinstance(node, ast.Dict):
        for key, value in zip(node.keys, node.values, strict=True):
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                yield key.value, value


def _target_name(target: ast.expr) -> str:
    if isinstance(target, ast.Name):
        return target.id
    if isinstance(target, ast.Attribute):
        return target.attr
    return ""


def _comment_assignments(text: str) -> Iterator[Assigned]:
    """A key commented out is still shipped: comments are read as lines of text."""
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT:
                yield from _line_assignments(token.string, token.start[0], token.start[1])
    except (tokenize.TokenError, SyntaxError):
        return
