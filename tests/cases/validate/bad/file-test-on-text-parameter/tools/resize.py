from collections.abc import Generator
from typing import Any

import httpx
from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage
from dify_plugin.file.file import File


class Resize(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        images = tool_parameters.get("image")
        if isinstance(images, str):
            images = [images]
        for image in images:
            if isinstance(image, File):  # a string parameter: never a File
                data = image.blob
            else:
                data = httpx.get(image, timeout=30).content
            yield self.create_blob_message(data, meta={"mime_type": "image/png", "filename": "image.png"})
        logo = tool_parameters.get("logo")
        if isinstance(logo, File):  # a file parameter: fine
            yield self.create_blob_message(logo.blob, meta={"mime_type": "image/png", "filename": "logo.png"})
