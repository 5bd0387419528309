import json
import os
from collections.abc import Generator
from pathlib import Path
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

TEMPLATES = os.path.join(os.path.dirname(__file__), "..", "templates")
CACHE = Path(__file__).parent.parent / "cache"


def load_template(name: str) -> str:
    if name == "default":
        return "{title}"
    with open(os.path.join(TEMPLATES, name + ".html"), encoding="utf-8") as file:
        return file.read()


class RenderTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        title = tool_parameters["title"]
        template = tool_parameters.get("template") or "default"
        font = tool_parameters.get("font") or "serif"
        style = tool_parameters.get("style") or "plain"
        cache_key = tool_parameters.get("cache_key") or "last"
        page = load_template(template).format(title=title)
        font_path = Path(__file__).parent.parent / "fonts" / f"{font}.ttf"
        font_file = font_path if font_path.exists() else None
        css = Path(f"_assets/styles/{style}.css").read_text(encoding="utf-8")
        cached = CACHE / f"{cache_key}.json"
        if cached.exists():
            yield self.create_json_message(json.loads(cached.read_text(encoding="utf-8")))
        os.makedirs(CACHE, exist_ok=True)
        cached.write_text(json.dumps({"page": page}), encoding="utf-8")
        yield self.create_json_message({"page": page, "css": css, "font": str(font_file or "")})
