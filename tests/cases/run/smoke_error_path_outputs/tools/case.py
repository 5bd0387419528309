from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class CaseTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        # The shape of a real plugin's error path: every declared variable set, the fields to None.
        token = self.runtime.credentials.get("api_key")
        if not token:
            payload = {"success": False, "error": "api_key is not configured", "book_id": None, "name": None}
        else:
            payload = {"success": True, "error": None, "book_id": "1", "name": "A book"}
        for name, value in payload.items():
            yield self.create_variable_message(name, value)
