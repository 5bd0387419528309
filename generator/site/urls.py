"""Where each generated page lives: stable, safe slugs for names that come from manifests."""

from __future__ import annotations

import hashlib
import posixpath
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from generator.load.crawl import LoadedPlugin
from generator.plugin_model import KindPart
from generator.schemas import HostedSchema

# The names of the pages below a provider of a kind other than tools (its events...).
ChildNames = Callable[[KindPart], tuple[str, ...]]
_SAFE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")


def slug(name: str) -> str:
    """A path segment for `name`: itself when already safe, else a cleaned form plus a short hash
    (so two different names never share a page)."""
    if _SAFE.match(name):
        return name
    cleaned = re.sub(r"[^a-z0-9_-]+", "-", name.lower()).strip("-_")[:40]
    digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return f"{cleaned}-{digest}" if cleaned else f"x-{digest}"


def page_url(src: str, use_directory_urls: bool = True) -> str:
    """The URL MkDocs gives a Markdown page at `src` (relative to the site root)."""
    stem = src.removesuffix(".md")
    if not use_directory_urls:
        return f"{stem}.html"
    if stem == "index":
        return ""
    return f"{stem.removesuffix('/index')}/" if stem.endswith("/index") else f"{stem}/"


def relative(target: str, page: str) -> str:
    """A link from the page at URL `page` to `target` (both relative to the same root), as MkDocs
    writes it: a last part of `page` holding a dot is its file, `..` never climbs above the root."""
    target = target or "."
    folder, _, name = page.rpartition("/")
    start = _parts(folder if "." in name else page)
    goal = _parts(target)
    common = 0
    for here, there in zip(start, goal, strict=False):
        if here != there:
            break
        common += 1
    link = "/".join([".."] * (len(start) - common) + goal[common:]) or "."
    return link + "/" if target.endswith("/") else link


def _parts(path: str) -> list[str]:
    # A leading slash is the root; normpath keeps a doubled one, and so must the parts.
    normal = posixpath.normpath(path if path.startswith("/") else "/" + path)[1:]
    return normal.split("/") if normal else []


@dataclass(frozen=True)
class SiteMap:
    """Page paths for every plugin and tool, fixed once per build so every link agrees."""

    plugins: dict[str, str]  # LoadedPlugin.display -> plugin page source
    tools: dict[tuple[str, int], str]  # (display, index in Plugin.tools) -> tool page source
    # (display, index in Plugin.parts, index of the page below that provider) -> page source
    children: dict[tuple[str, int, int], str] = field(default_factory=dict)

    @classmethod
    def of(
        cls,
        plugins: Iterable[LoadedPlugin],
        child_names: Callable[[KindPart], tuple[str, ...]] = lambda _: (),
    ) -> SiteMap:
        """Distinct pages for every plugin, tool and page below a provider of another kind
        (`child_names` names them: an event...), even when names repeat or are unsafe."""
        plugin_pages: dict[str, str] = {}
        tool_pages: dict[tuple[str, int], str] = {}
        child_pages: dict[tuple[str, int, int], str] = {}
        taken: set[str] = set()
        for loaded in plugins:
            name = loaded.plugin.name if loaded.plugin else ""
            base = _unique(f"plugins/{slug(name or loaded.display)}", taken, loaded.display)
            plugin_pages[loaded.display] = f"{base}/index.md"
            tools = loaded.plugin.tools if loaded.plugin else ()
            for index, tool in enumerate(tools):
                stem = f"{base}/{slug(tool.key.provider)}/{slug(tool.key.tool)}"
                tool_pages[(loaded.display, index)] = _unique(stem, taken, str(index)) + ".md"
            for part_index, part in enumerate(loaded.plugin.parts if loaded.plugin else ()):
                for index, child in enumerate(child_names(part)):
                    stem = f"{base}/{slug(part.name)}/{slug(child)}"
                    salt = f"{part_index}.{index}"
                    child_pages[(loaded.display, part_index, index)] = _unique(stem, taken, salt) + ".md"
        return cls(plugin_pages, tool_pages, child_pages)


def _unique(stem: str, taken: set[str], salt: str) -> str:
    chosen = stem if stem not in taken else f"{stem}-{slug(salt + chr(0))}"
    taken.add(chosen)
    return chosen


def rule_src(code: str) -> str:
    """The page of one validation rule."""
    return f"rules/{slug(code.lower())}.md"


def schema_src(schema: HostedSchema) -> str:
    """The page of a hosted schema, beside its raw file: `schemas/v1/file.json` -> `schemas/v1/file.md`."""
    return schema.served_path.removesuffix(".json") + ".md"
