import re
from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class CaseTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        expression = tool_parameters["expression"]
        if not re.fullmatch(r"[0-9+*/() .-]+", expression):
            yield self.create_text_message(f"Invalid expression: {expression}")
            return
        yield self.create_variable_message("result", 1)
        yield self.create_json_message({"steps": []})
        yield self.create_variable_message("all_steps", [])
