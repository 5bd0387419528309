"""Which stdout lines are the SDK's own protocol log events, not prints (R008)."""

from __future__ import annotations

import json

from generator.run.judge import is_sdk_log_line


def test_the_sdk_handlers_lines_are_log_events() -> None:
    """What `plugin_logger_handler` writes is a log event; a print, or another event, is not."""
    logged = json.dumps({"event": "log", "data": {"level": "INFO", "message": "hi", "timestamp": 1.0}})
    assert is_sdk_log_line(logged)
    assert not is_sdk_log_line("hello from the tool")
    assert not is_sdk_log_line('{"event": "done"}')
    assert not is_sdk_log_line('{"event": "log", "data": "text"}')
    assert not is_sdk_log_line("[" * 100_000)
