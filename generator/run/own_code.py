"""The generator's own code that a run's result depends on: every module of the `generator`
package that the runner's modules import, directly or through others.

A cached run must be run again when that code changes, not only when the plugin does: the loader
decides what a run is given (which credentials a provider declares, which parameters a tool takes),
the schemas package checks what comes back, the rules word the findings. The set is read from the
source's import statements, not from `sys.modules`, so that `validate --run` and `build` (which
import different things around the runner) agree on it.
"""

from __future__ import annotations

import ast
import functools
import hashlib
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]
START = "generator.run"


def _file_of(package: Path, module: str) -> Path | None:
    """The source file of a dotted module name inside `package`, or None (a name imported from a
    module, not a module)."""
    relative = Path(*module.split(".")[1:])
    for candidate in (package / relative / "__init__.py", (package / relative).with_suffix(".py")):
        if candidate.is_file():
            return candidate
    return None


def _module_of(package: Path, path: Path) -> str:
    parts = ["generator", *path.relative_to(package).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(package_dir: Path, path: Path) -> Iterator[str]:
    """Every dotted name `path` imports (`from a.b import c` gives `a.b` and `a.b.c`, since `c` may
    be a module); relative imports made absolute."""
    package = _module_of(package_dir, path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    for node in ast.walk(ast.parse(path.read_bytes())):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, node.module] if node.module else base)
            yield module
            yield from (f"{module}.{alias.name}" for alias in node.names)


def run_code(package: Path) -> list[Path]:
    """The source files of the runner's modules (`package`/run) and of every module of `package`
    they reach, sorted."""
    seen: set[Path] = set()
    todo = [_module_of(package, path) for path in (package / "run").rglob("*.py")]
    while todo:
        path = _file_of(package, todo.pop())
        if path is None or path in seen:
            continue
        seen.add(path)
        todo.extend(name for name in _imports(package, path) if name.split(".")[0] == "generator")
    return sorted(seen)


def code_digest(package: Path) -> str:
    """A digest of `run_code(package)`: names and bytes."""
    digest = hashlib.sha256()
    for path in run_code(package):
        digest.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


@functools.cache
def run_code_digest() -> str:
    """The digest of this generator's run code: a change to any of it invalidates every cached run."""
    return code_digest(PACKAGE)
