"""An example's event pipe, from the child to the generator: the events the child reports, in frames
of a 1-byte kind (`J` an event as JSON, `B` the bytes of the event before it), a 4-byte big-endian
length and the body; the child's writer and the generator's decoder, which trusts nothing."""

import dataclasses
import json
import os
import re
import struct
import threading
import typing
from typing import Any, ClassVar

from .records import KIND, Malformed, Message, decode, fields_of, table

FRAME = struct.Struct(">cI")
EVENT, BLOB = b"J", b"B"


class Event(Message):
    """What the child reports about its example; an event with a `blob` field carries bytes."""

    __slots__ = ()


@dataclasses.dataclass(frozen=True, slots=True)
class Started(Event):
    """The child is running the example, with this Python and SDK version."""

    KIND: ClassVar[str] = "started"
    python: str
    sdk: str


@dataclasses.dataclass(frozen=True, slots=True)
class Yielded(Event):
    """A message the tool yielded, as the SDK's writer frames it for Dify (`frame`); a blob message's
    bytes travel apart, as the SDK sends them in chunks apart from the message."""

    KIND: ClassVar[str] = "message"
    kind: str  # the payload's class name
    frame: str
    blob: bytes | None = None
    filename: str = ""
    mime_type: str = ""
    stored: str = ""  # the name the child proposes for the stored blob


@dataclasses.dataclass(frozen=True, slots=True)
class Uploaded(Event):
    """A file the tool uploaded through the session."""

    KIND: ClassVar[str] = "upload"
    filename: str
    mime_type: str
    stored: str
    blob: bytes | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class Unsendable(Event):
    """Message number `index` could not be serialised by the SDK: the invocation ends there."""

    KIND: ClassVar[str] = "unsendable"
    index: int
    kind: str
    variable: str | None
    problem: str
    # the plugin's line the message came from (its `yield`, or the `return` of a plain `_invoke`)
    file: str | None = None
    line: int | None = None
    code: str | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class Frame:
    """One frame of a traceback in the plugin's own files."""

    file: str
    line: int
    code: str


@dataclasses.dataclass(frozen=True, slots=True)
class Raised(Event):
    """An exception at `stage`, with the innermost frame in the plugin's files when there is one."""

    KIND: ClassVar[str] = "error"
    stage: str
    type: str
    message: str
    traceback: str
    key: str | None = None  # of a KeyError
    sdk_api: str | None = None  # `Class.name` of an SDK API that does not exist
    file: str | None = None
    line: int | None = None
    code: str | None = None
    # the last frames in the plugin's own files, innermost last
    frames: list[Frame] = dataclasses.field(default_factory=list)
    # what the plugin's code did wrong with an object of the SDK or of an installed library, used the
    # same way whatever the input (`File.blob`, a property holding bytes, called as a method)
    misuse: str | None = None
    # an exception raised earlier in the same process (`Type: message`) whose words say the
    # address-space limit refused a mapping (`MAPPING_REFUSED`), which a library caught: this one
    # may only follow from it (torch, imported again after such a failure, refuses to initialise)
    refused: str | None = None


# What the dynamic loader (or `mmap`) says when a mapping fails under an address-space limit
# (`RLIMIT_AS`): torch's CUDA libraries alone reserve more than the runner's default 2 GiB.
# A mount that forbids executing says "Operation not permitted" after the same words: not a limit.
MAPPING_REFUSED = re.compile(
    r"failed to map segment from shared object(?!: Operation not permitted)|cannot allocate memory",
    re.IGNORECASE,
)


@dataclasses.dataclass(frozen=True, slots=True)
class Exited(Event):
    """The tool called sys.exit."""

    KIND: ClassVar[str] = "exit"
    code: str


@dataclasses.dataclass(frozen=True, slots=True)
class OverLimit(Event):
    """The tool sent more than its limits allow; the run was stopped."""

    KIND: ClassVar[str] = "limit"
    what: str


@dataclasses.dataclass(frozen=True, slots=True)
class Done(Event):
    """`_invoke` returned: the run finished."""

    KIND: ClassVar[str] = "done"


@dataclasses.dataclass(frozen=True, slots=True)
class NetworkAttempt(Event):
    """The tool looked up or connected to `address` (`repr((host, port))`) other than loopback."""

    KIND: ClassVar[str] = "network"
    address: str


@dataclasses.dataclass(frozen=True, slots=True)
class CredentialUnset(Event):
    """The tool read the provider credential `name`, which the run gave no value."""

    KIND: ClassVar[str] = "credential"
    name: str


@dataclasses.dataclass(frozen=True, slots=True)
class StorageUnset(Event):
    """The tool read the plugin storage key `key`, which no one had set in this run."""

    KIND: ClassVar[str] = "storage"
    key: str


@dataclasses.dataclass(frozen=True, slots=True)
class Unserved(Event):
    """The tool called back into Dify for something the local stand-in does not serve."""

    KIND: ClassVar[str] = "unserved"
    call: str


@dataclasses.dataclass(frozen=True, slots=True)
class Exchange(Event):
    """An HTTP request the recorder answered or recorded (credentials replaced by markers)."""

    KIND: ClassVar[str] = "exchange"
    method: str
    url: str


