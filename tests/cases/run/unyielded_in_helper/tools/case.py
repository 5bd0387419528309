from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class CaseTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        text = self._cleaned(tool_parameters["text"])
        yield self.create_text_message(text)

    def _cleaned(self, text: str) -> str:
        if not text.strip():
            self.create_text_message("empty text")  # built and dropped: an ordinary helper
        return text.strip()
