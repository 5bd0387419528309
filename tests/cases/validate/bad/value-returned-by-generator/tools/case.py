from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class CaseTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        words = str(tool_parameters.get("text", "")).split()
        if not words:
            return None  # ends the generator: nothing was meant to be sent
        if len(words) > 1000:
            return self.create_text_message("too many words")  # a message nobody receives
        counted = yield from self._count(words)  # a helper generator's value is used: fine
        yield self.create_json_message({"words": counted})
        if counted > 10:
            return {"long": True}  # thrown away: the author meant it as output
        return

    def _count(self, words: list[str]) -> Generator[ToolInvokeMessage, None, int]:
        yield self.create_log_message("counting", {})
        return len(words)
