from collections.abc import Generator
from typing import Any

import httpx
from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class CaseTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        client = httpx.Client(timeout=5)
        page = client.fetch_json(tool_parameters["url"])  # no such method in any httpx release
        yield self.create_json_message(page)
