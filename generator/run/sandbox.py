"""Start the harness in a sandboxed child process, feed it a job, collect its events, and make
sure nothing it started outlives the run.

On Linux as root with util-linux `unshare`: new network, PID and mount namespaces (no network but
loopback, private /tmp, /proc of its own, every process killed when the harness ends), resource
limits and an unprivileged uid set by the harness before any plugin code runs. Elsewhere: its own
process group, resource limits, and a socket guard inside the child.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from generator.run.model import Limits
from generator.run.protocol import Decoder

HARNESS = Path(__file__).with_name("harness.py")
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
            return "network, PID and mount namespaces; unprivileged uid; resource limits"
        return "process group and resource limits; sockets refused inside the child"


@dataclass
class ChildResult:
    """What came back from one child: events (blob bytes attached), exit status and captured output."""

    events: list[dict[str, Any]] = field(default_factory=list)
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


def command(python: Path, isolation: Isolation, fd: int) -> list[str]:
    """The child's command line: the environment's interpreter, isolated (-I), site added later (-S)."""
    base = [str(python), "-I", "-S", "-B", str(HARNESS), str(fd)]
    if not isolation.namespaces:
        return base
    unshare = shutil.which("unshare") or "unshare"
    return [
        unshare,
        "--net",
        "--pid",
        "--fork",
        "--kill-child",
        "--mount-proc",
        "--propagation",
        "private",
        "--",
        *base,
    ]


def run_child(
    python: Path, job: dict[str, Any], limits: Limits, isolation: Isolation, slot: int
) -> ChildResult:
    """Run one job to its end (or its limits); the child's whole process tree is gone on return."""
    with tempfile.TemporaryDirectory(prefix="dify-run-") as scratch:
        folder = Path(scratch)
        job = {
            **job,
            "limits": asdict(limits),
            "sandbox": {
                "namespaces": isolation.namespaces,
                "uid": SANDBOX_UID_BASE + slot if isolation.drop_privileges else None,
                "workdir": None if isolation.namespaces else str(folder / "work"),
            },
        }
        with (folder / "stdout").open("w+b") as out, (folder / "stderr").open("w+b") as err:
            result = _supervise(python, isolation, job, limits, out, err, folder)
            result.stdout = _head(out, limits.max_captured)
            result.stderr = _head(err, limits.max_captured)
        return result


def _head(handle: Any, limit: int) -> bytes:
    handle.seek(0)
    data: bytes = handle.read(limit)
    return data


def _supervise(
    python: Path, isolation: Isolation, job: dict[str, Any], limits: Limits, out: Any, err: Any, folder: Path
) -> ChildResult:
    read_end, write_end = os.pipe()
    started = time.monotonic()
    result = ChildResult()
    env = {"PATH": CLEAN_PATH, "LANG": "C.UTF-8", "HOME": str(folder)}
    try:
        process = subprocess.Popen(
            command(python, isolation, write_end),
            stdin=subprocess.PIPE,
            stdout=out,
            stderr=err,
            pass_fds=(write_end,),
            env=env,
            cwd=folder,
            start_new_session=True,
        )
    finally:
        os.close(write_end)
    try:
        _send_job(process, job)
        _collect(process, read_end, limits, started, result)
    finally:
        os.close(read_end)
        _kill_group(process)
        result.returncode = process.wait()
        result.duration = time.monotonic() - started
    return result


def _send_job(process: subprocess.Popen[bytes], job: dict[str, Any]) -> None:
    assert process.stdin is not None
    try:
        process.stdin.write(json.dumps(job).encode())
        process.stdin.close()
    except BrokenPipeError:
        pass  # the child died before reading; its exit status tells why


def _collect(
    process: subprocess.Popen[bytes], read_end: int, limits: Limits, started: float, result: ChildResult
) -> None:
    decoder = Decoder(max_frame=limits.max_output_bytes + (1 << 20))
    received = 0
    with selectors.DefaultSelector() as selector:
        selector.register(read_end, selectors.EVENT_READ)
        while True:
            remaining = started + limits.timeout - time.monotonic()
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
    if not result.timed_out:
        _wait(process, started + limits.timeout, result)


def _message_count(decoder: Decoder) -> int:
    return len(decoder.events)


def _wait(process: subprocess.Popen[bytes], deadline: float, result: ChildResult) -> None:
    try:
        process.wait(timeout=max(deadline - time.monotonic(), 0.1))
    except subprocess.TimeoutExpired:
        result.timed_out = True


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL the child's process group; in a PID namespace that also ends every descendant."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
