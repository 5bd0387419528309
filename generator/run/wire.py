"""The runner's parent/child contract: every message between the generator and its sandboxed
worker, declared once with its encoder and decoder, and the two framings that carry them.

Standard library only, and loaded two ways: the generator imports it as `generator.run.wire`; the
sandboxed worker, which has no project on its path, loads it by path with the rest of its side
(`child/__main__.py`).

- The control socket (generator and worker): length-prefixed JSON, descriptors passed alongside.
  The generator sends `Setup` once and a `Task` per example; the worker answers `Ready` once and
  `Ended` after each example.
- An example's event pipe (child to generator): frames of a 1-byte kind (`J` an event as JSON, `B`
  the bytes of the event before it), a 4-byte big-endian length and the body.

A message is a frozen dataclass; its fields are its JSON fields, checked against their declared
types when decoded. What comes from the child is untrusted (the tool runs in that process and can
write to its descriptors): a decoder refuses any frame, kind or field that is not as declared and
says why, without raising into the generator.
"""

import base64
import dataclasses
import json
import os
import socket
import struct
import threading
import time
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar, Self, TypeVar

KIND = "event"  # the JSON field naming a message's kind
FRAME = struct.Struct(">cI")
HEADER = struct.Struct(">I")
EVENT, BLOB = b"J", b"B"
# what one control message may be: the worker's answers are small, a task carries input files
MAX_ANSWER = 1 << 20
MAX_TASK = 512 * 1024**2
T = TypeVar("T")
DESCRIPTORS = 3  # with each task: the example's event pipe, its stdout file, its stderr file


class Malformed(ValueError):
    """A message that is not as its declaration says."""


class Message:
    """A declared message: `KIND` names it on the wire, the dataclass fields are its fields."""

    __slots__ = ()
    KIND: ClassVar[str]

    def encode(self) -> dict[str, Any]:
        """The JSON object of the message (bytes fields as base64; an event's blob travels apart)."""
        return {KIND: self.KIND, **_plain_fields(self)}

    @classmethod
    def decode(cls, data: Mapping[str, Any]) -> Self:
        """The message from its JSON object; Malformed when a field is missing, unknown or mistyped."""
        if data.get(KIND) != cls.KIND:
            raise Malformed(f"not a {cls.KIND} message")
        return _build(cls, {k: v for k, v in data.items() if k != KIND})


def _declared(cls: type) -> tuple[tuple[str, Callable[[Any], Any], bool], ...]:
    """(JSON field, checker, required) per field; an event's `blob` is not a JSON field."""
    found = _SCHEMAS.get(cls)
    if found is None:
        found = tuple(
            (f.name, _checker(f.type), f.default is dataclasses.MISSING)
            for f in dataclasses.fields(cls)
            if f.name != "blob"
        )
        _SCHEMAS[cls] = found
    return found


_SCHEMAS: dict[type, tuple[tuple[str, Callable[[Any], Any], bool], ...]] = {}


def _build(cls: type[T], data: Mapping[str, Any]) -> T:
    declared = _declared(cls)
    unknown = set(data) - {name for name, _check, _required in declared}
    if unknown:
        raise Malformed(f"unexpected field {sorted(unknown)[0]!r}"[:200])
    values = {}
    for name, check, required in declared:
        if name in data:
            try:
                values[name] = check(data[name])
            except Malformed as problem:
                raise Malformed(f"field {name!r}: {problem}") from None
        elif required:
            raise Malformed(f"missing field {name!r}")
    return cls(**values)


