from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class CaseTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        words = str(tool_parameters.get("text", "")).split()
        if not words:
            # built and dropped: the caller sees no message at all
            self.create_text_message("nothing to count")
            return
        counted = self.create_json_message({"words": len(words)})  # kept, then yielded: fine
        yield counted
        for word in words:
            self.create_variable_message("last_word", word)
