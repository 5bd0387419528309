"""How the marketplace's pre-check reads a requirements file: one physical line at a time, with no
idea of pip's option syntax beyond a few spellings. Lines pip installs without complaint can fail it.

Read from `toolkit/checks/dependencies.py` of langgenius/dify-marketplace-toolkit (what the PR check
of langgenius/dify-plugins runs on every submission): each line, cut at its first " #", is blocked
when it holds `git+` or a URL at its start or after " @"; passed (with at most a warning) when it
starts with `-e `, `--editable `, a local path (`./`, `../`, `/`), an include (`-r `,
`--requirement `) or one of a few options followed by a space (`-c `, `--constraint `,
`--extra-index-url `, `--find-links `, `--index-url `, `--no-binary `, `--only-binary `,
`--trusted-host `, `--use-feature `, `--use-pep517`); otherwise it is read as a dependency, blocked
unless it holds a version operator (`===`, `==`, `~=`, `!=`, `<=`, `>=`, `<`, `>`, `^`), and for
`dify-plugin` unless `>=` or `==` names 0.9.0 or later. A backslash continuation is not joined:
each continued line (`--hash=sha256:...` under a requirement, as `uv export` writes them) is judged
alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from generator.load.reqlines import redacted

# Option spellings the pre-check lets through, each only as written here (with the space).
ACCEPTED = (
    "-c ",
    "--constraint ",
    "--extra-index-url ",
    "--find-links ",
    "--index-url ",
    "--no-binary ",
    "--only-binary ",
    "--trusted-host ",
    "--use-pep517",
    "--use-feature ",
    "-r ",
    "--requirement ",
    "-e ",
    "--editable ",
)
_OPERATOR = re.compile(r"===|==|~=|!=|<=|>=|<|>|\^")
_URL_START = re.compile(r"(^|\s@)\s*(https?|ftp|file)://", re.IGNORECASE)
_LOCAL_START = re.compile(r"(^|\s@)\s*(\./|\.\./|/)")
_NAME = re.compile(r"^\s*([A-Za-z0-9_.-]+)")
_SDK_BOUND = re.compile(r"(?:>=|==)\s*([0-9][0-9A-Za-z.+-]*)")
SDK_FLOOR = (0, 9, 0)
# The spelling the pre-check accepts for an option written another way (`-i`, `--opt=value`, `-rFILE`).
_SPELLED = {
    "-i": "--index-url",
    "--index-url": "--index-url",
    "--extra-index-url": "--extra-index-url",
    "--trusted-host": "--trusted-host",
    "-f": "--find-links",
    "--find-links": "--find-links",
    "--only-binary": "--only-binary",
    "--no-binary": "--no-binary",
    "--use-feature": "--use-feature",
    "-r": "-r",
    "--requirement": "-r",
    "-c": "-c",
    "--constraint": "-c",
}


@dataclass(frozen=True, slots=True)
class Blocked:
    """A physical line the pre-check blocks: what it takes the line for, and the fix."""

    reading: str
    fix: str


def precheck_text(line: str) -> str:
    """The line as the pre-check judges it: cut at its first " #", stripped."""
    return line.split(" #", 1)[0].strip()


def sdk_floor_read(requirement: str) -> bool:
    """True when the pre-check finds `dify-plugin`'s floor: `>=` or `==` with 0.9.0 or later (it
    reads no other operator: `~=0.9.0` and `>0.9` fail it)."""
    found = _SDK_BOUND.search(requirement)
    if found is None:
        return False
    parts: list[int] = []
    for part in re.split(r"[.+-]", found.group(1)):
        if not part.isdigit():
            break
        parts.append(int(part))
    return tuple(parts) >= SDK_FLOOR


def blocked_option(text: str) -> Blocked | None:
    """Why the pre-check blocks an option line or a continued line (`text` as `precheck_text`
    gives it), or None when it lets the line through (or blocks it for a reason pip shares, which
    other rules name)."""
    if not text or text.startswith("#") or "git+" in text.lower() or _URL_START.search(text):
        return None
    if text.startswith(ACCEPTED) or _LOCAL_START.search(text) or _OPERATOR.search(text):
        return None
    if text == "--no-index":
        return None  # U022: pip cannot install from no index either
    word = text.split(None, 1)[0]
    option, _, inline = word.partition("=")
    if not option.startswith("--") and len(option) > 2:
        option, inline = option[:2], option[2:]
    value = redacted(inline or (text.split(None, 1)[1].strip() if " " in text else ""))
    reading = "a dependency without a version constraint"
    if option == "--hash":
        fix = (
            "Write each requirement with its `--hash` options on one line, or export without hashes "
            "(`uv export --no-hashes`): the pre-check reads a continued line on its own."
        )
        return Blocked(reading + " (it does not join continued lines)", fix)
    spelled = _SPELLED.get(option)
    if spelled is not None and value:
        return Blocked(
            reading, f"Write `{spelled} {value}`, the only spelling the pre-check reads as an option."
        )
    instead = " and pin the pre-release you need (`pkg==2.0b1`)" if option == "--pre" else ""
    fix = (
        f"Remove `{option}`{instead}: the pre-check lets through only -r, -c, -e, --index-url, "
        "--extra-index-url, --find-links, --trusted-host, --no-binary, --only-binary, --use-feature "
        "(each followed by a space) and --use-pep517."
    )
    return Blocked(reading, fix)
