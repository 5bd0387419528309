import base64
import io
import zipfile
from collections.abc import Generator
from typing import Any

import httpx
from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


def pack(names: list[str], text: str) -> dict[str, Any]:
    if not names:
        return {"error": "no file names"}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in names:
            archive.writestr(name, text)
    return {"summary": f"{len(names)} files", "file": {"name": "files.zip", "data": buffer.getvalue()}}


class Archive(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        names = [name.strip() for name in str(tool_parameters["names"]).split(",") if name.strip()]
        result = pack(names, str(tool_parameters["text"]))
        info = str(result)  # the whole result, the archive's bytes among it
        yield self.create_text_message(info)
        yield self.create_text_message(f"Packed {result.get('summary')}")  # text only: not told
        if "file" in result:
            data = result["file"]["data"]
            digest = base64.b64encode(data)
            yield self.create_text_message(f"Digest: {digest}")  # b'...'
            yield self.create_text_message(f"Digest: {digest.decode()}")  # decoded: not told
            yield self.create_blob_message(blob=data, meta={"mime_type": "application/zip", "filename": "files.zip"})
        reply = httpx.post("https://archive.example.com/notify", json={"summary": result.get("summary")})
        yield self.create_text_message(f"Notified: {reply.content}")  # the body as bytes
        yield self.create_text_message(f"Notified: {reply.text}")  # decoded: not told
