from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class CaseTool(Tool):
    # dify_plugin 0.0.1b3's Tool: the plugin implements `invoke` itself, which Dify calls
    def invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        yield self.create_text_message("ran on the oldest SDK")
        yield self.create_json_message({"ok": True})
