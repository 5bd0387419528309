from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class Both(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        # Read directly and through self: `limit` is read nowhere.
        self.tool_parameters = tool_parameters
        text = str(tool_parameters["text"])
        if tool_parameters.get("mode", "upper") == "upper":
            text = text.upper()
        yield self.create_text_message(f"{self._prefix()}{text}")

    def _prefix(self) -> str:
        return str(self.tool_parameters.get("prefix") or "")
