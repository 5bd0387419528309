from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


def shaped(text: str, params: dict[str, Any]) -> str:
    # The helper reads `mode`; nothing reads `limit`, which the YAML offers every user.
    return text.upper() if params.get("mode", "upper") == "upper" else text.lower()


class Echo(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        text = shaped(str(tool_parameters["text"]), tool_parameters)
        if "prefix" in tool_parameters:
            text = f"{tool_parameters['prefix']} {text}"
        yield self.create_text_message(text)
