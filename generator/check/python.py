"""Submission check: every packaged Python file compiles (compiled only, never imported or run)."""

from __future__ import annotations

import sys
import warnings
from collections.abc import Iterable

from generator.check import CheckContext
from generator.check.tree import walk_plugin
from generator.diagnostics import Diagnostic, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.rules import rule

MAX_SOURCE_BYTES = 2_000_000

SYNTAX_ERROR = rule(
    "U013",
    "python-syntax-error",
    Severity.ERROR,
    "Python syntax error: {problem}",
    "Fix the code; `python -m py_compile {path}` shows the same error.",
    """
Every Python file of a submitted plugin must compile: a file with a syntax error makes the tool that
imports it fail when the plugin starts. The registry compiles each file without importing or running
it. When the validator runs on an older Python than the plugin's `meta.runner.version`, newer syntax
may be reported; the finding is then a warning.
""",
)


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Diagnostic]:
    """Compile every packaged `.py` file, only with `--submission`."""
    if not context.submission or loaded.plugin is None:
        return
    severity = None if _runs_at_least(loaded.plugin.runner_version) else Severity.WARNING
    for file in walk_plugin(loaded.root).files:
        if not file.relative.endswith(".py") or file.is_link or file.size > MAX_SOURCE_BYTES:
            continue
        source = (loaded.root / file.relative).read_bytes()
        shown = loaded.display_path(file.relative)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # invalid escape sequences and the like are not errors
                compile(source, shown, "exec", dont_inherit=True)
        except SyntaxError as problem:
            where = Location(shown, problem.lineno or 1, problem.offset or 1)
            yield SYNTAX_ERROR.at(where, severity, problem=problem.msg, path=file.relative)
        except ValueError as problem:  # NUL bytes in the source
            yield SYNTAX_ERROR.at(Location(shown, 1, 1), severity, problem=str(problem), path=file.relative)


def _runs_at_least(version: str) -> bool:
    """True when this interpreter is at least the plugin's runner version (or it is unknown)."""
    try:
        wanted = tuple(int(part) for part in version.split(".")[:2])
    except ValueError:
        return True
    return sys.version_info[:2] >= wanted
