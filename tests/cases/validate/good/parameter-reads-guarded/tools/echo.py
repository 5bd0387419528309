from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class Echo(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        # Every undeclared key below is stored by the code before it is read: none can fail or miss.
        text = str(tool_parameters["text"])  # declared
        tool_parameters["suffix"] = "!"  # stored before it is read
        text += tool_parameters["suffix"]
        tool_parameters.setdefault("prefix", "")
        text = tool_parameters["prefix"] + text
        if tool_parameters.get("suffix") and "prefix" in tool_parameters:
            text = text.strip()
        mode = tool_parameters.get("mode", "upper")  # declared, optional: .get is the right read
        if "mode" in tool_parameters and mode == "upper":
            text = text.upper()
        yield self.create_text_message(text)
        yield self.create_variable_message("echoed", text)
