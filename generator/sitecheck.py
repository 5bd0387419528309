"""The check of a built site before it is published (`dify-registry check-site SITE_DIR`):

- every hosted schema is served at the path of its `$id` with exactly the bytes of its source file
  (editors and validators fetch the `$id`; other bytes there would be another schema), or without
  the registry, the bytes whose sha256 the site's `index.json` names;
- every internal link and resource of every page (relative, site-absolute, or under the site's
  URL) leads to a file of the site, resolved as a browser resolves it on the page's address under
  the site's URL (a site served from a folder, `https://example.github.io/registry/`, included);
  a 404 page, which the host serves at any missing address, has no relative link;
- no file names a folder of the machine that built it (the site folder, the registry, the working
  folder, or a path inside the home folder): such a path is useless to a reader and tells where
  and by whom the site was built."""

from __future__ import annotations

import hashlib
import html
import json
import posixpath
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

from generator.schemas.schema_set import HostedSchema

# MkDocs and the templates always quote attributes with double quotes.
_LINK = re.compile(rb"""\s(?:href|src)\s*=\s*"([^"]*)\"""")
_EXTERNAL = ("http:", "https:", "mailto:", "data:", "javascript:", "tel:", "blob:")
# Compressed copies (sitemap.xml.gz) hold the same text as their source, which is read.
INDEX = "index.json"
# The page a static host serves for every missing address: its relative links break there.
NOT_FOUND_PAGE = "404.html"
_UNREAD = (".gz", ".png", ".jpg", ".jpeg", ".gif", ".ico", ".woff", ".woff2", ".ttf")


@dataclass(frozen=True, slots=True, order=True)
class Problem:
    """One thing wrong with the site: the file (relative to the site folder) and what."""

    file: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {self.message}"


@dataclass(frozen=True, slots=True)
class ServedSchema:
    """A schema the site must serve at the path of its `$id`: its name, the sha256 of the bytes it
    must have, and where those bytes were read (its source file, or the site's own index)."""

    id: str
    name: str
    sha256: str
    source: str


@dataclass(frozen=True, slots=True)
class SiteFacts:
    """What a built site says about itself in its `index.json`: the URL it was built for and the
    schemas it serves (written at build, so a check needs no registry)."""

    site_url: str
    schemas: tuple[ServedSchema, ...]


def from_sources(schemas: Iterable[HostedSchema]) -> tuple[ServedSchema, ...]:
    """The schemas a registry's source files say the site serves, with their bytes' digests."""
    return tuple(
        ServedSchema(s.id, s.path, hashlib.sha256(s.content).hexdigest(), f"its source file {s.path}")
        for s in schemas
    )


def site_facts(site: Path) -> SiteFacts | None:
    """The site's own account of itself (`index.json` at its root), or None when it has none that
    can be read."""
    try:
        index = json.loads((site / INDEX).read_text(encoding="utf-8"))
        schemas = tuple(
            ServedSchema(
                str(entry["id"]), str(entry["url"]), str(entry["sha256"]), f"the sha256 {INDEX} names"
            )
            for entry in index["schemas"]
        )
        return SiteFacts(str(index["site_url"]), schemas)
    except (OSError, ValueError, KeyError, TypeError):
        return None


def check_site(
    site: Path, schemas: Iterable[ServedSchema], site_url: str, machine: Iterable[str]
) -> list[Problem]:
    """Every problem of the site in `site` served at `site_url`, sorted. `machine` lists the
    absolute paths that must not appear in any file."""
    site_url = site_url if site_url.endswith("/") else site_url + "/"
    files = sorted(p for p in site.rglob("*") if p.is_file())
    problems = [*_schema_problems(site, schemas, site_url)]
    for file in files:
        relative = file.relative_to(site).as_posix()
        if file.suffix == ".html":
            problems.extend(_link_problems(site, relative, file.read_bytes(), site_url))
        if not file.name.endswith(_UNREAD):
            problems.extend(_path_problems(relative, file.read_bytes(), machine))
    return sorted(problems)


def served_path(schema_id: str, site_url: str) -> str:
    """Where the site serves the schema with this `$id`: its place under the site's URL, else the
    path of the URL."""
    if schema_id.startswith(site_url):
        return schema_id[len(site_url) :]
    return urlsplit(schema_id).path.lstrip("/")


def _schema_problems(site: Path, schemas: Iterable[ServedSchema], site_url: str) -> Iterator[Problem]:
    for schema in schemas:
        served = served_path(schema.id, site_url)
        target = site / served
        if not target.is_file():
            yield Problem(served, f"the schema {schema.name} is not served at its $id {schema.id}")
        elif hashlib.sha256(target.read_bytes()).hexdigest() != schema.sha256:
            yield Problem(served, f"served with other bytes than {schema.source}")


def _link_problems(site: Path, page: str, content: bytes, site_url: str) -> Iterator[Problem]:
    seen: set[str] = set()
    anywhere = posixpath.basename(page) == NOT_FOUND_PAGE
    for match in _LINK.finditer(content):
        link = html.unescape(match[1].decode("utf-8", errors="replace")).strip()
        if link in seen:
            continue
        seen.add(link)
        if anywhere and _relative(link):
            yield Problem(page, f"relative link {link} on a page served at any missing address")
            continue
        target = _internal_target(page, link, site_url)
        if target is not None and not _exists(site, target):
            yield Problem(page, f"broken link {link}")


def _relative(link: str) -> bool:
    """A link whose target depends on the folder of the address the page is served at."""
    parts = urlsplit(link)
    return not parts.scheme and not parts.netloc and bool(parts.path) and not parts.path.startswith("/")


def _internal_target(page: str, link: str, site_url: str) -> str | None:
    """The site-relative path a link of `page` leads to when the site is served at `site_url`,
    resolved as a browser resolves it ("" for the site's root); None for a link to another
    server or scheme. A link to the site's server outside its folder leads to a file the site does
    not serve: its target is that path with a `../` for each level above the site."""
    if link.lower().startswith(_EXTERNAL) and not link.startswith(site_url):
        return None  # another server, or no file at all (mailto:, data:, javascript:)
    base = urlsplit(site_url)
    address = urlsplit(urljoin(site_url + page, link))
    if (address.scheme, address.netloc) != (base.scheme, base.netloc):
        return None
    path = unquote(address.path)
    root = base.path or "/"
    if not path.startswith(root):
        return posixpath.relpath(path, root)  # above the site's folder: never one of its files
    return path[len(root) :]


def _exists(site: Path, target: str) -> bool:
    if target.startswith("../"):
        return False
    place = site / target
    return place.is_file() or (place.is_dir() and (place / "index.html").is_file())


def _path_problems(relative: str, content: bytes, machine: Iterable[str]) -> Iterator[Problem]:
    for path in machine:
        if path.encode() in content:
            yield Problem(relative, f"names the build machine's path {path}")
