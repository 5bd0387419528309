from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class InitialsTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        name = str(tool_parameters["name"])
        words = ''.join(part[0].upper() for part in name.split())
        yield self.create_variable_message("words", words)