@dataclasses.dataclass(frozen=True, slots=True)
class Unmatched(Event):
    """A replayed request without a recorded answer."""

    KIND: ClassVar[str] = "unmatched"
    method: str
    url: str
    body: str


@dataclasses.dataclass(frozen=True, slots=True)
class Recorded(Event):
    """Every interaction of a recording run, sent at its end."""

    KIND: ClassVar[str] = "recording"
    interactions: list[dict[str, Any]]


@dataclasses.dataclass(frozen=True, slots=True)
class Dispatched(Event):
    """What a trigger's `_dispatch_event` returned, as the SDK sends it to Dify: the event names, and
    the payload handed on to `_on_event` (JSON)."""

    KIND: ClassVar[str] = "dispatched"
    events: list[str]
    payload: str


@dataclasses.dataclass(frozen=True, slots=True)
class Variables(Event):
    """What an event's `_on_event` returned, in the SDK's frame to Dify; `ignored` when it raised
    `EventIgnoreError` (Dify cancels the workflow run), with the error's text in `frame`."""

    KIND: ClassVar[str] = "variables"
    frame: str
    ignored: bool = False


EVENTS = table(
    Started,
    Yielded,
    Uploaded,
    Unsendable,
    Raised,
    Exited,
    OverLimit,
    Done,
    NetworkAttempt,
    CredentialUnset,
    StorageUnset,
    Unserved,
    Exchange,
    Unmatched,
    Recorded,
    Dispatched,
    Variables,
)


def prepare_events() -> None:
    """Find every event's fields in the worker, before it forks: each example's child then starts
    with them found instead of finding them again."""
    for cls in EVENTS.values():
        fields_of(cls)


def takes_blob(event: Event) -> bool:
    """True when the event carries bytes and has none yet."""
    return getattr(event, "blob", b"") is None


def frame(kind: bytes, body: bytes) -> bytes:
    """One frame of the event pipe."""
    return FRAME.pack(kind, len(body)) + body


class EventWriter:
    """The child's end of the event pipe; counts messages and bytes against the run's limits."""

    def __init__(self, fd: int, max_messages: int, max_bytes: int) -> None:
        self.fd = fd
        self.lock = threading.Lock()
        self.messages = 0
        self.bytes = 0
        self.max_messages = max_messages
        self.max_bytes = max_bytes

    def send(self, event: Event) -> None:
        """Frame the event (and its blob) onto the pipe."""
        body = json.dumps(event.encode(), ensure_ascii=False, allow_nan=False).encode()
        blob = getattr(event, "blob", None)
        with self.lock:
            self.bytes += len(body) + (len(blob) if blob is not None else 0)
            self._write(frame(EVENT, body))
            if blob is not None:
                self._write(frame(BLOB, blob))

    def _write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(self.fd, view) :]

    def over_limit(self) -> str:
        """What the tool sent beyond its limits, in words; "" within them."""
        if self.messages > self.max_messages:
            return f"more than {self.max_messages} messages"
        if self.bytes > self.max_bytes:
            return f"more than {self.max_bytes} bytes of output"
        return ""


@dataclasses.dataclass
class Decoder:
    """The generator's end of the event pipe, fed as bytes arrive: `events` are the decoded events
    (blobs attached), `problem` says why decoding stopped."""

    max_frame: int
    events: list[Event] = dataclasses.field(default_factory=list)
    problem: str = ""
    _buffer: bytearray = dataclasses.field(default_factory=bytearray)

    def feed(self, data: bytes) -> None:
        """Add bytes read from the pipe and decode every complete frame."""
        if self.problem:
            return
        self._buffer += data
        while len(self._buffer) >= FRAME.size:
            kind, length = FRAME.unpack_from(self._buffer)
            if length > self.max_frame:
                self.problem = f"a frame of {length} bytes is over the limit of {self.max_frame}"
                return
            if len(self._buffer) < FRAME.size + length:
                return
            body = bytes(self._buffer[FRAME.size : FRAME.size + length])
            del self._buffer[: FRAME.size + length]
            self.problem = self._take(kind, body)
            if self.problem:
                return

    def _take(self, kind: bytes, body: bytes) -> str:
        """Decode one frame; what is wrong with it, or ""."""
        if kind == BLOB and self.events and takes_blob(self.events[-1]):
            self.events[-1] = dataclasses.replace(typing.cast(Any, self.events[-1]), blob=body)
            return ""
        if kind != EVENT:
            return f"the child sent an unexpected frame kind {kind!r}"
        try:
            data = json.loads(body)
        except (ValueError, RecursionError):
            data = None
        if not isinstance(data, dict) or not isinstance(data.get(KIND), str):
            return "the child sent an event that is not a JSON object"
        try:
            self.events.append(typing.cast(Event, decode(data, EVENTS)))
        except (Malformed, RecursionError) as problem:
            return f"the child sent a malformed event: {problem}"[:500]
        return ""

    def finish(self) -> None:
        """The stream ended: a partial frame means the child died while writing."""
        if self._buffer and not self.problem:
            self.problem = "the stream ended inside a frame"
