from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

from .images import Uploader, paragraphs


class MultimodalGeneralTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        text = str(tool_parameters.get("input_text") or "")
        separator = str(tool_parameters.get("separator") or "\\n\\n")
        uploader = Uploader(lambda name, content, mime: self.session.file.upload(name, content, mimetype=mime))
        # Dify's Knowledge Base node indexes a list of strings and attaches the uploaded files that
        # each string links to, which is the array multimodal_general_structure.json describes.
        chunks = [uploader.replace(part)[0] for part in paragraphs(text, separator)]
        yield self.create_log_message(
            "Upload images",
            {"uploaded": [file["name"] for file in uploader.uploaded], "rejected": uploader.rejected},
        )
        yield self.create_variable_message("result", chunks)
        names = ", ".join(file["name"] for file in uploader.uploaded) or "none"
        noun = "chunk" if len(chunks) == 1 else "chunks"
        yield self.create_text_message(f"{len(chunks)} {noun}; images uploaded: {names}")
