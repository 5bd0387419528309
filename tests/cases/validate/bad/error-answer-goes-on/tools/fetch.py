import json
import urllib.parse
import urllib.request
from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

API = "https://api.example.com/search"


class Fetch(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        api_key = self.runtime.credentials.get("api_key")
        if not api_key:
            yield self.create_text_message("API key missing")
        url = f"{API}?q={urllib.parse.quote(tool_parameters['query'])}"
        request = urllib.request.Request(url, headers={"Authorization": "Bearer " + api_key})
        try:
            resp = urllib.request.urlopen(request, timeout=10)
        except OSError as e:
            yield self.create_text_message(f"Request failed: {e}")
        if resp.status != 200:
            yield self.create_text_message(f"Request failed with status {resp.status}")
        data = json.loads(resp.read())["data"]
        yield from self._pages(data)

    def _pages(self, data: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        for page in data.get("pages", []):
            if "url" not in page:
                yield self.create_text_message("A page has no address.")
            yield self.create_link_message(page["url"])
        try:
            total = int(data["total"])
        except (KeyError, ValueError) as e:
            yield self.create_text_message(f"No total: {e}")
        yield self.create_variable_message("total", total)
