"""Plugin environments: an interpreter chosen from `meta.runner.version` and a venv built with uv
from the plugin's own requirements (see `build.py`), once per distinct set of requirements and of
the local files they name, reused from the cache."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from generator.diagnostics import Diagnostic
from generator.interpreters import Interpreter, choose_interpreter, find_interpreters
from generator.load.reader import MAX_REQUIREMENTS_BYTES, PluginReader
from generator.run.build import BuildPlan, build, uv_environment
from generator.run.indexes import unreachable_indexes
from generator.run.model import DEFAULT_REQUIREMENTS
from generator.run.reqfile import Named, Scan, scan
from generator.run.sandbox import Isolation

ENVIRONMENT_FORMAT = "2"


@dataclass(frozen=True, slots=True)
class Requirements:
    """What a plugin needs installed, and where that was read from."""

    text: str
    source: str


@dataclass(frozen=True, slots=True)
class Environment:
    """A built environment, or why it could not be built: `problem` (uv's failure) or `findings`
    (requirements that were not followed)."""

    key: str
    python: Path
    interpreter: Interpreter
    requested: str
    problem: str = ""
    findings: tuple[Diagnostic, ...] = ()
    # the key without this machine's interpreter path (what run results depend on)
    portable_key: str = ""
    # how to build it (describe_environment), None when there is nothing to build
    plan: BuildPlan | None = None
    isolated: bool = False
    indexes: tuple[Named, ...] = ()

    @property
    def built(self) -> bool:
        """True when the environment exists and tools can run in it."""
        return not self.problem and not self.findings

    @property
    def substituted(self) -> bool:
        """True when the plugin asked for a Python version this machine does not have."""
        return bool(self.requested) and not self.requested.startswith(self.interpreter.name)


def read_requirements(reader: PluginReader, uv: Path) -> Requirements:
    """`requirements.txt`, else `pyproject.toml` with `uv.lock` (exported by uv), else the SDK alone."""
    # Read as the validator's dependency check reads it (the same bytes, through the same reader).
    plain = reader.text("requirements.txt", MAX_REQUIREMENTS_BYTES)
    if plain is not None:
        return Requirements(plain, "requirements.txt")
    root = reader.root
    if reader.is_file("pyproject.toml") and reader.is_file("uv.lock"):
        exported = subprocess.run(
            [str(uv), "export", "--frozen", "--no-hashes", "--no-header", "--no-emit-project", "--quiet"],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=60,
            env=uv_environment(),
            check=False,
        )
        if exported.returncode == 0:
            return Requirements(exported.stdout, "uv.lock")
    return Requirements("\n".join(DEFAULT_REQUIREMENTS) + "\n", "")


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
) -> Environment:
    """The environment a plugin gets, named and located but not built (`ensure_environment`
    builds it): the run planner keys runs by it, and a plugin whose every run is cached needs no
    environment at all. `shown` names a plugin file in findings."""
    uv = find_uv()
    interpreter = choose_interpreter(requested, find_interpreters())
    if interpreter is None:
        missing = Interpreter(Path(), (0, 0))
        return Environment("", Path(), missing, requested, "no Python 3 interpreter found on this machine")
    requirements = read_requirements(reader, uv)
    named = scan(reader, requirements.text, requirements.source) if requirements.source else Scan()
    refused = named.findings(shown)
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
        portable_key=portable,
        plan=BuildPlan(uv, interpreter.path, requirements.text, reader.root, target, key, offline),
        isolated=isolated,
        indexes=tuple(named.indexes),
    )


def ensure_environment(
    reader: PluginReader,
    requested: str,
    cache: Path,
    offline: bool,
    isolation: Isolation,
    shown: Callable[[str], str],
) -> Environment:
    """The environment for a plugin, built once per distinct set of requirements and reused.
    `shown` names a plugin file in findings."""
    return build_environment(describe_environment(reader, requested, cache, offline, isolation, shown), shown)


def build_environment(environment: Environment, shown: Callable[[str], str]) -> Environment:
    """A described environment, built when it is not already (or why it could not be)."""
    plan = environment.plan
    if not environment.built or plan is None:
        return environment
    target = plan.target
    with locked(target.parent / f"{environment.key}.lock"):
        if not (target / ".complete").is_file():
            unreachable = [] if plan.offline else unreachable_indexes(list(environment.indexes), shown)
            if unreachable:
                return replace(environment, findings=tuple(unreachable))
            problem = build(plan, environment.isolated)
            if problem:
                return replace(environment, problem=problem)
            (target / ".complete").write_text(plan.requirements, encoding="utf-8")
        os.utime(target)  # its last use, for `cache prune` (cachedir.py)
    return environment
