"""A synthetic registry: N plugins x M tools with realistic manifests, for measuring scale.

Manifests follow the shape of real plugins: four-language labels (some missing, so fallbacks
show), parameters of several types and forms, select options, and output schemas that `$ref`
the hosted schemas. Every tool has a small implementation and an examples file, so the same
registry serves validation, runner and site benchmarks.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

WORDS = (
    "search weather stock image chart text file summary translate convert parse extract "
    "calendar mail note task vector table report audio video map route price news"
).split()
ZH = "搜索 天气 股票 图像 图表 文本 文件 摘要 翻译 转换 解析 提取 日历 邮件 笔记 任务".split()
JA = "検索 天気 株価 画像 グラフ テキスト ファイル 要約 翻訳 変換 解析 抽出 予定 メール".split()
PT = "busca clima ações imagem gráfico texto arquivo resumo tradução conversão análise".split()
TAGS = ("search", "image", "weather", "finance", "productivity", "utilities", "rag", "news")
REFS = (
    "general_structure",
    "parent_child_structure",
    "qa_structure",
    "multimodal_parent_child_structure",
    "file",
)
ICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><circle cx="12" cy="12" r="10"/></svg>\n'
TOOL_CODE = """from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class {cls}(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        query = str(tool_parameters.get("query", ""))
        options = {{key: value for key, value in tool_parameters.items() if key != "query"}}
        yield self.create_text_message(f"{name}: {{query}} {{options}}")
        yield self.create_variable_message("summary", query.upper())
        yield self.create_variable_message("count", len(query))
{result}"""
# What a tool whose output_schema declares `result` sets it to (a `$ref`'d structure, left empty).
RESULT_CODE = '        yield self.create_variable_message("result", {})\n'

PROVIDER_CODE = """from typing import Any

from dify_plugin import ToolProvider


class {cls}(ToolProvider):
    def _validate_credentials(self, credentials: dict[str, Any]) -> None:
        return None
"""
MAIN_CODE = """from dify_plugin import DifyPluginEnv, Plugin

plugin = Plugin(DifyPluginEnv(MAX_REQUEST_TIMEOUT=120))

if __name__ == "__main__":
    plugin.run()
"""


def _label(rng: random.Random, words: int, complete: bool) -> dict[str, str]:
    english = " ".join(rng.choice(WORDS) for _ in range(words)).capitalize()
    label = {"en_US": english}
    for key, pool in (("zh_Hans", ZH), ("ja_JP", JA), ("pt_BR", PT)):
        if complete or rng.random() < 0.5:
            label[key] = "".join(rng.choice(pool) for _ in range(words)) if key != "pt_BR" else english
    return label


def _parameters(rng: random.Random) -> list[dict[str, object]]:
    parameters: list[dict[str, object]] = [
        {
            "name": "query",
            "type": "string",
            "required": True,
            "form": "llm",
            "label": _label(rng, 1, True),
            "human_description": _label(rng, 6, True),
            "llm_description": "The text the tool works on.",
        }
    ]
    for index in range(rng.randint(0, 4)):
        kind = rng.choice(("number", "boolean", "select", "string"))
        parameter: dict[str, object] = {
            "name": f"option_{index}",
            "type": kind,
            "required": False,
            "form": "form",
            "label": _label(rng, 2, rng.random() < 0.8),
            "human_description": _label(rng, 5, rng.random() < 0.8),
        }
        if kind == "select":
            values = [f"v{n}" for n in range(rng.randint(2, 6))]
            parameter["options"] = [{"value": v, "label": _label(rng, 1, True)} for v in values]
            parameter["default"] = values[0]
        elif kind == "number":
            parameter.update(default=rng.randint(1, 10), min=0, max=100)
        elif kind == "boolean":
            parameter["default"] = False
        parameters.append(parameter)
    return parameters


def _output_schema(rng: random.Random) -> dict[str, object]:
    properties: dict[str, object] = {
        "summary": {"type": "string", "description": "The query in capitals"},
        "count": {"type": "integer", "description": "Length of the query"},
    }
    if rng.random() < 0.5:
        ref = rng.choice(REFS)
        properties["result"] = {"$ref": f"https://dify.ai/schemas/v1/{ref}.json"}
    return {"type": "object", "properties": properties}


def _dump(path: Path, data: object, schema: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    header = f"# yaml-language-server: $schema=https://dify.ai/schemas/v1/{schema}.json\n"
    # JSON is valid YAML: the files stay readable and need no YAML writer.
    path.write_text(header + json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


def make_plugin(root: Path, index: int, tools: int, rng: random.Random) -> None:
    """Write one plugin with `tools` tools under `root`."""
    name = f"synthetic_{index:05d}"
    complete = index % 4 != 3
    tool_files = [f"tools/tool_{t:03d}.yaml" for t in range(tools)]
    for t, relative in enumerate(tool_files):
        tool_name = f"tool_{t:03d}"
        # drawn in the order the registry's figures were first measured with (same seed, same tools)
        label = _label(rng, 3, complete)
        human = _label(rng, 10, complete)
        parameters = _parameters(rng)
        output = _output_schema(rng)
        _dump(
            root / relative,
            {
                "identity": {"name": tool_name, "author": "synthetic", "label": label},
                "description": {"human": human, "llm": "Processes a query."},
                "parameters": parameters,
                "output_schema": output,
                "extra": {"python": {"source": f"tools/{tool_name}.py"}},
            },
            "tool",
        )
        cls = f"Tool{t:03d}"
        # the tool reads every parameter it declares and sets every variable: a clean plugin's pages
        declared = output["properties"]
        result = RESULT_CODE if isinstance(declared, dict) and "result" in declared else ""
        (root / f"tools/{tool_name}.py").write_text(
            TOOL_CODE.format(cls=cls, name=tool_name, result=result), encoding="utf-8"
        )
        _dump(
            root / f"tools/{tool_name}.examples.yaml",
            {
                "examples": [
                    {"name": "basic", "inputs": {"query": "hello"}, "expect": {"variables": {"count": 5}}}
                ]
            },
            "tool_examples",
        )
    _dump(
        root / "provider" / f"{name}.yaml",
        {
            "identity": {
                "author": "synthetic",
                "name": name,
                "label": _label(rng, 2, complete),
                "description": _label(rng, 8, complete),
                "icon": "icon.svg",
                "tags": sorted(rng.sample(TAGS, 2)),
            },
            "tools": tool_files,
            "extra": {"python": {"source": f"provider/{name}.py"}},
        },
        "tool_provider",
    )
    (root / "provider" / f"{name}.py").write_text(PROVIDER_CODE.format(cls="Provider"), encoding="utf-8")
    _dump(
        root / "manifest.yaml",
        {
            "version": "0.1.0",
            "type": "plugin",
            "author": "synthetic",
            "name": name,
            "label": _label(rng, 2, complete),
            "description": _label(rng, 8, complete),
            "icon": "icon.svg",
            "created_at": "2026-01-01T00:00:00Z",
            "resource": {"memory": 268435456, "permission": {"tool": {"enabled": True}}},
            "plugins": {"tools": [f"provider/{name}.yaml"]},
            "meta": {
                "version": "0.0.1",
                "arch": ["amd64", "arm64"],
                "runner": {"language": "python", "version": "3.12", "entrypoint": "main"},
                "minimum_dify_version": "1.9.0",
            },
            "tags": sorted(rng.sample(TAGS, 2)),
            "privacy": "PRIVACY.md",
            "repo": f"https://example.com/synthetic/{name}",
        },
        "plugin_manifest",
    )
    (root / "_assets").mkdir(exist_ok=True)
    (root / "_assets" / "icon.svg").write_text(ICON, encoding="utf-8")
    (root / "main.py").write_text(MAIN_CODE, encoding="utf-8")
    (root / "requirements.txt").write_text("dify_plugin>=0.9.0,<0.11\n", encoding="utf-8")
    (root / "README.md").write_text(f"# {name}\n\nA synthetic plugin for benchmarks.\n", encoding="utf-8")
    (root / "PRIVACY.md").write_text("This plugin collects no data.\n", encoding="utf-8")


def make_registry(target: Path, plugins: int, tools_per_plugin: int, seed: int = 0) -> Path:
    """Write a registry (a `plugins/` folder) of `plugins` x `tools_per_plugin` tools; return it."""
    rng = random.Random(seed)
    for index in range(plugins):
        make_plugin(target / "plugins" / f"synthetic_{index:05d}", index, tools_per_plugin, rng)
    return target


def main(argv: list[str] | None = None) -> None:
    """`python -m benchmarks.synthetic TARGET --plugins N --tools M`."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("target", type=Path)
    parser.add_argument("--plugins", type=int, default=10)
    parser.add_argument("--tools", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    make_registry(args.target, args.plugins, args.tools, args.seed)


if __name__ == "__main__":
    main()
