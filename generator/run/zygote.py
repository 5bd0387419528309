"""The sandboxed worker: sets the sandbox up once, imports the SDK once, then forks a fresh child
for every example of one plugin.

Executed by path (`python -I -S zygote.py FD`) with the plugin environment's interpreter, never
imported by the generator. FD is a Unix socket to the generator carrying length-prefixed JSON: a
set-up message, then one message per example with three descriptors attached (the example's event
pipe, its stdout file, its stderr file). The worker answers `ready` once, then `ended` with each
example's exit status.

As root inside fresh namespaces it hides private folders, brings up loopback, copies the plugin,
sets the resource limits and drops to an unprivileged uid before the environment's site-packages
(whose `.pth` files may run code) is enabled and the SDK imported. It then makes itself
non-dumpable, so the examples (same uid) can neither trace it nor read its memory. Each example
runs in a forked child that starts from the freshly imported state with its own limits and CPU
clock; when the child ends, every process of the uid in the namespace is killed, the folders anyone
may write are emptied, and System V IPC objects and POSIX message queues removed before the next
example is accepted.
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib.util
import json
import os
import signal
import socket
import struct
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, NoReturn

# The originals: once the SDK has patched the process with gevent, these would cooperate with a
# hub this process never runs (a patched os.close only schedules the close on that hub).
_FORK = os.fork
_WAITPID = os.waitpid
_CLOSE = os.close
HEADER = struct.Struct(">I")
MAX_MESSAGE = 512 * 1024**2
DESCRIPTORS = 3
PR_SET_DUMPABLE, PR_SET_CHILD_SUBREAPER = 4, 36
IPC_RMID = 0
PLUGIN_COPY = "/tmp/.plugin"  # root-owned: examples copy from it and cannot change it
SWEEP_ROUNDS = 1000


def load_harness() -> ModuleType:
    """`harness.py` beside this file, loaded by path (the script's folder is not on sys.path)."""
    spec = importlib.util.spec_from_file_location(
        "dify_registry_harness", Path(__file__).with_name("harness.py")
    )
    if spec is None or spec.loader is None:
        raise ImportError("harness.py is missing")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


class Control:
    """The socket to the generator (made before the SDK patches `socket`, so calls block plainly)."""

    def __init__(self, fd: int) -> None:
        self.sock = socket.socket(fileno=fd)

    def receive(self) -> tuple[dict[str, Any], list[int]] | None:
        """The next message and the descriptors sent with it; None when the generator hung up."""
        space = socket.CMSG_SPACE(DESCRIPTORS * 4)
        header, ancillary, _flags, _address = self.sock.recvmsg(HEADER.size, space)
        fds: list[int] = []
        for level, kind, data in ancillary:
            if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                usable = len(data) - len(data) % 4
                fds.extend(struct.unpack(f"{usable // 4}i", data[:usable]))
        header += self._exactly(HEADER.size - len(header)) if header else b""
        if len(header) < HEADER.size:
            return None
        (length,) = HEADER.unpack(header)
        if length > MAX_MESSAGE:
            return None
        message = json.loads(self._exactly(length))
        return message, fds

    def _exactly(self, count: int) -> bytes:
        data = b""
        while len(data) < count:
            chunk = self.sock.recv(count - len(data))
            if not chunk:
                return data
            data += chunk
        return data

    def send(self, message: dict[str, Any]) -> None:
        """One length-prefixed JSON message."""
        body = json.dumps(message).encode()
        self.sock.sendall(HEADER.pack(len(body)) + body)


def _prctl(option: int, value: int) -> None:
    ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0)


