"""A copy of the shared corpus's tool and datasource plugins that the checks needing code can use.

The corpus has no Python files; the copy gets an empty placeholder module for every
`extra.python.source`, and an entry point that creates the SDK's `Plugin`, as a real plugin has them."""

from __future__ import annotations

import shutil
from pathlib import Path

from generator.load.crawl import load_plugin
from generator.load.paths import resolve_inside
from generator.load.values import dig

KINDS = ("tools", "datasources")
PLACEHOLDER = "# placeholder: the corpus holds no code\n"
# The class files of the tools and of their providers hold the one subclass the SDK takes from
# them (P013, T022), as every official plugin's do.
CLASS_FILES = {
    "tool": f"{PLACEHOLDER}from dify_plugin import Tool\n\n\nclass Placeholder(Tool):\n"
    "    def _invoke(self, tool_parameters):\n        yield self.create_text_message('')\n",
    "tools provider": f"{PLACEHOLDER}from dify_plugin import ToolProvider\n\n\n"
    "class Placeholder(ToolProvider):\n    def _validate_credentials(self, credentials):\n        pass\n",
}
# The entry point of every official plugin creates the SDK's Plugin, which is what starts it.
ENTRY = f"{PLACEHOLDER}from dify_plugin import DifyPluginEnv, Plugin\n\nplugin = Plugin(DifyPluginEnv())\n"


def _add_placeholders(root: Path) -> None:
    loaded = load_plugin(root)
    named: dict[str, str] = {}
    for relative, document in loaded.documents.items():
        source = dig(document.data, "extra", "python", "source")
        if isinstance(source, str):
            named[source] = CLASS_FILES.get(loaded.roles.get(relative, ""), PLACEHOLDER)
        entry = dig(document.data, "meta", "runner", "entrypoint") if relative == "manifest.yaml" else None
        if isinstance(entry, str):
            named[entry.replace(".", "/") + ".py"] = ENTRY
    for name, text in named.items():
        resolved = resolve_inside(root, name)
        if resolved.path is not None and not resolved.path.exists():
            resolved.path.parent.mkdir(parents=True, exist_ok=True)
            resolved.path.write_text(text)


def copy_corpus(corpus: Path, target: Path) -> Path:
    """The corpus's tool and datasource plugins copied under `target`, with placeholder modules."""
    for kind in KINDS:
        shutil.copytree(corpus / kind, target / kind)
        for plugin in (target / kind).iterdir():
            if plugin.is_dir():
                _add_placeholders(plugin)
    return target
