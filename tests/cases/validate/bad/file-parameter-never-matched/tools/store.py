import base64
from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage
from dify_plugin.file.file import File


class Store(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        document = tool_parameters.get("document")
        # a File is none of these: every upload ends in the else
        if isinstance(document, bytes):
            content = document
        elif isinstance(document, (str, bytearray)):
            content = base64.b64decode(document)
        else:
            yield self.create_text_message("Unsupported file type")
            return
        yield self.create_blob_message(content, meta={"mime_type": "application/pdf", "filename": "doc.pdf"})
        attachment = tool_parameters.get("attachment")
        if isinstance(attachment, bytes):  # fine: the else reads the File
            extra = attachment
        else:
            extra = attachment.blob if attachment else b""
        yield self.create_blob_message(extra, meta={"mime_type": "application/octet-stream"})
        cover = tool_parameters.get("cover")
        if isinstance(cover, dict):  # fine: the chain also tests for a File
            picture = base64.b64decode(cover["content"])
        elif isinstance(cover, File):
            picture = cover.blob
        else:
            picture = b""
        yield self.create_blob_message(picture, meta={"mime_type": "image/png"})
