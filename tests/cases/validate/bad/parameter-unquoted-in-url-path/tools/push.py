from collections.abc import Generator
from typing import Any
from urllib.parse import quote

import requests
from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

BASE = "https://api.example.com"


def address(server: str, title: str, content: str) -> str:
    return f"{server}/push/{title}/{content}"  # told twice: the values are the tool's parameters


class Push(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        title = tool_parameters["title"].strip()
        content = tool_parameters["content"]
        note_id = tool_parameters["note_id"]
        mode = tool_parameters["mode"]
        topic = tool_parameters["topic"]
        url = f"{BASE}/notes/{title}"  # told
        requests.post(url, json={"content": content}, timeout=30)
        requests.get(BASE + "/search/" + content, timeout=30)  # told
        requests.get(f"{BASE}/notes/{quote(title, safe='')}", timeout=30)  # silent: quoted
        requests.get(f"{BASE}/items/{note_id}", timeout=30)  # silent: an identifier
        requests.get(f"{BASE}/modes/{mode}", timeout=30)  # silent: a select
        requests.get(f"{BASE}/search?q={title}", timeout=30)  # silent: the query, not the path
        requests.get(f"https://{title}.example.com/", timeout=30)  # silent: not the path
        requests.get(address(BASE, title, content), timeout=30)
        requests.get(f"{BASE}/docs/{topic}.html", timeout=30)  # silent: a path by its description
        yield self.create_text_message("Pushed.")
