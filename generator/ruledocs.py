"""The rule tables of the documentation pages (`registry/docs/*.md`), written from the rules.

A table stands between two comments; the first names the rules it holds:

    <!-- rules: R009 R040-R041 R055-R058 -->

    | rule | name | severity | finding |
    ...

    <!-- end of rules -->

A selector is a letter (every rule whose code starts with it), a code (`R009`) or a range of one
letter (`R055-R058`). Everything outside the comments is written by hand and kept as it is; every
rule stands in exactly one table (`tests/test_ruledocs.py`). A table of `D` rules has the change
class as a column; the finding column is the rule's message with each value left out (`…`).

`python -m generator.ruledocs [DOCS_DIR]` rewrites the tables (default `registry/docs`);
with `--check` it writes nothing, names the pages whose tables differ from the rules, and exits 1.
"""

from __future__ import annotations

import re
import string
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

from generator.diff.changes import class_of_code
from generator.rules import Rule
from generator.ruleset import all_rules

START = "<!-- rules: {selectors} -->"
END = "<!-- end of rules -->"
_BLOCK = re.compile(
    r"^<!-- rules: (?P<selectors>[^>\n]*?) -->\n(?P<table>.*?)^<!-- end of rules -->$",
    re.MULTILINE | re.DOTALL,
)
_SELECTOR = re.compile(r"[A-Z]|([A-Z])\d{3}(-\1\d{3})?")
_HEADER = ("rule", "name", "severity", "finding")
_DIFF_HEADER = ("rule", "name", "severity", "class", "finding")


class RuleTableError(ValueError):
    """A table's comment names rules in a way that selects nothing or cannot be read."""


def selected(selectors: str, rules: Mapping[str, Rule]) -> list[Rule]:
    """The rules a table's selectors name, in code order."""
    chosen: dict[str, Rule] = {}
    for selector in selectors.split():
        if not _SELECTOR.fullmatch(selector):
            raise RuleTableError(f"{selector!r} is not a letter, a rule code or a range of codes")
        first, _, last = selector.partition("-")
        named = [r for code, r in rules.items() if code.startswith(first) or first < code <= last]
        if not named:
            raise RuleTableError(f"{selector!r} names no rule")
        chosen.update((r.code, r) for r in named)
    return [chosen[code] for code in sorted(chosen)]


def table(rules: Iterable[Rule]) -> str:
    """The Markdown table of `rules`, one row each, ending with a line break."""
    shown = list(rules)
    diff = all(r.code.startswith("D") for r in shown)
    header = _DIFF_HEADER if diff else _HEADER
    lines = [_row(header), _row(["---"] * len(header))]
    lines += [_row(_cells(r, diff)) for r in shown]
    return "\n".join(lines) + "\n"


def _cells(rule: Rule, diff: bool) -> list[str]:
    kind = class_of_code(rule.code)
    message = rule.message.removeprefix(f"{kind.value}: ") if kind else rule.message
    cells = [rule.code, f"`{rule.name}`", rule.severity.value]
    if diff:
        cells.append(kind.value if kind else "—")
    return [*cells, _without_values(message)]


def _without_values(template: str) -> str:
    # A message is a `str.format` template; its values are the finding's, so the table shows `…`.
    parts = string.Formatter().parse(template)
    return "".join(text + ("…" if field is not None else "") for text, field, _, _ in parts)


def _row(cells: Iterable[str]) -> str:
    return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"


def render(page: str, rules: Mapping[str, Rule]) -> str:
    """`page` with every rule table written anew from `rules`."""

    def fresh(block: re.Match[str]) -> str:
        selectors = block["selectors"]
        # Blank lines around the table: Markdown would read a table touching the comment as HTML.
        return f"{START.format(selectors=selectors)}\n\n{table(selected(selectors, rules))}\n{END}"

    return _BLOCK.sub(fresh, page)


def placement(pages: Mapping[str, str], rules: Mapping[str, Rule]) -> dict[str, list[str]]:
    """Each rule's code -> the pages whose tables hold it (a page once per table)."""
    found: dict[str, list[str]] = {code: [] for code in rules}
    for name, text in pages.items():
        for block in _BLOCK.finditer(text):
            for chosen in selected(block["selectors"], rules):
                found[chosen.code].append(name)
    return found


def pages_in(folder: Path) -> dict[str, str]:
    """The Markdown pages of `folder` by file name."""
    return {path.name: path.read_text(encoding="utf-8") for path in sorted(folder.glob("*.md"))}


def main(argv: list[str]) -> int:
    """Rewrite the rule tables of the pages in a folder, or with `--check` only compare them."""
    check = "--check" in argv
    folder = Path(next((arg for arg in argv if not arg.startswith("-")), "registry/docs"))
    if not folder.is_dir():
        print(f"error: {folder} is not a folder", file=sys.stderr)
        return 2
    rules = all_rules()
    try:
        fresh = {name: (text, render(text, rules)) for name, text in pages_in(folder).items()}
    except RuleTableError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    stale = {name: new for name, (old, new) in fresh.items() if new != old}
    for name, new in stale.items():
        print(f"{folder / name}: {'rule tables differ from the rules' if check else 'rule tables rewritten'}")
        if not check:
            (folder / name).write_text(new, encoding="utf-8")
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
