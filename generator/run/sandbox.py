"""How examples are isolated on this machine, the worker's command line, and reading one
example's events from its pipe within the limits.

On Linux as root with util-linux `unshare`: new network, PID, mount and IPC namespaces (no network
but loopback, private /tmp, /proc of its own, every process killed when the worker ends), resource
limits and an unprivileged uid set before any plugin code runs. Elsewhere: its own process group,
resource limits, and a socket guard inside the child.
"""

from __future__ import annotations

import os
import selectors
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

from generator.run.runtypes import Limits
from generator.run.wire import Decoder, Event

# the worker's start: it loads the child side by path (see child/__init__.py)
WORKER = Path(__file__).with_name("child") / "__main__.py"
# Uids without an account: one per parallel slot, so RLIMIT_NPROC bounds each run on its own.
SANDBOX_UID_BASE = 3_000_000_000
CHUNK = 1 << 16
CLEAN_PATH = "/usr/local/bin:/usr/bin:/bin"


@dataclass(frozen=True, slots=True)
class Isolation:
    """How children are isolated on this machine."""

    namespaces: bool
    drop_privileges: bool

    @property
    def description(self) -> str:
        """One line for reports and the documentation."""
        if self.namespaces:
            return "network, PID, mount and IPC namespaces; unprivileged uid; resource limits"
        return "process group and resource limits; sockets refused inside the child"


@dataclass
class ChildResult:
    """What came back from one child: events (blob bytes attached), exit status and captured output."""

    events: list[Event] = field(default_factory=list)
    returncode: int | None = None
    timed_out: bool = False
    over_limit: str = ""
    protocol_problem: str = ""
    duration: float = 0.0
    stdout: bytes = b""
    stderr: bytes = b""


def detect_isolation(wanted: bool | None) -> Isolation:
    """Namespaces and a uid switch need root and util-linux `unshare` (Linux only)."""
    possible = (
        wanted is not False and os.name == "posix" and os.geteuid() == 0 and bool(shutil.which("unshare"))
    )
    return Isolation(namespaces=possible, drop_privileges=possible)


def command(python: Path, isolation: Isolation, fd: int, network: bool = False) -> list[str]:
    """The worker's command line: the environment's interpreter, isolated (-I), site added later (-S);
    with `network` (recording examples) it keeps the machine's network."""
    base = [str(python), "-I", "-S", "-B", str(WORKER), str(fd)]
    if not isolation.namespaces:
        return base
    return [*unshare(network=network), *base]


def unshare(network: bool) -> list[str]:
    """`unshare` with new PID, IPC and mount namespaces (and a network namespace unless `network`):
    its own /proc, and every process in it killed when the command ends or is killed."""
    return [
        shutil.which("unshare") or "unshare",
        *([] if network else ["--net"]),
        "--pid",
        "--ipc",
        "--fork",
        "--kill-child",
        "--mount-proc",
        "--propagation",
        "private",
        "--",
    ]


def collect(read_end: int, limits: Limits, deadline: float, result: ChildResult) -> None:
    """Read one example's events until its pipe closes (the child and all it started are gone), the
    deadline passes, or it goes over its limits."""
    decoder = Decoder(max_frame=limits.max_output_bytes + (1 << 20))
    received = 0
    with selectors.DefaultSelector() as selector:
        selector.register(read_end, selectors.EVENT_READ)
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                result.timed_out = True
                break
            if not selector.select(timeout=min(remaining, 1.0)):
                continue
            data = os.read(read_end, CHUNK)
            if not data:
                decoder.finish()
                break
            received += len(data)
            decoder.feed(data)
            if received > limits.max_output_bytes + (1 << 20):
                result.over_limit = f"more than {limits.max_output_bytes} bytes of output"
                break
            if decoder.problem or _message_count(decoder) > limits.max_messages + 1:
                break
    if _message_count(decoder) > limits.max_messages + 1 and not result.over_limit:
        result.over_limit = f"more than {limits.max_messages} messages"
    result.events = decoder.events
    result.protocol_problem = decoder.problem


def _message_count(decoder: Decoder) -> int:
    return len(decoder.events)
