from collections.abc import Generator
from typing import Any

import httpx
from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class CaseTool(Tool):
    def _invoke(self, parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        key = self.runtime.credentials["api_key"]
        url = self.runtime.credentials["base"] + "/case/httpx_get?word=" + parameters["word"]
        headers = {"X-Api-Key": key}
        answer = httpx.get(url, headers=headers).json()
        yield self.create_variable_message("library", answer["library"])
        yield self.create_variable_message("posted", answer["posted"])
