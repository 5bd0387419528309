from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class CaseTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        text = tool_parameters.get("text") or ""
        try:
            return self.create_text_message(f"echo: {text}")
        except Exception as problem:
            return self.create_text_message(f"Exception: {problem}")
