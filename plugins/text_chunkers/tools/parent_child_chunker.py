from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.invoke_message import InvokeMessage
from dify_plugin.entities.tool import ToolInvokeMessage

from .splitting import clean, read_source, split_text, unescape

PARENT_MODES = ("paragraph", "full_doc")


class ParentChildChunkerTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        text = clean(read_source(tool_parameters), bool(tool_parameters.get("remove_extra_spaces")), False)
        mode = tool_parameters.get("parent_mode") or "paragraph"
        if mode not in PARENT_MODES:
            raise ValueError(f"parent_mode must be one of {', '.join(PARENT_MODES)}, not {mode!r}.")
        started = self.create_log_message(
            "Split parents", {"mode": mode}, status=InvokeMessage.LogMessage.LogStatus.START
        )
        yield started
        if mode == "full_doc":
            parents = [text.strip()] if text.strip() else []
        else:
            parents = split_text(
                text,
                unescape(str(tool_parameters.get("separator") or "\\n\\n")),
                int(tool_parameters.get("max_length") or 1024),
            )
        yield self.finish_log_message(started, data={"mode": mode, "parents": len(parents)})
        child_separator = unescape(str(tool_parameters.get("subchunk_separator") or "\\n"))
        child_length = int(tool_parameters.get("subchunk_max_length") or 512)
        chunks = [
            {"parent_content": parent, "child_contents": split_text(parent, child_separator, child_length)}
            for parent in parents
        ]
        yield self.create_log_message(
            "Split children",
            {"children": sum(len(chunk["child_contents"]) for chunk in chunks)},
            parent=started,
        )
        yield self.create_variable_message("result", {"parent_mode": mode, "parent_child_chunks": chunks})
