from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class CaseTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        # Dify passes every form parameter: "" for an empty secret-input or select, False for booleans
        token = tool_parameters.get("token").strip()
        style = tool_parameters["style"].upper()
        if tool_parameters["repeat"] is not False or tool_parameters["shout"] is not False:
            raise ValueError("a boolean left empty arrives as False")
        yield self.create_text_message(tool_parameters["text"] + token + style)