def _checker(annotation: Any) -> Callable[[Any], Any]:
    """A function that returns a JSON value as the declared type, or raises Malformed."""
    if annotation is Any:
        return lambda value: value
    if annotation in (str, int, bool, type(None)):
        return lambda value: _exactly(annotation, value)
    if annotation is bytes:
        return _from_base64
    if dataclasses.is_dataclass(annotation) and isinstance(annotation, type):
        record = annotation
        return lambda value: _build(record, _exactly(dict, value))
    origin, arguments = typing.get_origin(annotation), typing.get_args(annotation)
    if origin in (types.UnionType, typing.Union):
        return _union([_checker(argument) for argument in arguments])
    if origin is list:
        item = _checker(arguments[0])
        return lambda value: [item(entry) for entry in _exactly(list, value)]
    if origin is tuple:
        return _tuple(arguments)
    if origin is dict and arguments[0] is str:
        entry = _checker(arguments[1])
        return lambda value: {_exactly(str, k): entry(v) for k, v in _exactly(dict, value).items()}
    raise TypeError(f"a message field cannot be declared as {annotation!r}")


def _exactly(kind: type[T], value: Any) -> T:
    # type(), not isinstance: JSON true is not an int here
    if type(value) is not kind:
        raise Malformed(f"expected {kind.__name__}, got {type(value).__name__}")
    return value


def _from_base64(value: Any) -> bytes:
    try:
        return base64.b64decode(_exactly(str, value), validate=True)
    except ValueError:
        raise Malformed("expected base64") from None


def _union(arms: list[Callable[[Any], Any]]) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        problems = []
        for arm in arms:
            try:
                return arm(value)
            except Malformed as problem:
                problems.append(str(problem))
        raise Malformed(" or ".join(problems)[:300])

    return check


def _tuple(arguments: tuple[Any, ...]) -> Callable[[Any], Any]:
    if len(arguments) == 2 and arguments[1] is Ellipsis:
        item = _checker(arguments[0])
        return lambda value: tuple(item(entry) for entry in _exactly(list, value))
    items = [_checker(argument) for argument in arguments]

    def check(value: Any) -> tuple[Any, ...]:
        entries = _exactly(list, value)
        if len(entries) != len(items):
            raise Malformed(f"expected {len(items)} items, got {len(entries)}")
        return tuple(item(entry) for item, entry in zip(items, entries, strict=True))

    return check


def _plain_fields(record: Any) -> dict[str, Any]:
    return {name: _plain(getattr(record, name)) for name in _names(type(record))}


def _names(cls: type) -> tuple[str, ...]:
    """The JSON fields of a record class, from its declaration found once (`_declared`): each
    example's child encodes several events, and it starts cold (forked), so every lookup it
    repeats shows in the time of a run."""
    return tuple(name for name, _check, _required in _declared(cls))


_SCALARS = (str, int, float, bool, type(None))


def _plain(value: Any) -> Any:
    if type(value) in _SCALARS:
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _plain_fields(value)
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii")
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    return value


def _table(*classes: type[Message]) -> dict[str, type[Message]]:
    return {cls.KIND: cls for cls in classes}


def decode(data: Any, kinds: Mapping[str, type[Message]]) -> Message:
    """One of `kinds` from a decoded JSON value; Malformed for anything else."""
    if not isinstance(data, dict) or not isinstance(data.get(KIND), str):
        raise Malformed("not a JSON object with a kind")
    cls = kinds.get(data[KIND])
    if cls is None:
        raise Malformed(f"unknown kind {data[KIND][:50]!r}")
    return cls.decode(data)


# ---------------------------------------------------------------- the control socket: generator to worker


@dataclasses.dataclass(frozen=True, slots=True)
class ResourceLimits:
    """What the kernel enforces on a process (its rlimits); the generator adds a wall clock."""

    cpu_seconds: int
    memory_bytes: int
    max_file_bytes: int
    max_processes: int


@dataclasses.dataclass(frozen=True, slots=True)
class Setup(Message):
    """The worker's sandbox, sent once before any task."""

    KIND: ClassVar[str] = "setup"
    limits: ResourceLimits  # of each example
    # the worker's own start-up (site-packages, the SDK import) is bounded by the wall clock; the
    # CPU clock of each example starts at zero in its child
    worker_cpu_seconds: int
    max_messages: int
    max_output_bytes: int
    namespaces: bool
    uid: int | None
    workdir: str
    plugin_root: str
    # folders the examples read besides the environment (the recorder's packages)
    visible: tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True, slots=True)
