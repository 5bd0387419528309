from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

from .styles import render

HTML = "HTML"


class ExportTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        text = tool_parameters["text"]
        level = tool_parameters.get("level")
        yield self.create_text_message(f"Level: {level}")  # shown, not handled
        if level == "low":
            factor = 1
        elif level == "high":
            factor = 3
        mode = tool_parameters.get("mode") or "summarize"
        if mode == "summarise":
            text = text[:100]
        if mode == "translate":
            text = text.upper()
        if mode != "translation":
            text = text.strip()
        style = tool_parameters["style"]
        yield self.create_text_message(render(style, text) * factor)
        fmt = tool_parameters.get("format")
        if fmt == "csv":
            yield self.create_text_message(text.replace(" ", ","))
        elif fmt == "json":
            yield self.create_json_message({"text": text})
        elif fmt == HTML:
            yield self.create_text_message(f"<p>{text}</p>")
