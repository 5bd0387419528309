"""The child YAMLs a provider lists under one key (datasources, strategies, endpoints), followed
through the crawl (positions, missing files, paths out of the plugin handled there) and recorded as
listed for the orphan search; and the files a model provider's glob patterns name."""

from __future__ import annotations

from collections.abc import Iterator
from fnmatch import fnmatchcase
from typing import TYPE_CHECKING

from generator.load.builders import as_list

if TYPE_CHECKING:
    from generator.load.crawl import Crawl
    from generator.load.yamlload import YamlDocument


def listed_children(
    crawl: Crawl, document: YamlDocument, key: str, role: str
) -> Iterator[tuple[str, YamlDocument]]:
    """(path, document) of each readable file listed under `key` of `document`."""
    for index, entry in enumerate(as_list(document.data.get(key))):
        child = crawl.follow(document, (key, index), entry, f"{role} YAML")
        if child is None:
            continue
        crawl.listed.add(child)
        child_document = crawl.read(child, role)
        if child_document is not None:
            yield child, child_document


def globbed(crawl: Crawl, pattern: str) -> list[str]:
    """The plugin's files a glob pattern relative to the plugin folder matches, as `Path.glob` would
    (`*` and `?` within one path segment), sorted; links are left out (they may lead elsewhere)."""
    # `Path.glob` refuses an absolute pattern ("Non-relative patterns are unsupported")
    parts = pattern.strip().split("/")
    if not pattern.strip() or any(part in ("", "..") for part in parts):
        return []
    return sorted(
        file.relative
        for file in crawl.reader.tree.files
        if not file.is_link
        and len(segments := file.relative.split("/")) == len(parts)
        and all(fnmatchcase(segment, part) for segment, part in zip(segments, parts, strict=True))
    )
