from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.invoke_message import InvokeMessage
from dify_plugin.entities.tool import ToolInvokeMessage

from .splitting import clean, read_source, split_text, unescape


class GeneralChunkerTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        text = read_source(tool_parameters)
        separator = unescape(str(tool_parameters.get("separator") or "\\n\\n"))
        max_length = int(tool_parameters.get("max_length") or 500)
        started = self.create_log_message(
            "Split text",
            {"characters": len(text), "max_length": max_length},
            status=InvokeMessage.LogMessage.LogStatus.START,
        )
        yield started
        text = clean(text, bool(tool_parameters.get("remove_extra_spaces")), remove_urls_emails=False)
        chunks = split_text(text, separator, max_length)
        yield self.finish_log_message(started, data={"chunks": len(chunks)})
        yield self.create_variable_message("result", chunks)
