from collections.abc import Generator
from typing import Any

import requests
from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

from tools.session import headers_for


class Fetch(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        headers = headers_for(self.runtime.credentials)
        base = self.runtime.credentials["base_url"]
        page = requests.get(f"{base}/pages/{tool_parameters['page']}", headers=headers, timeout=30)
        yield self.create_text_message(page.text)
