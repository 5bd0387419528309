"""Marketplace submission checks that work offline (only with `--submission`): author, README,
privacy policy, manifest contact fields and the files that would be packaged."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from urllib.parse import urlsplit

from generator.check import CheckContext
from generator.check.common import documents, submission_only
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.load.reader import MAX_DOCUMENT_BYTES, PluginTree
from generator.load.values import dig
from generator.load.yamlload import YamlDocument
from generator.rules import rule

RESERVED_AUTHORS = ("langgenius", "dify")
MAX_FILES = 5000
PRIVACY_TEMPLATE = "!!! Please fill in the privacy policy of the plugin."
# The characters the pre-check counts (`CJK_RE` of toolkit/checks/readme.py): CJK ideographs, which
# Chinese and Japanese write; kana and Hangul alone pass it.
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
# What it removes before counting: from one ``` to the next, anywhere (`CODE_BLOCK_RE`).
_GATE_CODE = re.compile(r"```.*?```", re.DOTALL)
_GATE_FENCE = re.compile(r"```")
_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
_INLINE_CODE = re.compile(r"`[^`\n]*`")
_URL = re.compile(r"^https?://[^\s/$.?#][^\s]*$")
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
# The hosts the marketplace accepts for `repo` and the README's source link: `ALLOWED_SOURCE_HOSTS` in
# toolkit/checks/source_hosts.py of langgenius/dify-marketplace-toolkit (a vendor's own forge is
# admitted there one at a time), matched exactly with an optional `www.`.
SOURCE_HOSTS = (
    "github.com",
    "gitlab.com",
    "bitbucket.org",
    "gitee.com",
    "codeberg.org",
    "git.sr.ht",
    "gitlab.anchnet.com",
)
_HOST_ALTERNATIVES = "|".join(re.escape(host) for host in SOURCE_HOSTS)
_SOURCE_LINK = re.compile(rf"https?://(?:www\.)?(?:{_HOST_ALTERNATIVES})/[^\s)>\"]+", re.IGNORECASE)
_SOURCE_URL = re.compile(rf"^https?://(?:www\.)?(?:{_HOST_ALTERNATIVES})/[^\s)>\"]+$", re.IGNORECASE)
# Folder and file names that a package must not carry: environments, caches, IDE and OS files.
_UNWANTED_DIRS = {
    ".venv",
    "venv",
    "__pycache__",
    ".pytest_cache",
    ".mypy_cache",
    ".ruff_cache",
    ".idea",
    ".vscode",
    ".tox",
    ".nox",
    ".git",
    ".hg",
    ".svn",
    "env",
    "pycache",
    "node_modules",
}
# Folders a reviewer looks at: build output is dead weight unless the plugin serves it.
_BUILD_DIRS = {"build", "dist"}
# Templates of environment files hold placeholders, not secrets (the plugin template ships one).
_ENV_TEMPLATES = {".env.example", ".env.sample", ".env.template"}
_UNWANTED_FILES = {
    ".env",
    ".DS_Store",
    "Thumbs.db",
    "desktop.ini",
    "id_rsa",
    "id_ed25519",
    ".netrc",
    ".gitconfig",
}
_UNWANTED_SUFFIXES = (".pyc", ".pyo", ".pem", ".key", ".p12", ".pfx", ".swp", ".swo", ".log", ".tmp", ".bak")
_E = Severity.ERROR
RESERVED_AUTHOR = rule(
    "U001",
    "reserved-author",
    _E,
    "author {author} is reserved for Dify's own plugins",
    "Use your own organisation name as `author` in the manifest.",
    """
The marketplace accepts a manifest whose `author` contains `langgenius` or `dify` only from Dify's
team: its pre-check (`toolkit/checks/manifest.py` of `langgenius/dify-marketplace-toolkit`) refuses
any author holding one of these words, `difytools` too. Provider and tool YAMLs: rule U017.
""",
)
README_NOT_ENGLISH = rule(
    "U002",
    "readme-not-english",
    _E,
    "README.md contains CJK text outside ``` code blocks: {text}",
    "Write README.md in English; put translations into readme/README_<locale>.md.",
    """
