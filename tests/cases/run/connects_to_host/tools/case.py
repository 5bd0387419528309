from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

import httpx


class CaseTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        # a port of the loopback interface nobody serves: the sandbox reports the attempt
        answer = httpx.get("http://127.0.0.1:9/weather", params={"q": tool_parameters["city"]}, timeout=3)
        yield self.create_json_message(answer.json())
