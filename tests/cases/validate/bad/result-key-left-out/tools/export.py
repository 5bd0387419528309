from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

from utils.archive import pack


class Export(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        notes = tool_parameters["notes"]
        packed = pack(notes)
        # the error path's dictionary has no "file": KeyError, and its message is lost
        yield self.create_blob_message(packed["file"], meta={"mime_type": "application/zip"})
        checked = pack(notes.upper())
        if "error" in checked:  # fine: tested first
            yield self.create_text_message(checked["error"])
            return
        yield self.create_blob_message(checked["file"], meta={"mime_type": "application/zip"})
        counted = self._count(notes)
        yield self.create_text_message(f"{counted['words']} words")
        try:
            yield self.create_text_message(str(self._count(notes)["lines"]))
        except KeyError:  # fine: the missing key is expected
            yield self.create_text_message("empty")

    def _count(self, text: str) -> dict:
        if not text.strip():
            return {"empty": True}
        return {"words": len(text.split()), "lines": text.count("\n") + 1}
