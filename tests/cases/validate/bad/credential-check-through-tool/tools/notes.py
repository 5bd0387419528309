import json
from collections.abc import Generator
from typing import Any

import requests
from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class FindNotes(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        query = tool_parameters.get("query")
        if not query:
            raise ValueError("A query is required.")
        filters = json.loads(tool_parameters.get("filters") or "{}")
        try:
            reply = requests.post(
                "https://notes.example.com/search",
                json={"query": query, "filters": filters},
                headers={"Authorization": f"Token {self.runtime.credentials['api_key']}"},
                timeout=30,
            )
            reply.raise_for_status()
            found = reply.json()
            if not isinstance(found, list):
                raise ValueError("The service answered no list.")
            yield self.create_json_message({"notes": found})
        except requests.HTTPError as error:
            yield self.create_text_message(f"The search failed: {error.response.status_code}")
        except Exception as error:
            yield self.create_text_message(f"The search failed: {error}")
