from collections.abc import Generator
from typing import Any

import httpx
from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

_client: httpx.Client | None = None


def client(api_key: str) -> httpx.Client:
    global _client
    if _client is None:  # made from the first caller's key, then kept for every caller
        _client = httpx.Client(headers={"Authorization": f"Bearer {api_key}"}, timeout=30)
    return _client


class Store:
    _instance = None

    def __new__(cls, *args: Any, **kwargs: Any) -> "Store":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __init__(self, host: str, token: str) -> None:
        if not hasattr(self, "host"):
            self.host, self.token = host, token


_clients: dict[str, httpx.Client] = {}


def keyed_client(api_key: str) -> httpx.Client:
    # fine: one client per key
    if api_key not in _clients:
        _clients[api_key] = httpx.Client(headers={"Authorization": f"Bearer {api_key}"}, timeout=30)
    return _clients[api_key]


class Resize(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        key = self.runtime.credentials.get("api_key", "")
        store = Store("https://img.example.com", key)
        shared = client(key).get(f"{store.host}/resize", params={"url": tool_parameters["image"]})
        own = keyed_client(key).get(f"{store.host}/logo", params={"on": bool(tool_parameters.get("logo"))})
        yield self.create_text_message(f"{shared.status_code} {own.status_code}")
