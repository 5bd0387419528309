"""The generator's end of a worker's control socket: length-prefixed JSON messages, descriptors
passed alongside (`zygote.py` holds the worker's end)."""

from __future__ import annotations

import json
import socket
import struct
import time
from typing import Any

HEADER = struct.Struct(">I")
MAX_ANSWER = 1 << 20
# an idle worker reads a job at once; one that does not within this time is broken
SEND_TIMEOUT = 30.0


def send(sock: socket.socket, message: dict[str, Any], fds: list[int]) -> bool:
    """Send one message with `fds` attached; False when the worker is gone."""
    body = json.dumps(message).encode()
    sock.settimeout(SEND_TIMEOUT)
    try:
        socket.send_fds(sock, [HEADER.pack(len(body))], fds)
        sock.sendall(body)
    except OSError:
        return False
    return True


def receive(sock: socket.socket, deadline: float) -> dict[str, Any] | None:
    """The worker's next answer, or None when it hung up, sent garbage or the deadline passed."""
    header = _exactly(sock, HEADER.size, deadline)
    if header is None:
        return None
    (length,) = HEADER.unpack(header)
    body = _exactly(sock, length, deadline) if length <= MAX_ANSWER else None
    if body is None:
        return None
    try:
        answer = json.loads(body)
    except ValueError:
        return None
    return answer if isinstance(answer, dict) else None


def _exactly(sock: socket.socket, count: int, deadline: float) -> bytes | None:
    data = b""
    while len(data) < count:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return None
        sock.settimeout(remaining)
        try:
            chunk = sock.recv(count - len(data))
        except (TimeoutError, OSError):
            return None
        if not chunk:
            return None
        data += chunk
    return data
