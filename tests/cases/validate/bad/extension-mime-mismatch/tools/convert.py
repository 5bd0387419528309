from collections.abc import Generator
from typing import Any

import httpx
from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

# The type of each kind of file the service returns.
TYPES = {
    ".pdf": "application/pdf",
    ".jpg": "image/jpeg",
    ".gif": "image/png",
    ".xml": "application/xml",
    ".md": "text/markdown",
    ".py": "text/plain",
}


# Sound files as (extension, type) pairs.
SOUNDS = (("mp3", "audio/mpeg"), ("wav", "audio/x-wav"), ("aac", "audio/mpeg"))


def audio_type(extension: str) -> str:
    if extension == "mp3":
        mime = "audio/mpeg"
    elif extension in ("jpg", "jpeg"):
        mime = "image/jpeg"
    elif extension == "wav":
        mime = "audio/x-wav"
    elif extension.endswith("webm"):
        mime = "video/mp4"
    else:
        mime = dict(SOUNDS).get(extension, "application/octet-stream")
    return mime


class ConvertTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        url = tool_parameters["url"]
        response = httpx.get(url, timeout=30)
        stem = url.rsplit("/", 1)[-1].rsplit(".", 1)[0]
        extension = "." + url.rsplit(".", 1)[-1]
        if extension in TYPES:
            yield self.create_blob_message(
                response.content, meta={"filename": f"{stem}{extension}", "mime_type": TYPES[extension]}
            )
        elif extension == ".png":
            yield self.create_blob_message(response.content, meta={"filename": f"{stem}.png", "mime_type": "image/jpeg"})
        else:
            yield self.create_blob_message(
                response.content, meta={"filename": "sound.wav", "mime_type": audio_type(extension[1:])}
            )
        yield self.create_blob_message(b"a,b\n", meta={"filename": "table.csv", "mime_type": "text/csv"})
