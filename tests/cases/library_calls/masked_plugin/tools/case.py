from collections.abc import Generator
from typing import Any

import httpx
from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class CaseTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        # what breaks next, once the provider YAML is mended: told now
        client = httpx.Client(verify_ssl=False)
        yield self.create_text_message(client.get(tool_parameters["url"]).text)
