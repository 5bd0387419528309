from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class CaseTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        document = tool_parameters["document"]
        data = document.blob()  # the SDK's File.blob is a property holding bytes
        yield self.create_text_message(f"{len(data)} bytes")
