from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.invoke_message import InvokeMessage
from dify_plugin.entities.tool import ToolInvokeMessage

from .images import Uploader, paragraphs, plain


class MultimodalParentChildTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        text = str(tool_parameters.get("input_text") or "")
        mode = tool_parameters.get("parent_mode") or "paragraph"
        if mode not in ("paragraph", "full_doc"):
            raise ValueError(f"parent_mode must be paragraph or full_doc, not {mode!r}.")
        uploader = Uploader(lambda name, content, mime: self.session.file.upload(name, content, mimetype=mime))
        started = self.create_log_message(
            "Upload images", {"characters": len(text)}, status=InvokeMessage.LogMessage.LogStatus.START
        )
        yield started
        parents = paragraphs(text, "\n\n") if mode == "paragraph" else [text.strip()] if text.strip() else []
        chunks = []
        for parent in parents:
            content, files = uploader.replace(parent)
            children = [line for line in paragraphs(plain(content), "\n") if line]
            chunks.append({"parent_content": content, "child_contents": children or [content], "files": files})
        yield self.finish_log_message(
            started,
            status=InvokeMessage.LogMessage.LogStatus.ERROR if uploader.rejected else InvokeMessage.LogMessage.LogStatus.SUCCESS,
            error="; ".join(uploader.rejected) or None,
            data={"uploaded": [file["name"] for file in uploader.uploaded], "rejected": uploader.rejected},
        )
        yield self.create_variable_message("result", {"parent_mode": mode, "parent_child_chunks": chunks})
        names = ", ".join(file["name"] for file in uploader.uploaded) or "none"
        noun = "parent chunk" if len(chunks) == 1 else "parent chunks"
        yield self.create_text_message(f"{len(chunks)} {noun}; images uploaded: {names}")
