"""What the user pointed at, loaded into plugins: a plugin folder, a `.difypkg`, a registry (a folder
holding `plugins/`), or a collection (any other folder: every plugin and package below it, at any
depth, as in Dify's official plugins repository).

Every path shown is relative to the root the user named (see `display_root`): findings, pages and
`index.json` never name a folder of the machine the command ran on.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from generator.findings import Finding, Location
from generator.load.crawl import NO_MANIFEST, LoadedPlugin, load_plugin
from generator.load.kinds import LOADERS
from generator.load.package import unpack
from generator.load.paths import display_path
from generator.load.registry_examples import OVERLAYS, find_registry_examples, unused_files

# Folders a collection walk never enters: tool caches and installed packages hold no plugin of the
# collection (a plugin's own `.venv` may hold thousands of folders).
_NOT_WALKED = frozenset({"node_modules", "__pycache__", "site-packages"})

# The kind a plugin without tools is counted as in a collection's summary, by the manifest's
# `plugins` key, in the order a plugin listing several is named by.
OTHER_KINDS: tuple[tuple[str, str], ...] = (
    ("models", "model"),
    ("agent_strategies", "agent-strategy"),
    ("datasources", "datasource"),
    ("triggers", "trigger"),
    ("endpoints", "extension"),
)


class InputError(Exception):
    """The command line named something that cannot be validated at all (exit code 2)."""


@dataclass(frozen=True)
class OtherPlugin:
    """A plugin of a collection that declares no tools (a model, an agent strategy, ...): counted and
    named in the summary, never checked or catalogued."""

    display: str
    kind: str  # a label of OTHER_KINDS


@dataclass(frozen=True)
class Inputs:
    """Loaded plugins (a package's with the findings of unpacking it), findings that belong to no
    plugin (empty registries and collections), and the collections' plugins of other kinds."""

    plugins: tuple[LoadedPlugin, ...]
    findings: tuple[Finding, ...]
    others: tuple[OtherPlugin, ...] = ()


def display_root(path: Path) -> str:
    """How a path the user named is shown: as typed when it is relative (and not above the working
    folder), relative to the working folder when it lies below it (through links or not), and
    otherwise by its own name, so that no output names a folder of this machine."""
    normal = Path(os.path.normpath(path))
    if not normal.is_absolute() and ".." not in normal.parts:
        return normal.as_posix()
    absolute = Path(os.path.abspath(path))  # noqa: PTH100 (lexical: a link must stay a link here)
    for here, there in ((Path.cwd(), absolute), (Path.cwd().resolve(), absolute.resolve())):
        if there.is_relative_to(here):
            return there.relative_to(here).as_posix() or "."
    return absolute.name or "."


def display_roots(paths: Sequence[Path]) -> list[str]:
    """`display_root` of each path, where two different folders shown by their own name (both
    outside the working folder, such as `tools/github` and `datasources/github`) get as many of
    their parent folders' names as tell them apart: two plugins never share a display path."""
    shown = [display_root(path) for path in paths]
    absolute = [Path(os.path.abspath(path)) for path in paths]  # noqa: PTH100 (lexical, as above)
    for depth in range(2, max((len(a.parts) for a in absolute), default=0) + 1):
        groups: dict[str, set[Path]] = {}
        for name, where in zip(shown, absolute, strict=True):
            groups.setdefault(name, set()).add(where)
        clashing = {name for name, places in groups.items() if len(places) > 1}
        if not clashing:
            break
        shown = [
            Path(*where.parts[-depth:]).as_posix()
            if name in clashing and where.name == name.rsplit("/")[-1]
            else name
            for name, where in zip(shown, absolute, strict=True)
        ]
    return shown


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


def is_plugin(path: Path) -> bool:
    """A plugin folder (with its manifest.yaml) or a package."""
    return (path / "manifest.yaml").is_file() or (path.is_file() and path.suffix == ".difypkg")


def collection_members(root: Path) -> list[str]:
    """The plugin folders and packages below `root`, as POSIX paths relative to it, sorted.

    A plugin folder is not entered (what it holds is its own); hidden folders and installed packages
    are skipped; symbolic links inside the collection are not followed (a link to `/` would make the
    walk read the whole machine)."""
    found: list[str] = []
    for folder, subfolders, files in os.walk(root):
        relative = Path(folder).relative_to(root)
        if "manifest.yaml" in files and relative != Path():
            found.append(relative.as_posix())
            subfolders.clear()
            continue
        found.extend((relative / f).as_posix() for f in files if f.endswith(".difypkg"))
        subfolders[:] = sorted(s for s in subfolders if not s.startswith(".") and s not in _NOT_WALKED)
    return sorted(found)


def other_kind(loaded: LoadedPlugin) -> str | None:
    """The kind a plugin that lists no tools and no kind with a loader, but other plugin kinds, is
    counted as; None otherwise (the plugin is catalogued)."""
    plugin = loaded.plugin
    if plugin is None or plugin.kinds.get("tools") or any(kind in LOADERS for kind in plugin.kinds):
        return None
    listed = set(plugin.other_kinds)
    return next((label for key, label in OTHER_KINDS if key in listed), None)


def overlays_of(paths: Sequence[Path]) -> Path | None:
    """The registry's folder of examples for plugins it does not own: `overlays/` of the first
    registry among `paths`, else of the working folder; None when there is none."""
    for path in [*(p for p in paths if is_registry(p)), Path()]:
        if (path / OVERLAYS).is_dir():
            return path / OVERLAYS
    return None


class _Opened:
    """What the paths named so far, with the temporary folders of unpacked packages."""

    def __init__(self, stack: contextlib.ExitStack, overlays: Path | None) -> None:
        self.stack = stack
        self.overlays = overlays
        self.overlays_shown = display_root(overlays) if overlays is not None else ""
        self.plugins: list[LoadedPlugin] = []
        self.findings: list[Finding] = []
        self.others: list[OtherPlugin] = []

    def add(self, path: Path, shown: str, collected: bool = False) -> None:
        """Load one plugin folder or package; a collection's plugins of other kinds are set aside."""
        if path.is_file():
            target = Path(self.stack.enter_context(tempfile.TemporaryDirectory(prefix="difypkg-")))
            target.chmod(0o700)
            unpacked = unpack(path, target, shown)
            loaded = load_plugin(target, shown)
            # Unpacking is the first step of loading a package: what it found is the plugin's.
            loaded = replace(loaded, findings=(*unpacked, *loaded.findings))
        else:
            loaded = load_plugin(path, shown)
        loaded = find_registry_examples(self.overlays, self.overlays_shown, loaded)
        loaded = replace(loaded, findings=(*loaded.findings, *unused_files(loaded)))
        kind = other_kind(loaded) if collected else None
        if kind is None:
            self.plugins.append(loaded)
        else:
            loaded.reader.release()
            self.others.append(OtherPlugin(shown, kind))

    def add_root(self, path: Path, shown: str) -> None:
        """Everything one path on the command line names, shown as `shown`."""
        if not path.exists():
            raise InputError(f"{path}: no such file or folder")
        if path.is_file() and path.suffix != ".difypkg":
            raise InputError(f"{path}: expected a plugin folder, a registry folder or a .difypkg file")
        if is_plugin(path):
            self.add(path, shown)
        elif is_registry(path):
            folders = plugin_folders(path)
            if not folders:
                where = Location(shown, 0, 0)
                self.findings.append(NO_MANIFEST.at(where, path=display_path(shown, "plugins/*")))
            for folder in folders:
                self.add(folder, display_path(shown, f"plugins/{folder.name}"), collected=True)
        else:
            members = collection_members(path)
            if not members:
                self.findings.append(NO_MANIFEST.at(Location(shown, 0, 0), path=shown))
            for member in members:
                self.add(path / member, display_path(shown, member), collected=True)


@contextlib.contextmanager
def open_inputs(paths: Sequence[Path], overlays: Path | None = None) -> Iterator[Inputs]:
    """Load every plugin the paths name, with the registry's examples from `overlays` (default:
    `overlays_of(paths)`); packages live in a temporary folder until exit."""
    with contextlib.ExitStack() as stack:
        opened = _Opened(stack, overlays or overlays_of(paths))
        for path, shown in zip(paths, display_roots(paths), strict=True):
            opened.add_root(path, shown)
        yield Inputs(tuple(opened.plugins), tuple(opened.findings), tuple(opened.others))
