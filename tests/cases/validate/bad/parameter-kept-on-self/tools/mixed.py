from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class Limited:
    params: dict[str, Any]

    def _limit(self) -> int:
        return int(self.params.get("limit") or 1)


class Mixed(Tool, Limited):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        # Kept on self with a mixin, whose methods read `limit`: nothing is said.
        self.params = tool_parameters
        text = str(self.params["text"]) * self._limit()
        if self.params.get("mode", "upper") == "upper":
            text = text.upper()
        yield self.create_text_message(f"{self.params.get('prefix') or ''}{text}")
