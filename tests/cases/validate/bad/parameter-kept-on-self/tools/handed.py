from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


def shaped(tool: "Handed") -> str:
    # The tool itself is handed over: any parameter may be read here, so nothing is said.
    return str(tool.params["text"]) * int(tool.params.get("limit") or 1)


class Handed(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        self.params = tool_parameters
        text = shaped(self)
        if self.params.get("mode", "upper") == "upper":
            text = text.upper()
        yield self.create_text_message(f"{self.params.get('prefix') or ''}{text}")
