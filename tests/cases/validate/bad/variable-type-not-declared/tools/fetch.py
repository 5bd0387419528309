from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class Fetch(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        words = str(tool_parameters["query"]).split()
        scores = {word: len(word) / 10 for word in words}  # declared an array of numbers
        yield self.create_variable_message("scores", scores)
        yield self.create_variable_message("count", str(len(words)))  # declared an integer
        yield self.create_variable_message("summary", f"{len(words)} words")
        yield self.create_variable_message("flags", {"empty": not words})
