"""The sandboxed worker: sets the sandbox up once, imports the SDK once, then forks a fresh child
for every example of one plugin.

Started by `__main__.py` with the plugin environment's interpreter, never imported by the
generator for a run. Its argument is a Unix socket to the generator carrying the control messages
of `wire/control.py`: a `Setup`, then a `Task` per example with three descriptors attached (the example's
event pipe, its stdout file, its stderr file). The worker answers `Ready` once, then `Ended` with
each example's exit status.

The sandbox (`isolation.py`) is set up as root, and the environment's site-packages (whose `.pth`
files may run code) enabled and the SDK imported only after the drop to the sandbox uid. Each
example runs in a forked child that starts from the freshly imported state with its own limits and
CPU clock; the sandbox is cleaned after it before the next example is accepted.
"""

from __future__ import annotations

import contextlib
import os
import socket
import sys
from pathlib import Path
from typing import NoReturn

from ..wire import (
    DESCRIPTORS,
    MAX_TASK,
    TO_WORKER,
    Ended,
    EventWriter,
    Ready,
    Setup,
    Task,
    prepare_events,
    receive,
    send,
)
from .harness import report_error, run_example
from .isolation import CLOSE, FORK, WAITPID, Sandbox
from .session import Sdk, import_sdk


class Zygote:
    """The state every example starts from."""

    def __init__(self, setup: Setup, control: socket.socket) -> None:
        self.setup = setup
        self.control = control
        self.sandbox = Sandbox(setup)
        self.sdk: Sdk | None = None
        self.problem: tuple[str, BaseException] | None = None

    def prepare(self) -> None:
        """The sandbox as root, then site-packages and the SDK as the sandbox uid."""
        try:
            self.sandbox.enter()
            import site

            site.main()
        except BaseException as problem:
            self.problem = ("setup", problem)
            return
        try:
            self.sdk = import_sdk()
        except BaseException as problem:
            self.problem = ("sdk", problem)
        prepare_events()
        self.sandbox.remember()

    def run(self, task: Task, fds: list[int]) -> tuple[int, bool]:
        """One example in a forked child; its exit status, and whether the clean-up succeeded."""
        if self.problem is not None and self.problem[0] == "setup":
            # nothing may run as root: the example gets the set-up failure without a child
            report_error(EventWriter(fds[0], 1, 1), "setup", self.problem[1], "")
            _close(fds)
            return 70, True
        pid = FORK()
        if pid == 0:
            self._child(task, fds)
        _close(fds)
        _pid, status = WAITPID(pid, 0)
        return os.waitstatus_to_exitcode(status), self.sandbox.sweep()

    def _child(self, task: Task, fds: list[int]) -> NoReturn:
        code = 70
        try:
            pipe, out, err = fds
            self.control.close()
            os.dup2(out, 1)
            os.dup2(err, 2)
            CLOSE(out)
            CLOSE(err)
            if self.sdk is not None and self.sdk.gevent is not None:
                self.sdk.gevent.reinit()
            self.sandbox.enter_example()
            events = EventWriter(pipe, self.setup.max_messages, self.setup.max_output_bytes)
            if self.sdk is None:
                problem = self.problem or ("sdk", RuntimeError("the SDK was not imported"))
                report_error(events, problem[0], problem[1], "")
                code = 0
            else:
                workdir = Path(self.setup.workdir)
                source = self.sandbox.source
                code = run_example(events, task, workdir, source, self.setup.namespaces, self.sdk)
            with contextlib.suppress(Exception):
                sys.stdout.flush()
                sys.stderr.flush()
        finally:
            os._exit(code)


def _close(fds: list[int]) -> None:
    for fd in fds:
        with contextlib.suppress(OSError):
            CLOSE(fd)


def main() -> None:
    """Set up, report ready, then run examples until the generator hangs up; always os._exit."""
    # made before the SDK patches `socket`, so its calls block plainly
    control = socket.socket(fileno=int(sys.argv[1]))
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    received = receive(control, TO_WORKER, MAX_TASK, descriptors=DESCRIPTORS)
    if received is None or not isinstance(received[0], Setup):
        os._exit(0)
    zygote = Zygote(received[0], control)
    zygote.prepare()
    ready = Ready(python=sys.version.split()[0], sdk=zygote.sdk.version if zygote.sdk else None)
    if not send(control, ready):
        os._exit(0)
    while (received := receive(control, TO_WORKER, MAX_TASK, descriptors=DESCRIPTORS)) is not None:
        task, fds = received
        if not isinstance(task, Task) or len(fds) != DESCRIPTORS:
            _close(fds)
            break
        status, clean = zygote.run(task, fds)
        if not send(control, Ended(status=status, clean=clean)) or not clean:
            break
    os._exit(0)
