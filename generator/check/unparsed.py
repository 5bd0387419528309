"""Python files the code checks could not read: said, never skipped in silence.

The code checks (messages thrown away, undeclared parameters, safety, secrets, access domains) read
syntax trees. A file is parsed with the grammar of Dify's Python (generator.load.syntax), so newer
syntax is read; a file that still has no tree is named here, with the reason."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from generator.check import CheckContext
from generator.findings import Finding, Location, Severity
from generator.interpreters import DAEMON_PYTHON
from generator.load.crawl import LoadedPlugin
from generator.load.modules import module_of
from generator.rules import rule

NOT_CHECKED = rule(
    "T009",
    "code-not-checked",
    Severity.WARNING,
    "the code checks skipped {path}: it does not parse with Python {grammar} ({problem})",
    "{fix}",
    """
The code checks read each Python file's syntax tree. The registry parses a file with the grammar of
the Python Dify runs plugins with (3.12, the daemon's), asking an interpreter of that version on this
machine when the validator's own Python is older, so PEP 701 f-strings and `type` statements are
read. A file that does not parse even so, or that the validator could only try with an older Python
(none of Dify's version is installed), is named here: nothing of it was checked. A syntax error
under Dify's Python also stops the tool that imports the file from loading.
""",
)


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """Each packaged or tool Python file that has no syntax tree, once."""
    if loaded.plugin is None:
        return
    reader = loaded.reader
    named: list[str] = []
    for file in reader.tree.files:
        if file.relative.endswith(".py") and reader.python_tree(file) is None:
            named.append(file.relative)
    for tool in loaded.plugin.tools:
        module = module_of(reader, tool.source) if tool.source else None
        if module is not None and module.loaded and reader.source_tree(module.loaded) is None:
            named.append(module.loaded)
    yield from _findings(loaded, dict.fromkeys(named))


def _findings(loaded: LoadedPlugin, named: Iterable[str]) -> Iterator[Finding]:
    for relative in named:
        parsed = loaded.reader.unparsed(relative)
        if parsed is None:
            continue  # not Python text (binary, too large, missing): other rules say so
        older = _version(parsed.grammar) < _version(DAEMON_PYTHON)
        fix = (
            f"Install Python {DAEMON_PYTHON} (Dify's) where you validate: the file may use its newer syntax."
            if older
            else "Fix the syntax error: the file cannot be imported on Dify either."
        )
        where = Location(loaded.display_path(relative), parsed.line, 1)
        yield NOT_CHECKED.at(where, path=relative, grammar=parsed.grammar, problem=parsed.problem, fix=fix)


def _version(name: str) -> tuple[int, ...]:
    return tuple(int(part) for part in name.split(".") if part.isdigit())
