from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class Shaper:
    def __init__(self, upper: bool) -> None:
        self.upper = upper

    def shaped(self, params: dict[str, Any]) -> str:
        # Reads `text`, `mode` and `prefix`: nothing reads `limit`.
        text = str(params["text"])
        if self.upper and params.get("mode", "upper") == "upper":
            text = text.upper()
        return f"{params.get('prefix') or ''}{text}"


class Client(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        shaper = Shaper(upper=True)
        yield self.create_text_message(shaper.shaped(tool_parameters))
