"""Sandboxed workers: one per parallel slot and (plugin, environment), started once and then
running that plugin's examples one after another, each in a fresh child forked inside the sandbox.

The generator keeps the wall clock of every example. A worker that lets an example overrun its
time or its limits, speaks garbage, dies, or cannot clean up after an example is killed with its
whole sandbox (in a PID namespace the kernel ends every process in it), and the next example gets
a new one.
"""

from __future__ import annotations

import contextlib
import math
import os
import signal
import socket
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import IO

from generator.run import wire
from generator.run.runtypes import Limits
from generator.run.sandbox import (
    CLEAN_PATH,
    SANDBOX_UID_BASE,
    ChildResult,
    Isolation,
    collect,
    command,
)

# A long-lived worker accumulates CPU time against its own limit; replace it well before that.
MAX_USES = 200
EXAMPLE_FOLDER = "/tmp/run"
# an idle worker reads a task at once; one that does not within this time is broken
SEND_TIMEOUT = 30.0


@dataclass(frozen=True, slots=True)
class Access:
    """What the examples of a run may reach beyond the sandbox's defaults: the network (recording
    examples) and folders to read (the recorder's packages)."""

    network: bool = False
    visible: tuple[Path, ...] = ()


class Worker:
    """One sandboxed worker for the examples of one plugin in one environment."""

    def __init__(
        self,
        python: Path,
        plugin_root: Path,
        limits: Limits,
        isolation: Isolation,
        slot: int,
        access: Access | None = None,
    ) -> None:
        access = access or Access()
        self.python = python
        self.plugin_root = plugin_root
        self.limits = limits
        self.uses = 0
        self._closed = False
        self._scratch = tempfile.TemporaryDirectory(prefix="dify-run-")
        folder = Path(self._scratch.name)
        self._out = (folder / "stdout").open("w+b")
        self._err = (folder / "stderr").open("w+b")
        self._control, theirs = socket.socketpair()
        try:
            self._process = subprocess.Popen(
                command(python, isolation, theirs.fileno(), access.network),
                stdin=subprocess.DEVNULL,
                stdout=self._out,
                stderr=self._err,
                pass_fds=(theirs.fileno(),),
                env={"PATH": CLEAN_PATH, "LANG": "C.UTF-8", "HOME": str(folder)},
                cwd=folder,
                start_new_session=True,
            )
        finally:
            theirs.close()
        setup = wire.Setup(
            limits=wire.ResourceLimits(
                cpu_seconds=limits.cpu_seconds,
                memory_bytes=limits.memory_bytes,
                max_file_bytes=limits.max_file_bytes,
                max_processes=limits.max_processes,
            ),
            worker_cpu_seconds=limits.cpu_seconds + math.ceil(limits.timeout),
            max_messages=limits.max_messages,
            max_output_bytes=limits.max_output_bytes,
            namespaces=isolation.namespaces,
            uid=SANDBOX_UID_BASE + slot if isolation.drop_privileges else None,
            workdir=EXAMPLE_FOLDER if isolation.namespaces else str(folder / "work"),
            plugin_root=str(plugin_root),
            visible=tuple(str(folder) for folder in access.visible),
        )
        started = time.monotonic()
        sent = wire.send(self._control, setup, timeout=SEND_TIMEOUT)
        answer = self._answer(started + limits.timeout) if sent else None
        self.ready = isinstance(answer, wire.Ready)
        # what the worker printed while starting (a package's .pth, the SDK import) belongs to
        # every example, as it would if each had started its own process
        self._preamble = (_head(self._out, limits.max_captured), _head(self._err, limits.max_captured))
        self._startup = ChildResult(timed_out=answer is None and time.monotonic() - started >= limits.timeout)
        if not self.ready:
            self.close()

    def serves(self, python: Path, plugin_root: Path) -> bool:
        """True when this worker can take an example of that plugin in that environment."""
        return (
            self.ready
            and (self.python, self.plugin_root) == (python, plugin_root)
            and self.uses < MAX_USES
            and self._process.poll() is None
        )

    def _answer(self, deadline: float) -> wire.Message | None:
        """The worker's next answer; None when it hung up, sent garbage or the deadline passed."""
        received = wire.receive(self._control, wire.TO_GENERATOR, wire.MAX_ANSWER, deadline)
        return received[0] if received is not None else None

    def run(self, task: wire.Task) -> ChildResult:
        """One example, supervised to its end or its limits."""
        if not self.ready:
            return self._finish(self._startup, b"", b"", time.monotonic())
        self.uses += 1
        result = ChildResult()
        read_end, write_end = os.pipe()
        folder = Path(self._scratch.name)
        with tempfile.TemporaryFile(dir=folder) as out, tempfile.TemporaryFile(dir=folder) as err:
            started = time.monotonic()
            deadline = started + self.limits.timeout
            try:
                fds = [write_end, out.fileno(), err.fileno()]
                sent = wire.send(self._control, task, fds, timeout=SEND_TIMEOUT)
            finally:
                os.close(write_end)
            try:
                if sent:
                    collect(read_end, self.limits, deadline, result)
            finally:
                os.close(read_end)
            answer = None
            if sent and not (result.timed_out or result.over_limit or result.protocol_problem):
                answer = self._answer(deadline)
                result.timed_out = answer is None and time.monotonic() >= deadline
            ended = answer if isinstance(answer, wire.Ended) else None
            if ended is None or not ended.clean:
                self.close()
            result.returncode = ended.status if ended is not None else self._process.returncode
            limit = self.limits.max_captured
            return self._finish(result, _head(out, limit), _head(err, limit), started)

    def _finish(self, result: ChildResult, out: bytes, err: bytes, started: float) -> ChildResult:
        limit = self.limits.max_captured
        result.stdout = (self._preamble[0] + out)[:limit]
        result.stderr = (self._preamble[1] + err)[:limit]
        result.duration = time.monotonic() - started
        return result

    def close(self) -> None:
        """Kill the worker's process group (in a PID namespace that ends every process in it)."""
        self.ready = False
        if self._closed:
            return
        self._closed = True
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self._process.pid, signal.SIGKILL)
        self._process.wait()
        if self._startup.returncode is None:
            self._startup.returncode = self._process.returncode
        self._control.close()
        self._out.close()
        self._err.close()
        self._scratch.cleanup()


def _head(handle: IO[bytes], limit: int) -> bytes:
    handle.seek(0)
    return handle.read(limit)


class Workers:
    """The workers of one run, one per parallel slot; a slot keeps its worker while it runs examples
    of the same plugin and environment."""

    def __init__(self, limits: Limits, isolation: Isolation, access: Access | None = None) -> None:
        self.limits = limits
        self.isolation = isolation
        self.access = access or Access()
        self.started = 0
        self._by_slot: dict[int, Worker] = {}
        self._lock = threading.Lock()

    def run(self, slot: int, python: Path, plugin_root: Path, task: wire.Task) -> ChildResult:
        """Run one example on the slot's worker, starting a new one when needed."""
        with self._lock:
            worker = self._by_slot.get(slot)
        if worker is None or not worker.serves(python, plugin_root):
            if worker is not None:
                worker.close()
            worker = Worker(python, plugin_root, self.limits, self.isolation, slot, self.access)
            with self._lock:
                self._by_slot[slot] = worker
                self.started += 1
        return worker.run(task)

    def close(self) -> None:
        """End every worker."""
        with self._lock:
            workers, self._by_slot = list(self._by_slot.values()), {}
        for worker in workers:
            worker.close()

    def __enter__(self) -> Workers:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()
