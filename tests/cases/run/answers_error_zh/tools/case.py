from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class CaseTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        if tool_parameters["text"] == "example":
            yield self.create_text_message("调用接口时出错：请先配置站点地址")
            return
        yield self.create_text_message(tool_parameters["text"])
