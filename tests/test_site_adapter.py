"""The site engine is an adapter: only the modules that hand MkDocs its files and pages import it,
so the site model, the pages and the published files would serve a second engine unchanged."""

from __future__ import annotations

import ast
import itertools
import random
from pathlib import Path

from mkdocs.utils import get_relative_url

from generator.site.urls import relative
from tests.conftest import REPO

# The MkDocs plugin and its glue (language builds, translated hand-written pages, blank pages rendered as
# MkDocs renders them), and the commands
# that start MkDocs (`dify-registry build|serve`).
ADAPTER = {
    "generator/site/mkdocs_plugin.py",
    "generator/site/blank_render.py",
    "generator/site/multilang.py",
    "generator/site/translate.py",
    "generator/commands/build.py",
    "generator/commands/serve.py",
}


def _imports_mkdocs(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "mkdocs" for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "mkdocs":
            return True
    return False


def test_only_the_adapter_imports_mkdocs() -> None:
    found = {
        path.relative_to(REPO).as_posix()
        for path in (REPO / "generator").rglob("*.py")
        if _imports_mkdocs(path)
    }
    assert found <= ADAPTER, f"MkDocs imported outside the adapter: {sorted(found - ADAPTER)}"


def test_relative_links_are_the_ones_mkdocs_writes() -> None:
    parts = ["", "a", "b", "a/b", "x.html", "a/x.html", "../a", "a/../b", "a/./b", "c.d/e"]
    urls = [p + s for p in parts for s in ("", "/")]
    rng = random.Random(15)
    words = ["plugins", "p", "tools", "t.md", "..", ".", "index.html", "schemas", "v1"]
    urls += [
        "/".join(rng.choice(words) for _ in range(rng.randint(1, 5))) + rng.choice(("", "/"))
        for _ in range(300)
    ]
    for target, page in itertools.product(urls, repeat=2):
        assert relative(target, page) == get_relative_url(target or ".", page), (target, page)