The marketplace requires README.md in English. Its pre-check (`toolkit/checks/readme.py` of
`langgenius/dify-marketplace-toolkit`) blocks a README with CJK ideographs (the characters Chinese
and Japanese write) outside code; translated READMEs belong in `readme/README_<locale>.md` (for
example `readme/README_zh_Hans.md`). It removes only what lies between one ``` and the next,
wherever they stand (a fence indented inside a list item is removed too), so CJK text in inline code
(between single backticks), in a block fenced with `~~~`, and after a ``` fence that is never closed
counts as text and is blocked. Kana and Hangul alone pass it, and pass here.
""",
)
INLINE_CODE_HINT = (
    "The pre-check strips fenced code blocks only, so CJK text in inline code (`...`) counts too: move "
    "it into a fenced block, or into readme/README_<locale>.md."
)
TILDE_FENCE_HINT = (
    "The pre-check strips only code fenced with ``` (three backticks), not ~~~: fence this block "
    "with backticks, or move the text into readme/README_<locale>.md."
)
UNCLOSED_FENCE_HINT = (
    "The ``` fence at line {line} is never closed, so the pre-check strips nothing after it: close "
    "it with ```."
)
README_NO_SOURCE = rule(
    "U003",
    "readme-no-source-link",
    _E,
    "README.md does not link to the plugin's source repository",
    "Add a link to the repository that holds the plugin's source (the manifest's `repo`).",
    """
Reviewers and users must be able to read the code of a marketplace plugin: the README links to the
source repository.
""",
)
PRIVACY_MISSING = rule(
    "U004",
    "privacy-policy-missing",
    _E,
    "PRIVACY.md {problem}",
    "Write PRIVACY.md: what data the plugin sends where, and what it stores.",
    """
Every marketplace plugin ships a privacy policy in PRIVACY.md. An empty file, or the text the plugin
template leaves there ("Please fill in the privacy policy of the plugin."), is refused.
""",
)
MANIFEST_FIELD = rule(
    "U005",
    "submission-manifest-field",
    _E,
    "the manifest's `{field}` {problem}",
    "Set `{field}` in manifest.yaml: {expected}.",
    """
The marketplace requires the manifest fields `privacy` (the privacy policy, usually `PRIVACY.md`),
`repo` (the URL of the source repository) and `contact` (an e-mail address for users and reviewers).
""",
)
MINIMUM_DIFY_VERSION = rule(
    "U006",
    "minimum-dify-version-missing",
    Severity.WARNING,
    "the manifest does not set meta.minimum_dify_version",
    "Set `meta.minimum_dify_version` to the oldest Dify version you tested, such as '1.5.0'.",
    """
The marketplace recommends `meta.minimum_dify_version`, so that users of older Dify versions see
that the plugin needs an upgrade instead of meeting errors.
""",
)
TOO_MANY_FILES = rule(
    "U007",
    "package-file-count",
    _E,
    "the package would hold {count} files; the marketplace accepts at most {limit}",
    "Exclude what is not needed at run time with a .difyignore file.",
    """
The marketplace refuses packages with more than 5000 files. Files that `.difyignore` (or
`.gitignore`) excludes are not counted.
""",
)
UNWANTED_FILE = rule(
    "U008",
    "unwanted-file",
    _E,
    "{path} must not be packaged ({why})",
    "Delete it or exclude it in .difyignore.",
    """
Submissions must not carry secrets (`.env`, keys, `.gitconfig`), virtual environments (`.venv`,
`venv`, `env`), caches (`__pycache__`, tool caches), version control folders (`.git`, `.hg`,
`.svn`), `node_modules`, IDE settings (`.idea`, `.vscode`), editor and scratch files (`*.swp`,
`*.swo`, `*.bak`, `*.tmp`), logs (`*.log`) or operating system files (`.DS_Store`, `Thumbs.db`).
They leak data, bloat the package and are refused: the marketplace's pre-check
(`check-package-contents.py` of `langgenius/dify-marketplace-toolkit`) blocks each of these names.
`.env.example`, `.env.sample` and `.env.template` are documentation and allowed (their contents are
scanned for secrets, rule U009).
""",
)
BUILD_OUTPUT = rule(
    "U016",
    "build-output",
    Severity.WARNING,
    "{path}/ is a build output folder holding {files}",
    "Exclude it in .difyignore unless the plugin serves these files at run time.",
    """
The marketplace's pre-check sends packages with a `build/` or `dist/` folder to a reviewer: such
folders usually hold what a build left behind (wheels, bundles, copies of the source), which Dify
never loads. Some plugins ship generated assets from a folder of that name on purpose; then keep it
and say so in the submission.
""",
)
RESERVED_AUTHOR_IN_YAML = rule(
    "U017",
    "reserved-author-in-yaml",
    Severity.WARNING,
    "identity.author {author} names Dify's own organisation",
    "Use the manifest's author here too, so the plugin's pages name one author.",
    """
