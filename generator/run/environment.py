"""Plugin environments as Dify's daemon builds them: the daemon's one Python (not the one
`meta.runner.version` names) and a venv built with uv from the file the daemon installs
(`pyproject.toml` with `uv sync`, else `requirements.txt`; see `dependencies.py` and `envbuild.py`),
once per distinct set of requirements and of the local files they name, reused from the cache."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from generator.findings import Finding, Location
from generator.interpreters import Interpreter, find_interpreters
from generator.load.reader import MAX_REQUIREMENTS_BYTES, PluginReader
from generator.run.cache import MAX_HASHED_BYTES
from generator.run.dependencies import (
    LOCK,
    PYPROJECT,
    REQUIREMENTS,
    Declared,
    disagreement,
    failed_requirement,
    installed_from,
    pyproject_names,
    requirement_names,
    without_sdk,
)
from generator.run.envbuild import BuildPlan, build
from generator.run.indexes import unreachable_indexes
from generator.run.lockfile import stale_lock
from generator.run.native import foreign_libraries
from generator.run.pyversion import choose_python
from generator.run.reqfile import Named, Scan, scan
from generator.run.runtypes import DEFAULT_REQUIREMENTS
from generator.run.sandbox import Isolation
from generator.run.share import share_files

ENVIRONMENT_FORMAT = "3"


@dataclass(frozen=True, slots=True)
class Requirements:
    """What a plugin needs installed, and where that was read from."""

    text: str
    source: str
    # pyproject.toml beside a uv.lock: installed as locked (`uv sync --frozen`)
    frozen: bool = False

    @property
    def synced(self) -> bool:
        """True when the daemon installs these with `uv sync` (from pyproject.toml)."""
        return self.source == PYPROJECT


@dataclass(frozen=True, slots=True)
class Environment:
    """A built environment, or why it could not be built: `problem` (uv's failure) or `findings`
    (requirements that were not followed)."""

    key: str
    python: Path
    interpreter: Interpreter
    requested: str
    problem: str = ""
    findings: tuple[Finding, ...] = ()
    # what does not stop the runs (the two dependency files disagree, foreign native libraries)
    warnings: tuple[Finding, ...] = ()
    # where a failed build stands: the line of the requirement uv names, else the dependency file
    source: str = ""
    declared: tuple[Declared, ...] = ()
    # the error for an environment that ends up without dify_plugin
    without_sdk: Finding | None = None
    where: Location | None = None
    # the key without this machine's interpreter path (what run results depend on)
    portable_key: str = ""
    # how to build it (describe_environment), None when there is nothing to build
    plan: BuildPlan | None = None
    isolated: bool = False
    indexes: tuple[Named, ...] = ()
    # False when requires-python rules out the daemon's Python (see `pyversion.py`)
    daemons_python: bool = True

    @property
    def built(self) -> bool:
        """True when the environment exists and tools can run in it."""
        return not self.problem and not self.findings

    @property
    def substituted(self) -> bool:
        """True when the plugin asked for another Python version than the daemon's one, which it
        runs with (not when requires-python made the daemon fetch another: `R060` says that)."""
        asked = bool(self.requested) and not self.requested.startswith(self.interpreter.name)
        return asked and self.daemons_python


def read_requirements(reader: PluginReader) -> Requirements:
    """What the daemon installs: `pyproject.toml` (its text and `uv.lock`'s, for the key) when the
    plugin has one, else `requirements.txt`, else the SDK alone."""
    # Read as the validator's dependency check reads them (the same bytes, through the same reader).
    source = installed_from(reader)
    if source == PYPROJECT:
        project = reader.text(PYPROJECT, MAX_REQUIREMENTS_BYTES)
        if project is not None:
            # a lock the package leaves out (`.difyignore`) never reaches the daemon
            lock = reader.head(LOCK, MAX_HASHED_BYTES, keep=False) if lock_shipped(reader) else None
            locked = "" if lock is None else hashlib.sha256(lock).hexdigest()
            return Requirements(f"{project}\0{LOCK} {locked}", PYPROJECT, frozen=lock is not None)
    plain = reader.text(REQUIREMENTS, MAX_REQUIREMENTS_BYTES) if source else None
    if plain is not None:
        return Requirements(plain, REQUIREMENTS)
    return Requirements("\n".join(DEFAULT_REQUIREMENTS) + "\n", "")


def lock_shipped(reader: PluginReader) -> bool:
    """True when the package holds the plugin's `uv.lock` (its ignore file may leave it out)."""
    return any(file.relative == LOCK for file in reader.tree.files)


def find_uv() -> Path:
    """The uv that came with the generator (next to the interpreter, else uv's own lookup)."""
    beside = Path(sys.executable).parent / "uv"
    if beside.is_file():
        return beside
    import uv

    return Path(uv.find_uv_bin())


def environment_key(interpreter: Interpreter, requirements: Requirements, local: str, mode: str) -> str:
    """Everything that changes what gets installed: the requirements, the contents of the local
    files they name, and whether source distributions are built."""
    digest = hashlib.sha256()
    for part in (ENVIRONMENT_FORMAT, str(interpreter.path), interpreter.name, requirements.text, local, mode):
        digest.update(part.encode() + b"\0")
    return digest.hexdigest()[:24]


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """An exclusive lock on `path` (created when missing) for the time of the block."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def describe_environment(
    reader: PluginReader,
    requested: str,
    cache: Path,
    offline: bool,
    isolation: Isolation,
    shown: Callable[[str], str],
    arches: tuple[str, ...] = (),
) -> Environment:
    """The environment a plugin gets, named and located but not built (`build_environment`
    builds it): the run planner keys runs by it, and a plugin whose every run is cached needs no
    environment at all. `shown` names a plugin file in findings; `arches` are the manifest's
    `meta.arch`."""
    uv = find_uv()
    requirements = read_requirements(reader)
    # the daemon's one Python, not meta.runner.version's (`requested` is only reported), unless the
    # pyproject.toml the daemon syncs rules it out
    project = reader.text(PYPROJECT, MAX_REQUIREMENTS_BYTES) if requirements.synced else None
    choice = choose_python(project, find_interpreters(), shown)
    interpreter = choice.interpreter
    if interpreter is None:
        missing = Interpreter(Path(), (0, 0))
        if choice.findings:  # none of this machine's Pythons is one the plugin allows
            return Environment("", Path(), missing, requested, findings=choice.findings)
        return Environment("", Path(), missing, requested, "no Python 3 interpreter found on this machine")
    plain = requirements.source == REQUIREMENTS
    named = scan(reader, requirements.text, requirements.source) if plain else Scan()
    refused = named.findings(shown)
    warnings = (
        *choice.findings,
        *disagreement(reader, shown),
        *stale_lock(reader, shown),
        *foreign_libraries(reader, arches, shown),
    )
    # without isolation, and offline (build backends come from the index), wheels only
    isolated = isolation.namespaces and not offline
    mode = "sdists" if isolated else "wheels"
    local = named.digest(reader)
    key = environment_key(interpreter, requirements, local, mode)
    target = cache / "envs" / key
    python = target / "bin" / "python"
    # What the runs' results depend on, without the interpreter's place on this machine: a run
    # cache keyed by it moves between machines (`--shard`, `cache merge`).
    portable = hashlib.sha256(
        "\0".join((ENVIRONMENT_FORMAT, interpreter.name, requirements.text, local, mode)).encode()
    ).hexdigest()[:24]
    return Environment(
        key,
        python,
        interpreter,
        requested,
        findings=tuple(refused),
        warnings=warnings,
        source=requirements.source,
        declared=tuple(_declared(reader, requirements)),
        without_sdk=without_sdk(requirements.source, reader, shown) if requirements.source else None,
        portable_key=portable,
        plan=replace(
            BuildPlan(uv, interpreter.path, requirements.text, reader.root, target, key, offline),
            synced=requirements.synced,
            frozen=requirements.frozen,
            drop_lock=requirements.synced and reader.is_file(LOCK) and not lock_shipped(reader),
        ),
        isolated=isolated,
        indexes=tuple(named.indexes),
        daemons_python=not choice.findings,
    )


def _declared(reader: PluginReader, requirements: Requirements) -> list[Declared]:
    """The packages of the file installed from, with their lines."""
    if not requirements.source:
        return []
    text = reader.text(requirements.source, MAX_REQUIREMENTS_BYTES) or ""
    return (pyproject_names(text) or []) if requirements.synced else requirement_names(text)


def build_environment(environment: Environment, shown: Callable[[str], str]) -> Environment:
    """A described environment, built when it is not already (or why it could not be): built once per
    distinct set of requirements and reused. `shown` names a plugin file in findings."""
    plan = environment.plan
    if not environment.built or plan is None:
        return environment
    target = plan.target
    with locked(target.parent / f"{environment.key}.lock"):
        if not (target / ".complete").is_file():
            unreachable = [] if plan.offline else unreachable_indexes(list(environment.indexes), shown)
            if unreachable:
                return replace(environment, findings=tuple(unreachable))
            built = build(plan, environment.isolated)
            if built.problem:
                problem = built.problem
                return replace(environment, problem=problem, where=failed_at(problem, environment, shown))
            # root's and read-only to runs: its wheels' files can be shared (a build script that
            # ran in it keeps whatever it made out of the store)
            if environment.isolated:
                share_files(target, target.parent.parent, plan.interpreter, trusted=not built.from_source)
            (target / ".complete").write_text(plan.requirements, encoding="utf-8")
        with contextlib.suppress(OSError):  # its last use, for `cache prune` (cachedir.py)
            os.utime(target)
    if environment.without_sdk is not None and not has_sdk(target):
        return replace(environment, findings=(environment.without_sdk,))
    return environment


def failed_at(problem: str, environment: Environment, shown: Callable[[str], str]) -> Location | None:
    """The line of the requirement uv's error names, else the file installed from."""
    if not environment.source:
        return None
    found = failed_requirement(problem, environment.declared)
    if found is None:
        return Location(shown(environment.source), 1, 1)
    return Location(shown(environment.source), found.line, found.column)


def has_sdk(target: Path) -> bool:
    """True when the environment has dify_plugin installed."""
    return any(target.glob("lib/python3*/site-packages/dify_plugin/__init__.py"))
