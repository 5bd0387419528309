"""A message the tool yielded, as Dify decodes it from the SDK's JSON frame."""

from __future__ import annotations

import json
from typing import Any

from generator.run.runtypes import RunMessage
from generator.run.wire import Yielded


def run_message(event: Yielded, file: int | None) -> RunMessage:
    """A message as Dify decodes it from the SDK's JSON frame (`session` event, `stream` data)."""
    streamed = _streamed(event.frame)
    payload = streamed.get("message")
    if streamed.get("type") == "blob":
        payload = {"blob": {"file": file}} if file is not None else None
    return RunMessage(str(streamed.get("type")), payload, streamed.get("meta"), event.kind)


def _streamed(framed: str) -> dict[str, Any]:
    """`data.data` of one frame the SDK would write to Dify; {} for anything else (child untrusted)."""
    try:
        frame = json.loads(framed)
    except (ValueError, RecursionError):
        return {}
    session = frame.get("data") if isinstance(frame, dict) else None
    streamed = session.get("data") if isinstance(session, dict) else None
    return streamed if isinstance(streamed, dict) else {}