The marketplace refuses a manifest whose `author` contains `langgenius` or `dify` (rule U001).
Provider and tool YAMLs carry an `identity.author` too, which the pre-check does not read and Dify
shows nowhere that matters; a reserved name there is a leftover of a copied template, so it is a
warning.
""",
)
REPO_HOST = rule(
    "U018",
    "repo-host-not-accepted",
    _E,
    "the manifest's repo {url} is on {host}, not a host the marketplace accepts",
    "Publish the source on one of: {hosts}; a vendor's own forge must first be admitted in "
    "langgenius/dify-marketplace-toolkit.",
    """
The marketplace accepts source repositories on a fixed list of hosts only: github.com, gitlab.com,
bitbucket.org, gitee.com, codeberg.org, git.sr.ht and, admitted one by one, vendors' own forges
(gitlab.anchnet.com). The list is `ALLOWED_SOURCE_HOSTS` in `toolkit/checks/source_hosts.py` of
`langgenius/dify-marketplace-toolkit`; its pre-check blocks a `repo` elsewhere, and wants the
README's source link on one of these hosts too (rule U003).
""",
)


@submission_only
def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """Submission findings, only when asked for."""
    for _relative, manifest in documents(loaded, "manifest"):
        yield from _manifest(loaded, manifest)
    for role in ("tools provider", "tool", "triggers provider", "event"):
        for _relative, document in documents(loaded, role):
            author = dig(document.data, "identity", "author")
            if reserved_author(author):
                yield RESERVED_AUTHOR_IN_YAML.at(document.at("identity", "author"), author=author)
    yield from _readme(loaded)
    yield from _privacy(loaded)
    yield from _files(loaded, loaded.reader.tree)


def _manifest(loaded: LoadedPlugin, manifest: YamlDocument) -> Iterator[Finding]:
    data = manifest.data
    author = data.get("author")
    if reserved_author(author):
        yield RESERVED_AUTHOR.at(manifest.at("author"), author=author)
    wanted = {
        "privacy": (None, "the path of the privacy policy, such as PRIVACY.md"),
        "repo": (_URL, "the https URL of the source repository"),
        "contact": (_EMAIL, "an e-mail address"),
    }
    for field, (shape, expected) in wanted.items():
        value = data.get(field)
        if not isinstance(value, str) or not value.strip():
            yield MANIFEST_FIELD.at(
                manifest.at(field) if field in data else manifest.at(),
                field=field,
                problem="is not set",
                expected=expected,
            )
        elif shape is not None and not shape.match(value.strip()):
            yield MANIFEST_FIELD.at(
                manifest.at(field), field=field, problem="is malformed", expected=expected
            )
    repo = data.get("repo")
    if isinstance(repo, str) and _URL.match(repo.strip()) and not _SOURCE_URL.match(repo.strip()):
        host = urlsplit(repo.strip()).hostname or repo
        yield REPO_HOST.at(manifest.at("repo"), url=repo, host=host, hosts=", ".join(SOURCE_HOSTS))
    if not dig(data, "meta", "minimum_dify_version"):
        yield MINIMUM_DIFY_VERSION.at(manifest.key_at("meta"))


def reserved_author(author: object) -> bool:
    """The pre-check refuses any author that contains a reserved name, not only an equal one."""
    return isinstance(author, str) and any(name in author.lower() for name in RESERVED_AUTHORS)


def _text_of(loaded: LoadedPlugin, relative: str) -> str | None:
    # A link is not followed here, even inside: the marketplace reads the package, which holds none.
    if loaded.reader.is_link(relative):
        return None
    return loaded.reader.text(relative, MAX_DOCUMENT_BYTES)


def _readme(loaded: LoadedPlugin) -> Iterator[Finding]:
    text = _text_of(loaded, "README.md")
    if text is None:
        return  # README_MISSING (manifest check) reports it, as an error under --submission
    shown = loaded.display_path("README.md")
    found = first_cjk_outside_code(text)
    if found is not None:
        line, column, snippet, hint = found
        yield README_NOT_ENGLISH.at(Location(shown, line, column), hint=hint, text=snippet)
    repo = loaded.plugin.repo.strip().rstrip("/") if loaded.plugin else ""
    if not ((repo and repo in text) or _SOURCE_LINK.search(text)):
        yield README_NO_SOURCE.at(Location(shown, 1, 1))


def first_cjk_outside_code(markdown: str) -> tuple[int, int, str, str | None] | None:
    """Line, column and a snippet of the first Chinese character the pre-check counts, and the hint
    that says why it counts when the author may think it sits in code.

    The pre-check removes every span from one ``` to the next (`CODE_BLOCK_RE` in
    toolkit/checks/readme.py, across lines and wherever they stand, a fence indented inside a list
    item included), then counts CJK ideographs in what is left: text in `~~~` fences, in inline
    code, and after a ``` that nothing closes counts."""
    spans = [(found.start(), found.end()) for found in _GATE_CODE.finditer(markdown)]
    start = 0
    for begin, end in [*spans, (len(markdown), len(markdown))]:
        hit = _CJK.search(markdown, start, begin)
        if hit:
            return _placed(markdown, hit.start())
        start = end
    return None


def _placed(markdown: str, offset: int) -> tuple[int, int, str, str | None]:
    line = markdown.count("\n", 0, offset) + 1
    line_start = markdown.rfind("\n", 0, offset) + 1
    text = markdown[line_start:].split("\n", 1)[0]
    column = offset - line_start
    snippet = text[column : column + 20]
    if any(code.start() < column < code.end() for code in _INLINE_CODE.finditer(text)):
        return line, column + 1, snippet, INLINE_CODE_HINT
    before = markdown[:line_start]
    if len(_GATE_FENCE.findall(_GATE_CODE.sub("", before))) % 2:
        # spans replaced by their line breaks, so that offsets still count lines
        kept = _GATE_CODE.sub(lambda m: "\n" * m.group().count("\n"), before)
        number = kept.count("\n", 0, kept.rfind("```")) + 1
        hint = UNCLOSED_FENCE_HINT.format(line=number)
        return line, column + 1, snippet, hint
    if _in_tilde_fence(before.splitlines()):
        return line, column + 1, snippet, TILDE_FENCE_HINT
    return line, column + 1, snippet, None


def _in_tilde_fence(lines: list[str]) -> bool:
    """True when the line after `lines` sits inside a `~~~` fence (as Markdown reads fences)."""
    fence = ""
    for line in lines:
        opened = _FENCE.match(line)
        if opened:
            marker = opened.group(1)
            if not fence:
                fence = marker
            elif marker[0] == fence[0] and len(marker) >= len(fence):
                fence = ""
    return fence.startswith("~")


def _privacy(loaded: LoadedPlugin) -> Iterator[Finding]:
    shown = Location(loaded.display_path("PRIVACY.md"), 1, 1)
    text = _text_of(loaded, "PRIVACY.md")
    if text is None:
        yield PRIVACY_MISSING.at(shown, problem="does not exist")
    elif not text.strip():
        yield PRIVACY_MISSING.at(shown, problem="is empty")
    elif PRIVACY_TEMPLATE in text:
        yield PRIVACY_MISSING.at(shown, problem="still holds the template's placeholder text")


def _files(loaded: LoadedPlugin, tree: PluginTree) -> Iterator[Finding]:
    count = len(tree.files)
    if count > MAX_FILES or tree.truncated:
        shown = f"{count}+" if tree.truncated else str(count)
        yield TOO_MANY_FILES.at(Location(loaded.display, 0, 0), count=shown, limit=MAX_FILES)
    reported: set[str] = set()
    builds: dict[str, int] = {}
    for file in tree.files:
        if build := build_folder(file.relative):
            builds[build] = builds.get(build, 0) + 1
        why, unwanted = unwanted_reason(file.relative)
        if why and unwanted not in reported:
            reported.add(unwanted)
            yield UNWANTED_FILE.at(Location(loaded.display_path(unwanted), 1, 1), path=unwanted, why=why)
    for build, files in builds.items():
        shown = f"{files} file" + ("s" if files > 1 else "")
        yield BUILD_OUTPUT.at(Location(loaded.display_path(build), 1, 1), path=build, files=shown)


def build_folder(relative: str) -> str:
    """The outermost `build/` or `dist/` folder holding this file, or empty."""
    parts = relative.split("/")
    for depth, part in enumerate(parts[:-1]):
        if part in _BUILD_DIRS:
            return "/".join(parts[: depth + 1])
    return ""


def unwanted_reason(relative: str) -> tuple[str, str]:
    """Why a packaged path must not be shipped, and the path (or folder) to name; empty if fine."""
    parts = relative.split("/")
    for depth, part in enumerate(parts[:-1]):
        if part in _UNWANTED_DIRS:
            why = "a virtual environment, cache, version control, dependency or IDE folder"
            return why, "/".join(parts[: depth + 1])
    if parts[-1] == "pyvenv.cfg":
        return "a virtual environment", "/".join(parts[:-1]) or relative
    name = parts[-1]
    env_file = name.startswith(".env.") and name not in _ENV_TEMPLATES
    if name in _UNWANTED_FILES or env_file or name.endswith(_UNWANTED_SUFFIXES):
        return "secrets, compiled files, logs or OS and editor files", relative
    return "", ""
