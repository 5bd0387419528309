"""Where the tools of Dify's former built-in providers live now, for the hints of the workflow check.

Dify resolves a bare `provider_id` such as `tavily` only one way (`ToolProviderID`, read by
`generator.workflow.uses.provider_parts`): `langgenius/tavily/tavily`. That is right for most
providers, whose official plugin carries their name; for the others (`excel365` is in
`langgenius/microsoft_excel365`, `openai`'s tools in `langgenius/openai_tool`) Dify looks for a
plugin that does not exist, or that holds no tools, and the node fails. The map says where such a
provider's tools are now, so that the finding can name the `provider_id` to write; it never makes a
node resolve where Dify would not.

The map is data (`legacy_providers.json` beside this module). `providers` is derived from Dify's
official tool plugins (the `tools/` folder of langgenius/dify-official-plugins): each provider `P`
of a plugin `langgenius/X` maps `P` to `langgenius/X/P`. Regenerate it (from the repository root)
with

    python -m generator.workflow.legacy PATH/TO/dify-official-plugins/tools \
        > generator/workflow/legacy_providers.json

`moved` is written by hand and kept by the regeneration: former built-in providers whose tools now
belong to a provider of another name (`dalle`: DALL-E 2 and 3 are tools of `langgenius/openai_tool`'s
provider `openai`).
"""

from __future__ import annotations

import json
import sys
from functools import cache
from pathlib import Path

from generator.load.crawl import load_plugin
from generator.workflow.uses import provider_parts

DATA = Path(__file__).with_name("legacy_providers.json")


@cache
def legacy_map() -> dict[str, str]:
    """Former built-in provider name -> `author/plugin/provider` where its tools are now."""
    data = json.loads(DATA.read_text(encoding="utf-8"))
    return {**data["providers"], **data.get("moved", {})}


def moved_to(provider_id: str) -> str:
    """The `author/plugin/provider` that now holds the tools of a former built-in provider, when Dify
    resolves its bare name elsewhere (`openai` -> `langgenius/openai_tool/openai`); else ""."""
    target = legacy_map().get(provider_id, "")
    resolved = provider_parts(provider_id)
    if not target or resolved is None or target == "/".join(resolved):
        return ""
    return target


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
    kept = json.loads(DATA.read_text(encoding="utf-8")).get("moved", {}) if DATA.is_file() else {}
    return {
        "about": "Legacy built-in tool provider names and the official plugin that replaced each; "
        "made by `python -m generator.workflow.legacy` from Dify's official tool plugins. `moved` "
        "(kept as written): former built-in providers whose tools belong to a provider of another name.",
        "providers": dict(sorted(providers.items())),
        "moved": kept,
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
