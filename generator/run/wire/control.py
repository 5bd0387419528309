"""The control socket between the generator and its worker: length-prefixed JSON messages, with
descriptors passed alongside. The generator sends `Setup` once and a `Task` per example; the worker
answers `Ready` once and `Ended` after each example."""

import dataclasses
import json
import socket
import struct
import time
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from .records import Message, decode, table

HEADER = struct.Struct(">I")
# what one control message may be: the worker's answers are small, a task carries input files
MAX_ANSWER = 1 << 20
MAX_TASK = 512 * 1024**2
DESCRIPTORS = 3  # with each task: the example's event pipe, its stdout file, its stderr file


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
class Delivery:
    """A webhook delivery for a trigger: the request goes through the provider class (`provider`,
    its source file) and, when the dispatch names `event`, through that event's class (the task's
    `source`), as Dify's daemon hands them to the plugin."""

    provider: str
    event: str
    request: bytes  # the raw HTTP request, as Dify passes it on (`raw_http_request`)
    properties: dict[str, Any]  # the subscription's


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
    # set for a trigger event's example: `inputs` are then the event's parameters
    delivery: Delivery | None = None


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


TO_WORKER = table(Setup, Task)


TO_GENERATOR = table(Ready, Ended)


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
