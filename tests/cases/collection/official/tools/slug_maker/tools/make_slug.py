from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class MakeSlugTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        title = str(tool_parameters["title"])
        words = '-'.join(title.lower().split())
        yield self.create_variable_message("words", words)
