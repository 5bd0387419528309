"""The README's links, images (Markdown and `<img>`) and active HTML: what a page built from it would
reach or run."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import PurePosixPath
from typing import Any

from markdown_it.token import Token

from generator.check import CheckContext
from generator.check.texts import (
    MARKUP,
    MARKUP_IN_TEXT,
    MAX_PER_RULE,
    UNSAFE_LINK,
    UNSAFE_SCHEMES,
    scheme_of,
)
from generator.findings import Finding, Location, Severity
from generator.load.crawl import PATH_ESCAPES, LoadedPlugin
from generator.load.reader import MAX_DOCUMENT_BYTES
from generator.markdown_tokens import parse_as_written
from generator.media import MAX_IMAGE_BYTES, judge, local_target
from generator.readme_html import image_sources
from generator.rules import rule

README_LINK_OUTSIDE = rule(
    "H005",
    "readme-link-outside",
    Severity.WARNING,
    "README {what} {target!s} points outside the plugin: {problem}",
    "Link to a file inside the plugin with a relative path, or to an http(s) address.",
    """
A relative link or image in the README that is absolute or climbs out with `..` names a file that
is not part of the plugin: it is broken on the marketplace and on the registry's pages, and the
registry never serves files from outside a plugin.
""",
)

README_IMAGE_UNSHOWN = rule(
    "H006",
    "readme-image-missing",
    Severity.WARNING,
    "README image {target!s} is not shown: {problem}",
    "Add the image to the plugin at the path the README names (PNG, JPEG, GIF, WebP or a static SVG "
    "of at most 1 MiB), or correct the path.",
    """
The registry publishes the images a README names inside its plugin (for example
`./_assets/setup.png`) with the plugin's page, once per content. An image that is not in the plugin,
is larger than 1 MiB, is no PNG, JPEG, GIF, WebP, ICO or SVG image by its first bytes, or is an SVG
that holds scripts, event attributes or references to other files, is shown as its text instead.
The marketplace shows the README from the package too: a path that names no file is broken there
as well. Images at http(s) addresses are never fetched; the page shows them as links. A path
whose case differs from the file's (`setup.png` for `setup.PNG`) finds the file on a disk that
ignores case (macOS, Windows) and nowhere else: the finding names the file.
""",
)


def _targets(tokens: Iterable[Token]) -> Iterator[tuple[str, str, int, str]]:
    """(kind, target, first line of its block, html) for links, images and raw HTML."""
    line = 0
    for token in tokens:
        if token.map:
            line = token.map[0]
        if token.type == "html_block":
            yield "html", "", line, token.content
            yield from (("image", src, line, "") for src in image_sources(token.content))
        for child in token.children or ():
            if child.type == "link_open":
                yield "link", str(child.attrGet("href") or ""), line, ""
            elif child.type == "image":
                yield "image", str(child.attrGet("src") or ""), line, ""
            elif child.type == "html_inline":
                yield "html", "", line, child.content
                yield from (("image", src, line, "") for src in image_sources(child.content))


def _locate(lines: list[str], start: int, needle: str, shown: str) -> Location:
    for number in range(start, min(len(lines), start + 200)):
        column = lines[number].find(needle) if needle else -1
        if column >= 0:
            return Location(shown, number + 1, column + 1)
    return Location(shown, start + 1, 1)


def _finding(loaded: LoadedPlugin, kind: str, target: str) -> tuple[str, dict[str, Any]] | None:
    scheme = scheme_of(target)
    if scheme in UNSAFE_SCHEMES:
        return UNSAFE_LINK.code, {"target": target[:60], "scheme": scheme}
    if scheme or not target or target.startswith("#"):
        return None
    path = target.split("#", 1)[0].split("?", 1)[0]
    if not path:
        return None
    if PurePosixPath(path).is_absolute():
        return README_LINK_OUTSIDE.code, {"what": kind, "target": target[:60], "problem": "absolute path"}
    resolved = loaded.reader.resolve(path)
    if resolved.path is None:
        return README_LINK_OUTSIDE.code, {"what": kind, "target": target[:60], "problem": resolved.problem}
    named = local_target(target)
    if kind != "image" or named is None:
        return None
    if not loaded.reader.is_file(named):
        return README_IMAGE_UNSHOWN.code, {"target": target[:60], "problem": _no_file(loaded, named)}
    judged = judge(loaded.reader.head(named, MAX_IMAGE_BYTES + 1, keep=False))
    if isinstance(judged, str):
        return README_IMAGE_UNSHOWN.code, {"target": target[:60], "problem": judged}
    return None


def _no_file(loaded: LoadedPlugin, named: str) -> str:
    """Why the image is missing, naming the plugin's file whose name differs only in case: the
    author's disk (macOS, Windows) finds it, the package and the site's server do not."""
    wanted = named.casefold()
    twin = next((f.relative for f in loaded.reader.tree.files if f.relative.casefold() == wanted), None)
    if twin is None:
        return "no such file in the plugin"
    return f"no such file in the plugin, which has {twin[:60]}: file names differ in case"


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """Links that leave the plugin or run code, and raw HTML, in README.md."""
    if not (loaded.root / "README.md").is_file():
        return
    inside = loaded.reader.resolve("README.md")
    if not inside.ok:
        where = Location(loaded.display_path("README.md"), 1, 1)
        yield PATH_ESCAPES.at(where, what="README", path="README.md", problem=inside.problem)
        return
    text = loaded.reader.text("README.md", MAX_DOCUMENT_BYTES) or ""
    lines = text.splitlines()
    shown = loaded.display_path("README.md")
    rules = {
        UNSAFE_LINK.code: UNSAFE_LINK,
        README_LINK_OUTSIDE.code: README_LINK_OUTSIDE,
        README_IMAGE_UNSHOWN.code: README_IMAGE_UNSHOWN,
    }
    counts: dict[str, int] = {}
    for kind, target, line, html in _targets(parse_as_written(text).tokens):
        if kind == "html" and not MARKUP.search(html):
            continue
        if kind == "html":
            found: tuple[str, dict[str, Any]] | None = (
                MARKUP_IN_TEXT.code,
                {"what": "README.md", "sample": html.strip()[:40]},
            )
            needle = html.strip().splitlines()[0] if html.strip() else ""
        else:
            found, needle = _finding(loaded, kind, target), target
        if found is None:
            continue
        code, values = found
        counts[code] = counts.get(code, 0) + 1
        if counts[code] <= MAX_PER_RULE:
            chosen = rules.get(code, MARKUP_IN_TEXT)
            yield chosen.at(_locate(lines, line, needle, shown), **values)
