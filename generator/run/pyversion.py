"""The Python a plugin's environment is built with: the daemon's one Python, unless the plugin's
`pyproject.toml` rules it out with `requires-python` (then the daemon's `uv sync` fetches another)."""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from packaging.specifiers import InvalidSpecifier, SpecifierSet

from generator.findings import Finding, Location, Severity
from generator.interpreters import DAEMON_PYTHON, Interpreter, choose_interpreter
from generator.rules import rule
from generator.run.dependencies import PYPROJECT

PYTHON_FETCHED = rule(
    "R060",
    "python-fetched",
    Severity.WARNING,
    "pyproject.toml asks for Python {wanted}, which rules out the daemon's Python {daemon}: the "
    "daemon's `uv sync` replaces the plugin's environment with a Python it downloads (the runner used "
    "{used})",
    "Allow Python {daemon} in requires-python (for example `>={daemon}`) unless the code needs a newer "
    "one: a Dify installation that cannot download an interpreter (no access to GitHub, or uv set "
    "offline) cannot install this plugin.",
    """
Dify's plugin daemon creates every plugin's environment with its own Python (`uv venv .venv
--python 3.12`) and, for a plugin with a `pyproject.toml`, then runs `uv sync --no-dev` in it with
no `UV_*` setting. When `requires-python` excludes 3.12, uv does not fail: it removes that
environment and creates one with an interpreter that satisfies the range, which it downloads when
the machine has none (uv's default). So the plugin installs and runs wherever the daemon can
download Python, and fails to install where it cannot. The runner builds such an environment with
an interpreter of this machine that satisfies the range, and says so with this warning.
""",
)
PYTHON_UNAVAILABLE = rule(
    "R061",
    "python-unavailable",
    Severity.WARNING,
    "pyproject.toml asks for Python {wanted} and this machine has no such interpreter (it has "
    "{available}); the environment was not built and no tool of the plugin was run",
    "Install a Python that satisfies the range where you validate (for example with pyenv), or allow "
    "Python {daemon}, the daemon's own, in requires-python.",
    """
The daemon's `uv sync` downloads an interpreter that satisfies `requires-python` when the range
rules out its own Python 3.12 (see `R060`). The runner never downloads one: it uses the Pythons
installed on the machine that validates. When none of them satisfies the range, the plugin's tools
cannot be run here, which says nothing about the plugin, so it is a warning.
""",
)


@dataclass(frozen=True, slots=True)
class Choice:
    """The interpreter to build with (None when none fits), and what to say about the choice."""

    interpreter: Interpreter | None
    findings: tuple[Finding, ...] = ()


def choose_python(
    pyproject: str | None, available: Sequence[Interpreter], shown: Callable[[str], str]
) -> Choice:
    """The daemon's Python, or, when `pyproject` (the text the daemon installs from, None for a
    requirements file) rules it out, the nearest interpreter of this machine that its range allows."""
    daemon = choose_interpreter(DAEMON_PYTHON, list(available))
    found = _requires_python(pyproject) if pyproject is not None else None
    if found is None or daemon is None or _allows(found[0], daemon):
        return Choice(daemon)
    wanted, line = found
    where = Location(shown(PYPROJECT), line, 1)
    fitting = [candidate for candidate in available if _allows(wanted, candidate)]
    if not fitting:
        names = ", ".join(candidate.name for candidate in available)
        unavailable = PYTHON_UNAVAILABLE.at(where, wanted=str(wanted), available=names, daemon=DAEMON_PYTHON)
        return Choice(None, (unavailable,))
    # the nearest to the daemon's: the oldest release the range allows, as close as this machine has
    chosen = min(fitting, key=lambda candidate: candidate.version)
    fetched = PYTHON_FETCHED.at(where, wanted=str(wanted), daemon=DAEMON_PYTHON, used=chosen.name)
    return Choice(chosen, (fetched,))


def _requires_python(text: str) -> tuple[SpecifierSet, int] | None:
    """`[project] requires-python` and its line, None when absent or unreadable."""
    try:
        project = tomllib.loads(text).get("project")
        wanted = project.get("requires-python") if isinstance(project, dict) else None
        specifiers = SpecifierSet(wanted) if isinstance(wanted, str) else None
    except (tomllib.TOMLDecodeError, RecursionError, InvalidSpecifier):
        return None
    if not specifiers:
        return None
    line = next((n for n, text_line in enumerate(text.splitlines(), 1) if "requires-python" in text_line), 1)
    return specifiers, line


def _allows(specifiers: SpecifierSet, interpreter: Interpreter) -> bool:
    """True when some release of the interpreter's minor version is in the range (3.13 for
    `>=3.13.1`: patch releases are what the machine happens to have)."""
    major, minor = interpreter.version
    return any(specifiers.contains(f"{major}.{minor}.{patch}", prereleases=False) for patch in range(30))
