"""Reading the child's framed events: 1-byte kind (`J` JSON event, `B` bytes of the event before),
4-byte big-endian length, body. The child is untrusted: anything else ends the stream."""

from __future__ import annotations

import json
import struct
from dataclasses import dataclass, field
from typing import Any

HEADER = struct.Struct(">cI")


@dataclass
class Decoder:
    """Incremental decoder; `events` collects decoded events, `problem` says why decoding stopped."""

    max_frame: int
    events: list[dict[str, Any]] = field(default_factory=list)
    problem: str = ""
    _buffer: bytearray = field(default_factory=bytearray)

    def feed(self, data: bytes) -> None:
        """Add bytes read from the pipe and decode every complete frame."""
        if self.problem:
            return
        self._buffer += data
        while len(self._buffer) >= HEADER.size:
            kind, length = HEADER.unpack_from(self._buffer)
            if length > self.max_frame:
                self.problem = f"a frame of {length} bytes is over the limit of {self.max_frame}"
                return
            if len(self._buffer) < HEADER.size + length:
                return
            body = bytes(self._buffer[HEADER.size : HEADER.size + length])
            del self._buffer[: HEADER.size + length]
            if not self._take(kind, body):
                return

    def _take(self, kind: bytes, body: bytes) -> bool:
        if kind == b"J":
            try:
                event = json.loads(body)
            except ValueError:
                event = None
            if not isinstance(event, dict) or not isinstance(event.get("event"), str):
                self.problem = "the child sent an event that is not a JSON object"
                return False
            self.events.append(event)
        elif kind == b"B" and self.events and "blob" not in self.events[-1]:
            self.events[-1]["blob"] = body
        else:
            self.problem = f"the child sent an unexpected frame kind {kind!r}"
            return False
        return True

    def finish(self) -> None:
        """The stream ended: a partial frame means the child died while writing."""
        if self._buffer and not self.problem:
            self.problem = "the stream ended inside a frame"
