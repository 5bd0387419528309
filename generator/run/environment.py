"""Plugin environments: an interpreter chosen from `meta.runner.version` and a venv built with uv
from the plugin's own requirements (see `build.py`), once per distinct set of requirements and of
the local files they name, reused from the cache."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from generator.diagnostics import Diagnostic
from generator.run.build import BuildPlan, build, uv_environment
from generator.run.indexes import unreachable_indexes
from generator.run.model import DEFAULT_REQUIREMENTS
from generator.run.reqfile import Scan, scan
from generator.run.sandbox import Isolation

ENVIRONMENT_FORMAT = "2"
_VERSION = re.compile(r"python(\d+)\.(\d+)$")


@dataclass(frozen=True, slots=True)
class Interpreter:
    """A Python found on this machine."""

    path: Path
    version: tuple[int, int]

    @property
    def name(self) -> str:
        """`3.12` style."""
        return f"{self.version[0]}.{self.version[1]}"


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

    @property
    def built(self) -> bool:
        """True when the environment exists and tools can run in it."""
        return not self.problem and not self.findings

    @property
    def substituted(self) -> bool:
        """True when the plugin asked for a Python version this machine does not have."""
        return bool(self.requested) and not self.requested.startswith(self.interpreter.name)


def find_interpreters() -> list[Interpreter]:
    """Every `python3.N` on PATH or installed by pyenv (real paths: uv does not follow pyenv shims)."""
    found: dict[tuple[int, int], Path] = {}
    folders = [Path(p) for p in os.environ.get("PATH", "").split(os.pathsep) if p and "shims" not in p]
    pyenv_root = Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv")
    versions = pyenv_root / "versions"
    if versions.is_dir():
        folders.extend(sorted((p / "bin" for p in versions.iterdir()), reverse=True))
    for folder in folders:
        with contextlib.suppress(OSError):
            for candidate in folder.glob("python3.*"):
                match = _VERSION.match(candidate.name)
                if match and os.access(candidate, os.X_OK):
                    found.setdefault((int(match[1]), int(match[2])), candidate.resolve())
    return [Interpreter(path, version) for version, path in sorted(found.items())]


def choose_interpreter(requested: str, available: list[Interpreter]) -> Interpreter | None:
    """The interpreter named by `meta.runner.version`, else the nearest (newer preferred on ties)."""
    if not available:
        return None
    match = re.match(r"(\d+)\.(\d+)", requested or "")
    wanted = (int(match[1]), int(match[2])) if match else (3, 12)

    def distance(candidate: Interpreter) -> tuple[int, int]:
        gap = abs((candidate.version[0] - wanted[0]) * 100 + candidate.version[1] - wanted[1])
        return gap, -candidate.version[1]

    return min(available, key=distance)


def read_requirements(root: Path, uv: Path) -> Requirements:
    """`requirements.txt`, else `pyproject.toml` with `uv.lock` (exported by uv), else the SDK alone."""
    plain = root / "requirements.txt"
    if plain.is_file() and not plain.is_symlink():
        return Requirements(plain.read_text(encoding="utf-8", errors="replace")[:100_000], "requirements.txt")
    if (root / "pyproject.toml").is_file() and (root / "uv.lock").is_file():
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


def ensure_environment(
    root: Path,
    requested: str,
    cache: Path,
    offline: bool,
    isolation: Isolation,
    shown: Callable[[str], str],
) -> Environment:
    """The environment for a plugin, built once per distinct set of requirements and reused.
    `shown` names a plugin file in findings."""
    uv = find_uv()
    interpreter = choose_interpreter(requested, find_interpreters())
    if interpreter is None:
        missing = Interpreter(Path(), (0, 0))
        return Environment("", Path(), missing, requested, "no Python 3 interpreter found on this machine")
    requirements = read_requirements(root, uv)
    named = scan(root, requirements.text, requirements.source) if requirements.source else Scan()
    refused = named.findings(shown)
    # without isolation, and offline (build backends come from the index), wheels only
    isolated = isolation.namespaces and not offline
    key = environment_key(interpreter, requirements, named.digest(), "sdists" if isolated else "wheels")
    target = cache / "envs" / key
    python = target / "bin" / "python"
    if refused:
        return Environment(key, python, interpreter, requested, findings=tuple(refused))
    with locked(cache / "envs" / f"{key}.lock"):
        if not (target / ".complete").is_file():
            unreachable = [] if offline else unreachable_indexes(named.indexes, shown)
            if unreachable:
                return Environment(key, python, interpreter, requested, findings=tuple(unreachable))
            plan = BuildPlan(uv, interpreter.path, requirements.text, root, target, key, offline)
            problem = build(plan, isolated)
            if problem:
                return Environment(key, python, interpreter, requested, problem)
            (target / ".complete").write_text(requirements.text, encoding="utf-8")
    return Environment(key, python, interpreter, requested)
