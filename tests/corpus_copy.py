"""A copy of the shared corpus's tool and datasource plugins that the checks needing code can use.

The corpus has no Python files; the copy gets an empty placeholder module for every
`extra.python.source` and runner entrypoint, as a real plugin has them."""

from __future__ import annotations

import shutil
from pathlib import Path

from generator.load.crawl import load_plugin
from generator.load.paths import resolve_inside
from generator.load.values import dig

KINDS = ("tools", "datasources")


def _add_placeholders(root: Path) -> None:
    loaded = load_plugin(root)
    named: list[str] = []
    for relative, document in loaded.documents.items():
        source = dig(document.data, "extra", "python", "source")
        if isinstance(source, str):
            named.append(source)
        entry = dig(document.data, "meta", "runner", "entrypoint") if relative == "manifest.yaml" else None
        if isinstance(entry, str):
            named.append(entry.replace(".", "/") + ".py")
    for name in named:
        resolved = resolve_inside(root, name)
        if resolved.path is not None and not resolved.path.exists():
            resolved.path.parent.mkdir(parents=True, exist_ok=True)
            resolved.path.write_text("# placeholder: the corpus holds no code\n")


def copy_corpus(corpus: Path, target: Path) -> Path:
    """The corpus's tool and datasource plugins copied under `target`, with placeholder modules."""
    for kind in KINDS:
        shutil.copytree(corpus / kind, target / kind)
        for plugin in (target / kind).iterdir():
            if plugin.is_dir():
                _add_placeholders(plugin)
    return target
