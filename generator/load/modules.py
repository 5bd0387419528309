"""Which file the SDK executes for an `extra.python.source`, found the way the SDK finds it.

`dify_plugin` (core/plugin_registration.py) turns the source into a module name,
`Path(source).with_suffix("").as_posix().replace("/", ".")`, and its class loader
(core/utils/class_loader.py, `import_module_from_source`) asks `importlib.util.find_spec` for that
name first; only when that finds nothing does it fall back to
`importlib.util.spec_from_file_location(module_name, cwd / source)`. The plugin folder is the
working folder and the first `sys.path` entry (the daemon starts `python -m main` in it), so
`find_spec` searches the plugin folder the way Python's `FileFinder` does: a package folder (with
`__init__.py`) before a module file, a module file before a bare folder (a namespace package, which
has no loader and which the SDK refuses). This module repeats that search inside the plugin only;
it never imports anything.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from pathlib import Path, PurePosixPath

from generator.load.paths import resolve_inside
from generator.load.reader import PluginReader

INIT = "__init__.py"


class Failure(Enum):
    """Why the SDK cannot load a source."""

    NOT_PYTHON = "not-python"  # nothing found by name, and the path has no Python suffix
    MISSING = "missing"  # nothing found by name, and the file named does not exist
    NOT_IMPORTABLE = "not-importable"  # find_spec raises, or finds a folder with no code


@dataclass(frozen=True, slots=True)
class ModuleSource:
    """What the SDK makes of one `extra.python.source`.

    `loaded` is the plugin-relative path of the file it executes, or None when it cannot import
    the source; then `failure` and `problem` say why. `by_name` is True when the file was found through the
    module name rather than the path written (a source naming `tools/x.yaml` that loads `tools/x.py`).
    """

    source: str
    module: str
    loaded: str | None
    by_name: bool = False
    failure: Failure | None = None
    problem: str = ""

    @property
    def accidental(self) -> bool:
        """True when the SDK loads a file other than the one the source names."""
        return self.loaded is not None and self.loaded != PurePosixPath(self.source).as_posix()


def module_name(source: str) -> str:
    """The SDK's `_source_to_module_name`: the suffix dropped, `/` turned into `.`."""
    return PurePosixPath(source).with_suffix("").as_posix().replace("/", ".")


def resolve_module(root: Path, source: str) -> ModuleSource:
    """The file the SDK loads for `source` in the plugin at `root` (see the module's docstring)."""
    try:
        module = module_name(source)
    except ValueError:  # a source such as `.py` or `/`: no module name, and no file to fall back on
        return ModuleSource(source, "", None, failure=Failure.NOT_IMPORTABLE, problem="it names no module")
    parts = module.split(".")
    if not all(parts):  # `a..b`, `.x`: find_spec refuses relative and empty names
        return ModuleSource(
            source,
            module,
            None,
            failure=Failure.NOT_IMPORTABLE,
            problem=f"{module} is not a valid module name",
        )
    found, problem = _find_spec(root, parts)
    if problem:
        return ModuleSource(source, module, None, failure=Failure.NOT_IMPORTABLE, problem=problem)
    if found is not None:
        return ModuleSource(source, module, found, by_name=True)
    return _fallback(root, source, module)


def _find_spec(root: Path, parts: list[str]) -> tuple[str | None, str]:
    """The plugin-relative file `find_spec` finds for the dotted `parts`, and why the SDK fails
    when `find_spec` raises or finds a module without a loader; (None, "") when it finds nothing."""
    dotted = ".".join(parts)
    folder: list[str] = []
    for part in parts[:-1]:
        kind, path = _lookup(root, folder, part)
        package = ".".join([*folder, part])
        if kind is None:
            # find_spec imports the parent packages first: a missing one raises ModuleNotFoundError.
            return None, f"no package {package} exists, so module {dotted} cannot be imported"
        if kind == "module":
            return None, f"{package} is the module {path}, not a package, so {dotted} cannot be imported"
        folder.append(part)
    kind, path = _lookup(root, folder, parts[-1])
    if kind == "namespace":
        return None, f"{'/'.join([*folder, parts[-1]])} is a folder without {INIT}, which has no code to load"
    return path, ""


def _lookup(root: Path, folder: list[str], name: str) -> tuple[str | None, str | None]:
    """One step of `FileFinder.find_spec`: ("package", its init file), ("module", its file),
    ("namespace", None) or (None, None)."""
    if "\\" in name:  # not a separator on Linux, where plugins run: no such file in practice
        return None, None
    base = "/".join([*folder, name])
    directory = _inside(root, base)
    if directory is not None and directory.is_dir():
        init = _inside(root, f"{base}/{INIT}")
        if init is not None and init.is_file():
            return "package", f"{base}/{INIT}"
    file = _inside(root, f"{base}.py")
    if file is not None and file.is_file():
        return "module", f"{base}.py"
    if directory is not None and directory.is_dir():
        return "namespace", None
    return None, None


def _inside(root: Path, relative: str) -> Path | None:
    return resolve_inside(root, relative).path


def _fallback(root: Path, source: str, module: str) -> ModuleSource:
    """`spec_from_file_location(module, cwd / source)`: it has a loader only for a Python suffix,
    and executing it fails when the file is missing."""
    if not source.endswith(".py"):
        return ModuleSource(source, module, None, failure=Failure.NOT_PYTHON, problem="it is not a .py file")
    resolved = resolve_inside(root, source)
    if "\\" in source or resolved.path is None or not resolved.path.is_file():
        return ModuleSource(source, module, None, failure=Failure.MISSING, problem="the file does not exist")
    return ModuleSource(source, module, resolved.relative)


def module_of(reader: PluginReader, source: str) -> ModuleSource:
    """`resolve_module` of a plugin's source, answered once per source: the class-file checks and
    the static message check ask about the same files."""
    return reader.derived("module", source, lambda: resolve_module(reader.root, source))
