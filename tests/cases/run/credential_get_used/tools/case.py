from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class CaseTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        value = self.runtime.credentials.get("api_key")
        header = "Bearer " + value
        yield self.create_variable_message("echo", header)
