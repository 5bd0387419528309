import io
from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage
from PIL import Image as PILImage


def preview(data: bytes) -> bytes:
    picture = PILImage.open(io.BytesIO(data))
    small = picture.resize((64, 64))
    buffer = io.BytesIO()
    small.save(buffer, "JPEG", quality=70)
    return buffer.getvalue()


def thumbnail(data: bytes) -> bytes:
    picture = PILImage.open(io.BytesIO(data))
    if picture.mode != "RGB":
        picture = picture.convert("RGB")
    buffer = io.BytesIO()
    picture.save(buffer, format="JPEG")
    return buffer.getvalue()


def watermark(data: bytes) -> bytes:
    layer = PILImage.open(io.BytesIO(data)).convert("RGBA")
    buffer = io.BytesIO()
    layer.save(buffer, format="jpeg")
    return buffer.getvalue()


class ShrinkTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        image = tool_parameters["image"]
        image_format = tool_parameters.get("image_format") or "png"
        picture = PILImage.open(io.BytesIO(image.blob))
        picture.thumbnail((1024, 1024))
        buffer = io.BytesIO()
        picture.save(buffer, format=image_format.upper())
        yield self.create_blob_message(buffer.getvalue(), meta={"mime_type": f"image/{image_format}"})
        small = preview(image.blob)
        yield self.create_blob_message(blob=small, meta={"mime_type": image.mime_type})
        framed = thumbnail(image.blob)
        yield self.create_blob_message(blob=framed, meta={"mime_type": "image/jpeg"})
        yield self.create_blob_message(blob=watermark(image.blob), meta={"mime_type": "image/jpeg"})
