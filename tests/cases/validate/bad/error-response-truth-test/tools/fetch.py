from collections.abc import Generator
from typing import Any

import requests
from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage
from requests.exceptions import HTTPError

API = "https://api.example.com/v1/items"


class Fetch(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        query = tool_parameters["query"]
        try:
            response = requests.get(API, params={"q": query}, timeout=30)
            response.raise_for_status()
            yield self.create_json_message(response.json())
        except requests.exceptions.HTTPError as error:
            # told: an HTTPError's response is an error response, whose truth is False
            status = error.response.status_code if error.response else "unknown"
            # silent: the test that means "is there a response"
            body = error.response.text if error.response is not None else ""
            yield self.create_text_message(f"HTTP {status}: {body}")
        except requests.RequestException as error:
            # silent: other request errors (a redirect loop's response is true)
            detail = error.response.text if error.response else str(error)
            yield self.create_text_message(f"Request failed: {detail}")
        yield self.create_text_message(self._status(query))

    def _status(self, query: str) -> str:
        try:
            requests.get(API, params={"q": query, "status": "1"}, timeout=30).raise_for_status()
        except HTTPError as failure:
            if not failure.response:  # told: always true
                return "no answer"
            return failure.response.reason
        return "ok"
