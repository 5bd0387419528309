from collections.abc import Generator
from typing import Any

import json
import urllib3
from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class CaseTool(Tool):
    def _invoke(self, parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        key = self.runtime.credentials["api_key"]
        url = self.runtime.credentials["base"] + "/case/urllib3_get?word=" + parameters["word"]
        headers = {"X-Api-Key": key}
        answer = json.loads(urllib3.PoolManager().request('GET', url, headers=headers).data)
        yield self.create_variable_message("library", answer["library"])
        yield self.create_variable_message("posted", answer["posted"])
