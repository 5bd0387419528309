from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class CaseTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        # What a client written in Rust says when its own connection fails: the sandbox's Python
        # guard never sees that connection.
        raise ConnectionError("https://api.example.invalid/search ConnectError: error sending request for url")
        yield self.create_text_message("unreachable")
