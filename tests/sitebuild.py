"""Sites built once per test session (the build takes seconds): shared by the site test modules."""

from __future__ import annotations

import contextlib
import functools
import http.server
import json
import re
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from benchmarks.sitebuild import write_config as benchmark_config
from generator.cli import main
from tests.conftest import CORPUS, REPO, shared

CASES = REPO / "tests" / "cases" / "site"
HREF = re.compile(r"""(?:href|src)="([^"]*)\"""")


@dataclass(frozen=True)
class BuiltSite:
    """A site built into `root` by `dify-registry build`, with its exit code."""

    root: Path
    code: int

    def page(self, url: str) -> str:
        """The HTML of the page at `url` (relative to the site root)."""
        path = self.root / url
        return (path / "index.html" if path.is_dir() else path).read_text(encoding="utf-8")

    def index(self) -> dict[str, object]:
        """The parsed index.json."""
        data: dict[str, object] = json.loads((self.root / "index.json").read_text(encoding="utf-8"))
        return data


def write_config(folder: Path, registries: list[Path], schemas: Path = REPO / "schemas") -> Path:
    """An mkdocs.yml like the repository's, reading the given plugin folders and schemas; returns its
    folder."""
    return benchmark_config(folder, registries, schemas=schemas).parent


def build_site(config_folder: Path, site: Path, *extra: str) -> BuiltSite:
    """Run `dify-registry build` as a user would."""
    code = main(["build", str(config_folder), "--site-dir", str(site), "--format", "json", *extra])
    return BuiltSite(site, code)


@pytest.fixture(scope="session")
def cases_site(tmp_path_factory: pytest.TempPathFactory) -> BuiltSite:
    """The site of the test plugins (hostile, untranslated, complete) plus the registry's plugins,
    with the registry's plugins run (results cached in the session's temporary folder)."""
    base = tmp_path_factory.mktemp("cases-site")
    folders = [CASES / "registry", REPO]
    config = write_config(base / "config", folders)
    return build_site(config, base / "site", "--cache-dir", str(base / "cache"))


@pytest.fixture(scope="session")
def corpus_site(tmp_path_factory: pytest.TempPathFactory) -> BuiltSite:
    """The site of every plugin of the shared corpus (tools and datasources), without runs."""
    shared(CORPUS)
    base = tmp_path_factory.mktemp("corpus-site")
    folders = sorted(p for kind in ("tools", "datasources") for p in (CORPUS / kind).iterdir() if p.is_dir())
    return build_site(write_config(base / "config", folders), base / "site", "--no-run")


def html_files(root: Path) -> Iterator[Path]:
    """Every HTML page of a built site (404 pages use absolute links, valid only at the server root)."""
    yield from sorted(p for p in root.rglob("*.html") if p.name != "404.html")


def broken_links(root: Path, page: Path) -> list[str]:
    """Relative links and sources of `page` that point at no file of the site."""
    broken = []
    for target in HREF.findall(page.read_text(encoding="utf-8")):
        if (
            not target
            or target.startswith(("#", "data:", "mailto:"))
            or re.match(r"^[a-z][a-z0-9+.-]*:", target)
        ):
            continue
        path = target.split("#", 1)[0].split("?", 1)[0]
        if not path:
            continue
        resolved = (page.parent / path).resolve()
        if resolved.is_dir():
            resolved = resolved / "index.html"
        if not resolved.is_file() or root.resolve() not in resolved.parents:
            broken.append(target)
    return broken


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        return None


class _QuietServer(http.server.ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        # A browser that leaves a page drops the connections still loading: not a failure.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


@contextlib.contextmanager
def serve(
    root: Path, handler_class: type[http.server.SimpleHTTPRequestHandler] | None = None, folder: str = "/"
) -> Iterator[str]:
    """A built site served on localhost by a thread: its base URL (`folder` of the server, where
    `handler_class` serves it), while the context lasts."""
    handler = functools.partial(handler_class or QuietHandler, directory=str(root))
    server = _QuietServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}{folder}"
    finally:
        server.shutdown()
        server.server_close()
