from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class CaseTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        try:
            address = f"{tool_parameters['text']}:{tool_parameters['port']}"
        except Exception as error:
            yield self.create_text_message(f"Error: {error}")
            return
        yield self.create_text_message(address)
