"""Legacy built-in provider names (`provider_id: tavily` in DSL files written before plugins) and the
official plugin that replaced each: `tavily` -> `langgenius/tavily/tavily`.

The map is data (`legacy_providers.json` beside this module), derived from Dify's official tool
plugins (the `tools/` folder of langgenius/dify-official-plugins): each provider `P` of a plugin
`langgenius/X` maps `P` to `langgenius/X/P`. Regenerate it (from the repository root) with

    python -m generator.workflow.legacy PATH/TO/dify-official-plugins/tools \
        > generator/workflow/legacy_providers.json

A name the map lacks is read as Dify reads it (`ToolProviderID` in api/models/provider_ids.py):
`langgenius/P/P`, except `jina`, `siliconflow`, `stepfun` and `gitee_ai`, whose plugins are
`P_tool`.
"""

from __future__ import annotations

import json
import sys
from functools import cache
from pathlib import Path

from generator.load.crawl import load_plugin

DATA = Path(__file__).with_name("legacy_providers.json")
# Dify's own exceptions to `langgenius/P/P` (ToolProviderID).
DIFY_TOOL_SUFFIXED = ("jina", "siliconflow", "stepfun", "gitee_ai")


@cache
def legacy_map() -> dict[str, str]:
    """Legacy provider name -> `author/plugin/provider` of the official plugin that replaced it."""
    data = json.loads(DATA.read_text(encoding="utf-8"))
    mapped: dict[str, str] = dict(data["providers"])
    for name in DIFY_TOOL_SUFFIXED:
        mapped.setdefault(name, f"langgenius/{name}_tool/{name}")
    return mapped


def derive(tools: Path) -> dict[str, object]:
    """The map of the official plugins under `tools` (each a plugin folder), read by the load stage;
    a provider name two plugins declare keeps the plugin whose name equals it, else the first."""
    providers: dict[str, str] = {}
    clashes: dict[str, list[str]] = {}
    for folder in sorted(p for p in tools.iterdir() if (p / "manifest.yaml").is_file()):
        plugin = load_plugin(folder, folder.name).plugin
        if plugin is None or plugin.author != "langgenius":
            continue
        for provider in plugin.providers:
            target = f"{plugin.author}/{plugin.name}/{provider.name}"
            known = providers.get(provider.name)
            if known is not None and known != target:
                clashes.setdefault(provider.name, [known]).append(target)
                if plugin.name != provider.name:
                    continue
            providers[provider.name] = target
    return {
        "about": "Legacy built-in tool provider names and the official plugin that replaced each; "
        "made by `python -m generator.workflow.legacy` from Dify's official tool plugins.",
        "providers": dict(sorted(providers.items())),
        "clashes": dict(sorted(clashes.items())),
    }


def main(argv: list[str]) -> int:
    """Print the map derived from the official plugins folder `argv[0]`."""
    if len(argv) != 1 or not Path(argv[0]).is_dir():
        print(
            "usage: python -m generator.workflow.legacy PATH/TO/dify-official-plugins/tools", file=sys.stderr
        )
        return 2
    json.dump(derive(Path(argv[0])), sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
