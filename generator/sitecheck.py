"""The check of a built site before it is published (`dify-registry check-site SITE_DIR`):

- every hosted schema is served at the path of its `$id` with exactly the bytes of its source file
  (editors and validators fetch the `$id`; other bytes there would be another schema);
- every internal link and resource of every page (relative, site-absolute, or under the site's
  URL) leads to a file of the site;
- no file names a folder of the machine that built it (the site folder, the registry, the working
  folder, or a path inside the home folder): such a path is useless to a reader and tells where
  and by whom the site was built.
"""

from __future__ import annotations

import html
import posixpath
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

from generator.schemas.schema_set import HostedSchema

# MkDocs and the templates always quote attributes with double quotes.
_LINK = re.compile(rb"""\s(?:href|src)\s*=\s*"([^"]*)\"""")
_EXTERNAL = ("http:", "https:", "mailto:", "data:", "javascript:", "tel:", "blob:")
# Compressed copies (sitemap.xml.gz) hold the same text as their source, which is read.
_UNREAD = (".gz", ".png", ".jpg", ".jpeg", ".gif", ".ico", ".woff", ".woff2", ".ttf")


@dataclass(frozen=True, slots=True, order=True)
class Problem:
    """One thing wrong with the site: the file (relative to the site folder) and what."""

    file: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {self.message}"


def check_site(
    site: Path, schemas: Iterable[HostedSchema], site_url: str, machine: Iterable[str]
) -> list[Problem]:
    """Every problem of the site in `site`, sorted. `machine` lists the absolute paths that must
    not appear in any file."""
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


def _schema_problems(site: Path, schemas: Iterable[HostedSchema], site_url: str) -> Iterator[Problem]:
    for schema in schemas:
        served = served_path(schema.id, site_url)
        target = site / served
        if not target.is_file():
            yield Problem(served, f"the schema {schema.path} is not served at its $id {schema.id}")
        elif target.read_bytes() != schema.content:
            yield Problem(served, f"served with other bytes than its source file {schema.path}")


def _link_problems(site: Path, page: str, content: bytes, site_url: str) -> Iterator[Problem]:
    seen: set[str] = set()
    for match in _LINK.finditer(content):
        link = html.unescape(match[1].decode("utf-8", errors="replace")).strip()
        if link in seen:
            continue
        seen.add(link)
        target = _internal_target(page, link, site_url)
        if target is not None and not _exists(site, target):
            yield Problem(page, f"broken link {link}")


def _internal_target(page: str, link: str, site_url: str) -> str | None:
    """The site-relative path a link leads to, "" for the site's root; None for a link out of
    the site or to the page itself."""
    if site_url and link.startswith(site_url):
        link = "/" + link[len(site_url) :]
    elif link.lower().startswith(_EXTERNAL) or link.startswith("//"):
        return None
    path = unquote(urlsplit(link).path)
    if not path:
        return None  # a fragment or a query of the same page
    joined = path if path.startswith("/") else posixpath.join(posixpath.dirname(page), path)
    # as a browser does, a link cannot climb above the site's root
    return posixpath.normpath("/" + joined.lstrip("/")).lstrip("/")


def _exists(site: Path, target: str) -> bool:
    place = site / target
    return place.is_file() or (place.is_dir() and (place / "index.html").is_file())


def _path_problems(relative: str, content: bytes, machine: Iterable[str]) -> Iterator[Problem]:
    for path in machine:
        if path.encode() in content:
            yield Problem(relative, f"names the build machine's path {path}")
