from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

from .pixels import badge_png


class ShareBadgeTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        name, content, _, _ = badge_png(
            str(tool_parameters.get("label") or ""),
            str(tool_parameters.get("value") or ""),
            str(tool_parameters.get("colour") or "green"),
        )
        uploaded = self.session.file.upload(name, content, mimetype="image/png")
        url = uploaded.preview_url or ""
        # The variable follows file.json, the shape Dify's file variables take.
        yield self.create_variable_message(
            "badge",
            {
                "name": uploaded.name,
                "size": uploaded.size,
                "extension": uploaded.extension,
                "type": "image",
                "mime_type": uploaded.mime_type,
                "transfer_method": "tool_file",
                "url": url,
                "related_id": uploaded.id,
            },
        )
        if url:
            yield self.create_image_message(url)
            yield self.create_link_message(url)
        yield self.create_text_message(f"Shared {uploaded.name} ({uploaded.mime_type}, {uploaded.size} bytes)")
