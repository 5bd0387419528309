"""The network guard of an example's child: an audit hook that reports every look-up of and
connection to a host other than the local stand-in for Dify, and refuses them where no network
namespace does."""

from __future__ import annotations

import sys
from typing import Any

from ..wire import EventWriter, NetworkAttempt

LOCAL_NAMES = (None, "127.0.0.1", "localhost", "::1")


def guard_network(events: EventWriter, allowed_port: list[int], refuse: bool, report: bool = True) -> None:
    """Report (and without a network namespace, refuse) connections other than to the file server;
    a run that records its example has the network and reports nothing."""
    if not report and not refuse:
        return

    def attempt(address: str) -> None:
        events.send(NetworkAttempt(address=address[:200]))
        if refuse:
            raise PermissionError("network access is disabled while running examples")

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if event == "socket.getaddrinfo":
            # Inside the network namespace a lookup fails before any connection is tried, so the
            # name looked up is the only trace of the host the tool wanted.
            host = args[0].decode(errors="replace") if isinstance(args[0], bytes) else args[0]
            if host not in LOCAL_NAMES:
                attempt(repr((host, args[1])))
            return
        if event not in ("socket.connect", "socket.sendto"):
            return
        address = args[1]
        own = (
            isinstance(address, tuple)
            and address[:1] in (("127.0.0.1",), ("localhost",))
            and address[1:2] == tuple(allowed_port[:1])
        )
        if not own:
            attempt(repr(address))

    sys.addaudithook(hook)
