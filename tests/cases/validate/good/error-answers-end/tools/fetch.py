import json
import urllib.parse
import urllib.request
from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

API = "https://api.example.com/search"


class Fetch(Tool):
    """The fixed twin of bad/error-answer-goes-on, and the shapes the check leaves alone."""

    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        api_key = self.runtime.credentials.get("api_key")
        if not api_key:
            yield self.create_text_message("API key missing")
            return
        url = f"{API}?q={urllib.parse.quote(tool_parameters['query'])}"
        request = urllib.request.Request(url, headers={"Authorization": "Bearer " + api_key})
        try:
            resp = urllib.request.urlopen(request, timeout=10)
        except OSError as e:
            yield self.create_text_message(f"Request failed: {e}")
            return
        if resp.status != 200:
            yield self.create_text_message(f"Request failed with status {resp.status}")
        else:
            data = json.loads(resp.read())["data"]
            yield from self._pages(data)
            yield from self._summary(data)

    def _pages(self, data: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        for page in data.get("pages", []):
            if "url" not in page:
                yield self.create_text_message("A page has no address.")
                continue
            yield self.create_link_message(page["url"])
        total = None
        try:
            total = int(data["total"])
        except (KeyError, ValueError) as e:
            yield self.create_text_message(f"No total: {e}")
        yield self.create_variable_message("total", total)

    def _summary(self, data: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        # Answers that go on, on purpose: nothing after them needs what the test found missing.
        title = data.get("title")
        if not title:
            yield self.create_text_message("Untitled results.")
        yield self.create_variable_message("title", title)
        pages = data.get("pages")
        if not pages:
            yield self.create_text_message("No pages.")
        yield self.create_text_message(f"{len(pages or [])} pages")
        lang = data.get("lang")
        if not lang:
            yield self.create_text_message("No language given: English.")
            lang = "en"
        yield self.create_text_message(lang.upper())
        try:
            count = int(data["count"])
        except (KeyError, ValueError):
            yield self.create_text_message("No count.")
            count = 0
        yield self.create_variable_message("count", count + 1)
        succeeded = False
        try:
            score = float(data["score"])
            succeeded = True
        except (KeyError, ValueError):
            yield self.create_text_message("No score.")
        if not succeeded:
            return
        yield self.create_variable_message("score", score * 2)
