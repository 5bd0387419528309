from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class IsPalindromeTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        word = str(tool_parameters["word"])
        words = word.lower() == word.lower()[::-1]
        yield self.create_variable_message("words", words)
