from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

import httpx


class CaseTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        answer = httpx.get("http://127.0.0.1:9/weather", params={"q": tool_parameters["city"]}, timeout=3)
        answer.raise_for_status()
        yield self.create_json_message(answer.json())