class File:
    """An input file of the example."""

    filename: str
    mime_type: str
    data: bytes


@dataclasses.dataclass(frozen=True, slots=True)
class Http:
    """How the recorder treats the example's HTTP exchanges: `mode` record or replay; `secrets` are
    (value, marker) pairs replaced in every request and response; `interactions` answer a replay."""

    mode: str
    overlay: str  # the folder of the recorder's own packages
    secrets: tuple[tuple[str, str], ...] = ()
    interactions: list[dict[str, Any]] = dataclasses.field(default_factory=list)


@dataclasses.dataclass(frozen=True, slots=True)
class Task(Message):
    """One example for the worker to run in a fresh child (its descriptors are passed with it)."""

    KIND: ClassVar[str] = "task"
    source: str
    inputs: dict[str, Any]
    credentials: dict[str, Any]
    files: dict[str, list[File] | File]
    upload_base: str
    http: Http | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class Ready(Message):
    """The worker is set up (whether it could import the SDK shows in its first example)."""

    KIND: ClassVar[str] = "ready"
    python: str
    sdk: str | None


@dataclasses.dataclass(frozen=True, slots=True)
class Ended(Message):
    """An example's child ended with `status`; `clean`: the worker cleaned up after it."""

    KIND: ClassVar[str] = "ended"
    status: int
    clean: bool


TO_WORKER = _table(Setup, Task)
TO_GENERATOR = _table(Ready, Ended)


def send(
    sock: socket.socket, message: Message, fds: Iterable[int] = (), timeout: float | None = None
) -> bool:
    """One length-prefixed message with `fds` attached; False when the other end is gone."""
    body = json.dumps(message.encode()).encode()
    sock.settimeout(timeout)
    try:
        socket.send_fds(sock, [HEADER.pack(len(body))], list(fds))
        sock.sendall(body)
    except OSError:
        return False
    return True


def receive(
    sock: socket.socket,
    kinds: Mapping[str, type[Message]],
    limit: int,
    deadline: float | None = None,
    descriptors: int = 0,
) -> tuple[Message, list[int]] | None:
    """The next message and up to `descriptors` descriptors sent with it; None when the other end
    hung up, sent something not as declared or over `limit`, or the deadline passed."""
    try:
        _wait(sock, deadline)
        space = socket.CMSG_SPACE(descriptors * 4) if descriptors else 0
        header, ancillary, _flags, _address = sock.recvmsg(HEADER.size, space)
    except OSError:
        return None
    fds = _descriptors(ancillary)
    rest = _read(sock, HEADER.size - len(header), deadline) if header else None
    if rest is None:
        return None
    (length,) = HEADER.unpack(header + rest)
    body = _read(sock, length, deadline) if length <= limit else None
    if body is None:
        return None
    try:
        return decode(json.loads(body), kinds), fds
    except (ValueError, RecursionError):
        return None


def _descriptors(ancillary: list[tuple[int, int, bytes]]) -> list[int]:
    fds: list[int] = []
    for level, kind, data in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            usable = len(data) - len(data) % 4
            fds.extend(struct.unpack(f"{usable // 4}i", data[:usable]))
    return fds


def _wait(sock: socket.socket, deadline: float | None) -> None:
    """Bound the next read by the deadline (None: block); TimeoutError when it has passed."""
    if deadline is None:
        sock.settimeout(None)
        return
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise TimeoutError
    sock.settimeout(remaining)


def _read(sock: socket.socket, count: int, deadline: float | None) -> bytes | None:
    data = b""
    while len(data) < count:
        try:
            _wait(sock, deadline)
            chunk = sock.recv(count - len(data))
        except OSError:
            return None
        if not chunk:
            return None
        data += chunk
    return data


# ---------------------------------------------------------------- the event pipe: child to generator


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


EVENTS = _table(
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
)


def prepare_events() -> None:
    """Find every event's fields in the worker, before it forks: each example's child then starts
    with them found instead of finding them again."""
    for cls in EVENTS.values():
        _declared(cls)


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
