from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class NoisyEchoTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        text = str(tool_parameters["text"])
        words = text
        yield self.create_variable_message("words", words)
        # The extras are read (and shown nowhere): they are here for their missing descriptions.
        _ = [tool_parameters.get(f"extra_{n}") for n in range(5)]
