"""The catalogue's web API, as both tools call it."""

from typing import Any

import requests

DEFAULT_BASE = "https://books.registry-examples.org/api"
TIMEOUT = 15


class Catalogue:
    def __init__(self, credentials: dict[str, Any]) -> None:
        self.base = str(credentials.get("api_base") or DEFAULT_BASE).rstrip("/")
        self.session = requests.Session()
        self.session.headers["X-Api-Key"] = str(credentials.get("api_key") or "")
        self.session.headers["Accept"] = "application/json"

    def get(self, path: str, **params: Any) -> Any:
        response = self.session.get(self.base + path, params=params or None, timeout=TIMEOUT)
        response.raise_for_status()
        return response.json()

    def image(self, path: str) -> tuple[bytes, str]:
        response = self.session.get(self.base + path, headers={"Accept": "image/*"}, timeout=TIMEOUT)
        response.raise_for_status()
        return response.content, response.headers.get("Content-Type", "application/octet-stream")
