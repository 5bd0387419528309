"""The hosts a run tried to reach, from its network events."""

from __future__ import annotations

import ast
from collections.abc import Iterable

from generator.run.wire import Event, NetworkAttempt


def contacted_hosts(events: Iterable[Event]) -> tuple[str, ...]:
    """The hosts of a run's network events (the guard reports `repr((host, port))`), in order."""
    hosts: dict[str, None] = {}
    for event in events:
        if not isinstance(event, NetworkAttempt):
            continue
        try:
            address = ast.literal_eval(event.address[:200])
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            continue
        host = address[0] if isinstance(address, tuple) and address else None
        if isinstance(host, bytes):
            host = host.decode(errors="replace")
        if isinstance(host, str) and host:
            hosts[host.lower()] = None
    return tuple(hosts)
