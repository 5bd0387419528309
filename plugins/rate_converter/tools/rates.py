"""The rates service, as both tools call it."""

from typing import Any

import httpx

DEFAULT_BASE = "https://rates.registry-examples.org"


def client(credentials: dict[str, Any]) -> httpx.Client:
    base = str(credentials.get("api_base") or DEFAULT_BASE).rstrip("/")
    token = str(credentials.get("api_token") or "")
    return httpx.Client(base_url=base, headers={"Authorization": f"Bearer {token}"}, timeout=15)
