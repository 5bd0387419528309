from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class CaseTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        import socket

        try:
            socket.create_connection(("127.0.0.1", int(tool_parameters["port"])), timeout=2).close()
            outcome = "connected"
        except OSError as problem:
            outcome = f"refused: {problem}"
        yield self.create_text_message(outcome)
