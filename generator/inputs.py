"""What the user pointed at: a registry, a plugin folder, or a `.difypkg`; loaded into plugins."""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from generator.diagnostics import Diagnostic, Location
from generator.load.crawl import NO_MANIFEST, LoadedPlugin, load_plugin
from generator.load.package import unpack


class InputError(Exception):
    """The command line named something that cannot be validated at all (exit code 2)."""


@dataclass(frozen=True)
class Inputs:
    """Loaded plugins (a package's with the findings of unpacking it) plus findings that belong to
    no plugin (empty registries)."""

    plugins: tuple[LoadedPlugin, ...]
    diagnostics: tuple[Diagnostic, ...]


def display_name(path: Path) -> str:
    """A path as findings show it: relative to the working folder when it lies below it."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix() or "."
    except ValueError:
        return path.as_posix()


def plugin_folders(registry: Path) -> list[Path]:
    """The plugin folders of a registry (`plugins/*` holding a manifest.yaml), sorted."""
    base = registry / "plugins"
    return (
        sorted(p for p in base.iterdir() if p.is_dir() and not p.name.startswith("."))
        if base.is_dir()
        else []
    )


def is_registry(path: Path) -> bool:
    """A registry root has a `plugins/` folder and no manifest.yaml of its own."""
    return path.is_dir() and (path / "plugins").is_dir() and not (path / "manifest.yaml").is_file()


@contextlib.contextmanager
def open_inputs(paths: Sequence[Path]) -> Iterator[Inputs]:
    """Load every plugin the paths name; packages live in a temporary folder until exit."""
    with contextlib.ExitStack() as stack:
        plugins: list[LoadedPlugin] = []
        findings: list[Diagnostic] = []
        for path in paths:
            if not path.exists():
                raise InputError(f"{path}: no such file or folder")
            shown = display_name(path)
            if path.is_file():
                if path.suffix != ".difypkg":
                    raise InputError(
                        f"{path}: expected a plugin folder, a registry folder or a .difypkg file"
                    )
                target = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="difypkg-")))
                target.chmod(0o700)
                unpacked = unpack(path, target, shown)
                loaded = load_plugin(target, shown)
                # Unpacking is the first step of loading a package: what it found is the plugin's.
                plugins.append(replace(loaded, diagnostics=(*unpacked, *loaded.diagnostics)))
            elif is_registry(path):
                folders = plugin_folders(path)
                if not folders:
                    findings.append(NO_MANIFEST.at(Location(shown, 0, 0), path=f"{shown}/plugins/*"))
                plugins.extend(load_plugin(f, display_name(f)) for f in folders)
            else:
                plugins.append(load_plugin(path, shown))
        yield Inputs(tuple(plugins), tuple(findings))
