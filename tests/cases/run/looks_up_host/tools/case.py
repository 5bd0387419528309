import socket
from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class CaseTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        # in the sandbox the name lookup fails before any connection is tried
        socket.getaddrinfo("weather.example.invalid", 443)
        yield self.create_text_message(tool_parameters["city"])
