from collections.abc import Generator
from typing import Any

import json
import urllib.request
from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class CaseTool(Tool):
    def _invoke(self, parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        key = self.runtime.credentials["api_key"]
        url = self.runtime.credentials["base"] + "/case/urllib_get?word=" + parameters["word"]
        headers = {"X-Api-Key": key}
        answer = json.loads(urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=10).read())
        yield self.create_variable_message("library", answer["library"])
        yield self.create_variable_message("posted", answer["posted"])
