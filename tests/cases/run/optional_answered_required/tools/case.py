from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class CaseTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        port = tool_parameters.get("port")
        if not port:
            yield self.create_text_message("Parameter port is required")
            return
        yield self.create_text_message(f"{tool_parameters['text']}:{port}")
