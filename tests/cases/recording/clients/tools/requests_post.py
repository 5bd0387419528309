from collections.abc import Generator
from typing import Any

import requests
from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class CaseTool(Tool):
    def _invoke(self, parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        key = self.runtime.credentials["api_key"]
        url = self.runtime.credentials["base"] + "/case/requests_post?word=" + parameters["word"]
        headers = {"X-Api-Key": key}
        answer = requests.post(url, json={'word': parameters['word'], 'key': key}, headers=headers, timeout=10).json()
        yield self.create_variable_message("library", answer["library"])
        yield self.create_variable_message("posted", answer["posted"])
