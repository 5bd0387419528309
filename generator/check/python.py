"""Submission check: every packaged Python file compiles with the Python the runner uses for the
plugin's `meta.runner.version` (compiled only, never imported or run)."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from generator.check import CheckContext
from generator.check.common import submission_only
from generator.check.unparsed import start_failures
from generator.findings import Finding, Location, Severity
from generator.interpreters import Interpreter, choose_interpreter, find_interpreters
from generator.load.crawl import LoadedPlugin
from generator.rules import rule

MAX_SOURCE_BYTES = 2_000_000
COMPILE_TIMEOUT = 120
# Run by the plugin's interpreter: sources in on stdin (bytes as latin-1 text, which carries every
# byte unchanged), failures out as JSON. `-I -S` keeps the caller's environment and site packages
# out; nothing is imported from the plugin.
_COMPILER = """
import json, sys, warnings
warnings.simplefilter("ignore")
failed = []
for index, (name, text) in enumerate(json.load(sys.stdin)):
    try:
        compile(text.encode("latin-1"), name, "exec", dont_inherit=True)
    except SyntaxError as problem:
        failed.append([index, problem.lineno or 1, problem.offset or 1, str(problem.msg)])
    except (ValueError, RecursionError, MemoryError) as problem:
        failed.append([index, 1, 1, str(problem) or type(problem).__name__])
json.dump(failed, sys.stdout)
"""

SYNTAX_ERROR = rule(
    "U013",
    "python-syntax-error",
    Severity.ERROR,
    "Python syntax error: {problem}",
    "Fix the code; `python{version} -m py_compile {path}` shows the same error.",
    """
Every Python file of a submitted plugin must compile: a file with a syntax error makes the tool that
imports it fail when the plugin starts, and the marketplace's pre-check runs `compileall` on the
package. The registry compiles each file, without importing or running it, with the interpreter the
runner picks for the plugin's `meta.runner.version` (found on `PATH` or through pyenv), so code
valid on Python 3.12 is not reported by a validator running on 3.11. When that version is not
installed, the validator's own Python compiles the code; a failure there is an error only when
that Python is at least the plugin's version, else rule U027 says that it could not be checked.
""",
)
NOT_CHECKED = rule(
    "U027",
    "python-version-not-checked",
    Severity.INFO,
    "does not compile with Python {own} ({problem}), and Python {wanted}, which the plugin runs on, is "
    "not installed here to check it",
    "Install Python {wanted} (for example with pyenv) and validate again; newer syntax may be valid there.",
    """
The plugin's `meta.runner.version` names a Python this machine does not have, and the validator's
own, older Python cannot compile the file. Newer Pythons accept syntax older ones refuse (nested
quotes in f-strings, `type` statements and generic classes since 3.12), so the failure may be no
failure on the plugin's Python: the registry says it could not check instead of reporting a
syntax error that may not exist.
""",
)


@dataclass(frozen=True, slots=True)
class Failure:
    """A file that does not compile: where and why."""

    relative: str
    line: int
    column: int
    problem: str


@submission_only
def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """Compile every packaged `.py` file, only with `--submission`."""
    sources = {
        f.relative: source
        for f in loaded.reader.tree.files
        if f.relative.endswith(".py") and not f.is_link and f.size <= MAX_SOURCE_BYTES
        if (source := loaded.reader.listed_head(f, MAX_SOURCE_BYTES)) is not None
    }
    if not sources:
        return
    plugin = loaded.plugin
    assert plugin is not None  # `submission_only` runs this only on a plugin whose manifest loaded
    wanted = _version(plugin.runner_version)
    if __name__ not in context.memo:  # looked up once per run: it globs PATH and pyenv's folders
        context.memo[__name__] = find_interpreters()
    interpreters: list[Interpreter] = context.memo[__name__]
    chosen = choose_interpreter(plugin.runner_version, interpreters)
    own = sys.version_info[:2]
    if chosen is not None and chosen.version == wanted and chosen.version != own:
        failures = _compile_with(chosen, sources)
        if failures is not None:
            yield from _report(loaded, failures, chosen.name, None)
            return
    failures = _compile_here(sources)
    yield from _report(loaded, failures, f"{own[0]}.{own[1]}", None if own >= wanted else wanted)


def _report(
    loaded: LoadedPlugin, failures: list[Failure], used: str, missing: tuple[int, int] | None
) -> Iterator[Finding]:
    told = start_failures(loaded)  # T021 names these files already, and says the plugin does not start
    for failure in failures:
        where = Location(loaded.display_path(failure.relative), failure.line, failure.column)
        if where.file in told:
            continue
        if missing is None:
            yield SYNTAX_ERROR.at(where, problem=failure.problem, path=failure.relative, version=used)
        else:
            wanted = f"{missing[0]}.{missing[1]}"
            yield NOT_CHECKED.at(where, own=used, problem=failure.problem, wanted=wanted)


def _version(text: str) -> tuple[int, int]:
    """`meta.runner.version` as (major, minor); the runner's default 3.12 when it does not say."""
    try:
        major, minor = (int(part) for part in text.split(".")[:2])
    except ValueError:
        return (3, 12)
    return (major, minor)


def _compile_here(sources: dict[str, bytes]) -> list[Failure]:
    failures: list[Failure] = []
    for relative, source in sources.items():
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # invalid escape sequences and the like are not errors
                compile(source, relative, "exec", dont_inherit=True)
        except SyntaxError as problem:
            failures.append(Failure(relative, problem.lineno or 1, problem.offset or 1, problem.msg))
        except (ValueError, RecursionError, MemoryError) as problem:  # NUL bytes, absurd nesting
            failures.append(Failure(relative, 1, 1, str(problem) or type(problem).__name__))
    return failures


def _compile_with(interpreter: Interpreter, sources: dict[str, bytes]) -> list[Failure] | None:
    """Failures as `interpreter` compiles the files, or None when it could not be run."""
    names = list(sources)
    try:
        done = subprocess.run(
            [str(interpreter.path), "-I", "-S", "-c", _COMPILER],
            input=json.dumps([[name, sources[name].decode("latin-1")] for name in names]),
            capture_output=True,
            text=True,
            timeout=COMPILE_TIMEOUT,
            check=False,
        )
        rows = json.loads(done.stdout) if done.returncode == 0 else None
    except (OSError, subprocess.TimeoutExpired, ValueError):
        return None
    if not isinstance(rows, list):
        return None
    return [
        Failure(names[index], line, column, problem)
        for index, line, column, problem in rows
        if isinstance(index, int) and 0 <= index < len(names)
    ]
