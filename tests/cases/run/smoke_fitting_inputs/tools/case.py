from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class CaseTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        size, unit, image = tool_parameters["size"], tool_parameters["unit"], tool_parameters["image"]
        if not 10 <= size <= 20 or unit not in ("px", "pt"):
            raise ValueError(f"size {size} {unit} is out of range")
        data = image.blob
        if not data.startswith(b"\x89PNG"):
            raise ValueError("not a PNG image")
        yield self.create_variable_message("mime_type", image.mime_type)
        yield self.create_variable_message("bytes", len(data))
