from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class CaseTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        yield self.create_variable_message("pair", (1, 2))
        yield self.create_variable_message("count", 1)
        yield self.create_stream_variable_message("count", "more")
        yield self.create_json_message({"raw": b"bytes"})
        yield ToolInvokeMessage(type=ToolInvokeMessage.MessageType.TEXT, message=ToolInvokeMessage.JsonMessage(json_object={"a": 1}))
        yield self.create_blob_message(b"data", meta={"filename": "data.bin"})
