from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

from utils.out import echoed


class Echo(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        text = str(tool_parameters["text"])
        yield echoed(self, text)  # set in a shared helper module: counted
        yield self.create_json_message({"count": len(text)})  # a json key is no variable
