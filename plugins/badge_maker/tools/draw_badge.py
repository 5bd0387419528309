from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

from .pixels import badge_png


class DrawBadgeTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        name, content, width, height = badge_png(
            str(tool_parameters.get("label") or ""),
            str(tool_parameters.get("value") or ""),
            str(tool_parameters.get("colour") or "green"),
        )
        yield self.create_blob_message(content, meta={"mime_type": "image/png", "filename": name})
        yield self.create_variable_message("width", width)
        yield self.create_variable_message("height", height)
        yield self.create_text_message(f"{name}: {width}x{height} PNG, {len(content)} bytes")
