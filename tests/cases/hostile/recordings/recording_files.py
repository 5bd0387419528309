"""Recordings for the hostile recording cases, written by their recipes (too big to commit)."""

from pathlib import Path
from typing import Any

import yaml

SHA = "0" * 64


def interaction(body: dict[str, str], headers: dict[str, list[str]] | None = None) -> dict[str, Any]:
    return {
        "request": {"method": "GET", "url": "https://api.example.org/v1/echo"},
        "response": {"status": 200, "headers": headers or {}, "body": body},
    }


def write(plugin: Path, interactions: list[dict[str, Any]]) -> Path:
    data = {
        "format": 1,
        "recorded_at": "2026-12-01T00:00:00Z",
        "tool": "echo",
        "example": "hello",
        "inputs_sha256": SHA,
        "code_sha256": SHA,
        "interactions": interactions,
    }
    path = plugin / "tools" / "echo.recordings" / "hello.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(data, width=1_000_000), encoding="utf-8")
    return path
