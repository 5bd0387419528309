from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class Echo(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        text = str(tool_parameters["text"])
        times = tool_parameters.get("times", 1)  # read, then never used
        upper = tool_parameters.get("upperCase")  # read, then never used
        trim = tool_parameters.get("trim", False)
        if trim == "":
            trim = False  # normalised, then never used either
        yield self.create_text_message(text)
