from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

from .helpers import shout


class EchoTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        word = tool_parameters["word"]
        yield self.create_text_message(f"echo {word}")
        yield self.create_link_message("https://example.org/" + word)
        yield self.create_json_message({"word": word})
        yield self.create_variable_message("upper", shout(word))
        yield self.create_variable_message("count", len(word))
        yield self.create_stream_variable_message("story", "once ")
        yield self.create_stream_variable_message("story", "upon")
        yield self.create_blob_message(b"\x89PNG fake", meta={"mime_type": "image/png", "filename": "w.png"})
        uploaded = self.session.file.upload("note.txt", word.encode(), mimetype="text/plain")
        yield self.create_text_message(" " + (uploaded.preview_url or ""))
        self.session.storage.set("k", b"v")
        yield self.create_log_message("stored", {"ok": self.session.storage.get("k").decode()})
        doc = tool_parameters.get("doc")
        if doc is not None:
            yield self.create_text_message(" doc:" + doc.blob.decode())