class Zygote:
    """The state every example starts from, and the clean-up after each."""

    def __init__(self, harness: ModuleType, setup: dict[str, Any], control: Control) -> None:
        self.harness = harness
        self.control = control
        self.limits: dict[str, int] = setup["limits"]
        self.worker_cpu = int(setup["worker_cpu_seconds"])
        self.namespaces = bool(setup["namespaces"])
        self.uid: int | None = setup.get("uid")
        self.workdir = Path(setup["workdir"])
        self.source = str(setup["plugin_root"])
        # folders the examples read besides the environment (the recorder's packages)
        self.visible = [str(folder) for folder in setup.get("visible") or ()]
        self.sdk: dict[str, Any] = {}
        self.problem: tuple[str, BaseException] | None = None
        self.kept: dict[str, set[str]] = {}
        self.queues: Path | None = None

    def prepare(self) -> None:
        """Sandbox set-up as root, then site-packages and the SDK as the sandbox uid."""
        harness = self.harness
        try:
            if self.namespaces:
                environment = str(Path(sys.executable).parent.parent)
                needed = [
                    sys.base_prefix,
                    environment,
                    str(Path(__file__).resolve().parent),
                    self.source,
                    *self.visible,
                ]
                tmp_size = int(self.limits["max_file_bytes"]) * 4
                harness.hide_private_folders([os.path.realpath(p) for p in needed], tmp_size)
                harness.bring_up_loopback()
                queues = harness.show_message_queues()
                self.queues = Path(queues) if queues else None
                harness.copy_plugin(self.source, PLUGIN_COPY)
                harness.open_to_all(PLUGIN_COPY)
                self.source = PLUGIN_COPY
            else:  # what an example leaves behind is reparented here, to be ended after it
                _prctl(PR_SET_CHILD_SUBREAPER, 1)
            harness.set_limits({**self.limits, "cpu_seconds": self.worker_cpu}, self.uid is not None)
            if self.uid is not None:
                harness.drop_privileges(self.uid)
            _prctl(PR_SET_DUMPABLE, 0)
            os.environ.update({"HOME": str(self.workdir), "TMPDIR": str(self.workdir)})
            os.chdir("/" if self.namespaces else self.workdir.parent)
            import site

            site.main()
        except BaseException as problem:
            self.problem = ("setup", problem)
            return
        try:
            self.sdk = harness.import_sdk()
        except BaseException as problem:
            self.problem = ("sdk", problem)
        self.kept = {
            folder: {entry.name for entry in Path(folder).iterdir()}
            for folder in harness.WRITABLE
            if self.namespaces and Path(folder).is_dir()
        }

    def run(self, job: dict[str, Any], fds: list[int]) -> tuple[int, bool]:
        """One example in a forked child; its exit status, and whether the clean-up succeeded."""
        if self.problem is not None and self.problem[0] == "setup":
            # nothing may run as root: the example gets the set-up failure without a child
            wire = self.harness.Wire(fds[0], 1, 1)
            self.harness.error_event(wire, "setup", self.problem[1], "")
            _close(fds)
            return 70, True
        pid = _FORK()
        if pid == 0:
            self._child(job, fds)
        _close(fds)
        _pid, status = _WAITPID(pid, 0)
        return os.waitstatus_to_exitcode(status), self.sweep()

    def _child(self, job: dict[str, Any], fds: list[int]) -> NoReturn:
        code = 70
        try:
            events, out, err = fds
            self.control.sock.close()
            os.dup2(out, 1)
            os.dup2(err, 2)
            _CLOSE(out)
            _CLOSE(err)
            if self.sdk.get("gevent") is not None:
                self.sdk["gevent"].reinit()
            _prctl(PR_SET_DUMPABLE, 1)
            self.harness.set_limits(self.limits, self.uid is not None)
            wire = self.harness.Wire(
                events, int(self.limits["max_messages"]), int(self.limits["max_output_bytes"])
            )
            if self.problem is not None:
                self.harness.error_event(wire, self.problem[0], self.problem[1], "")
                code = 0
            else:
                code = self.harness.run_example(
                    wire, job, self.workdir, self.source, self.namespaces, self.sdk
                )
            with contextlib.suppress(Exception):
                sys.stdout.flush()
                sys.stderr.flush()
        finally:
            os._exit(code)

    def sweep(self) -> bool:
        """End every process the example left, and empty what it could write; False if that failed."""
        try:
            if self.namespaces:
                # every other process of the namespace has this uid and the worker is its init:
                # kill(-1) reaches them all at once, faster than any of them can fork
                with contextlib.suppress(ProcessLookupError):
                    os.kill(-1, signal.SIGKILL)
                _reap_all()
                for folder, kept in self.kept.items():
                    for entry in Path(folder).iterdir():
                        if entry.name not in kept:
                            _remove(entry)
                _remove_ipc()
                for queue in self.queues.iterdir() if self.queues else ():
                    queue.unlink()
            else:
                _end_children()
                if self.workdir.exists():
                    _remove(self.workdir)
        except Exception:
            return False
        return True


def _close(fds: list[int]) -> None:
    for fd in fds:
        with contextlib.suppress(OSError):
            _CLOSE(fd)


def _reap_all() -> None:
    while True:
        try:
            _WAITPID(-1, 0)
        except ChildProcessError:
            return


def _children() -> list[int]:
    me = str(os.getpid())
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError):
                if (entry / "stat").read_text().rsplit(")", 1)[1].split()[1] == me:
                    found.append(int(entry.name))
    return found


def _end_children() -> None:
    """Without a PID namespace: kill what was reparented to this subreaper until nothing is left."""
    for _ in range(SWEEP_ROUNDS):
        children = _children()
        if not children:
            return
        for child in children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(child, signal.SIGKILL)
        for child in children:
            with contextlib.suppress(ChildProcessError):
                _WAITPID(child, 0)
    raise RuntimeError("processes kept appearing")


def _remove(path: Path) -> None:
    """Remove a file or tree the example owned, even one it took its own rights away from (without
    shutil.rmtree, which closes descriptors through the patched os.close)."""
    if path.is_symlink() or not path.is_dir():
        path.unlink()
        return
    stack, folders = [path], []
    while stack:
        folder = stack.pop()
        folder.chmod(0o700)
        folders.append(folder)
        for entry in folder.iterdir():
            if entry.is_dir() and not entry.is_symlink():
                stack.append(entry)
            else:
                entry.unlink()
    for folder in reversed(folders):
        folder.rmdir()


def _remove_ipc() -> None:
    """System V shared memory, semaphores and message queues of the namespace (all the examples')."""
    libc = ctypes.CDLL(None, use_errno=True)
    for kind in ("shm", "sem", "msg"):
        table = Path("/proc/sysvipc") / kind
        if not table.is_file():
            continue
        for line in table.read_text().splitlines()[1:]:
            key = int(line.split()[1])
            if kind == "sem":
                libc.semctl(key, 0, IPC_RMID)
            else:
                getattr(libc, f"{kind}ctl")(key, IPC_RMID, None)


def main() -> None:
    """Set up, report ready, then run examples until the generator hangs up; always os._exit."""
    control = Control(int(sys.argv[1]))
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    received = control.receive()
    if received is None:
        os._exit(0)
    zygote = Zygote(load_harness(), received[0], control)
    zygote.prepare()
    control.send({"event": "ready", "python": sys.version.split()[0], "sdk": zygote.sdk.get("version")})
    while (received := control.receive()) is not None:
        job, fds = received
        if len(fds) != DESCRIPTORS:
            _close(fds)
            break
        status, clean = zygote.run(job, fds)
        control.send({"event": "ended", "status": status, "clean": clean})
        if not clean:
            break
    os._exit(0)


if __name__ == "__main__":
    main()
