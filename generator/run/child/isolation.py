"""The sandbox inside the worker's namespaces, in one place: set up once as root, entered by each
example's child, and cleaned after every example.

The generator starts the worker inside new namespaces (`sandbox.command`). There, as root, the
worker hides private and shared folders behind empty tmpfs and binds back, read-only, what a run
reads; brings up loopback; mounts the message queues so they can be removed; copies the plugin
where examples cannot change it; then sets the resource limits, drops to an unprivileged uid and
makes itself non-dumpable, so the examples (same uid) can neither trace it nor read its memory.
After every example each process of the uid in the namespace is killed, the folders anyone may
write are emptied, and System V IPC objects and POSIX message queues are removed. The build
sandbox (`builder.py`) uses the same functions.
"""

from __future__ import annotations

import contextlib
import ctypes
import dataclasses
import fcntl
import functools
import os
import resource
import shutil
import signal
import socket
import struct
import sys
from pathlib import Path

from ..wire import ResourceLimits, Setup
from .view import VIEW_NAME, Marks, enter_view, marks, private_view

# The originals: once the SDK has patched the process with gevent, these would cooperate with a
# hub this process never runs (a patched os.close only schedules the close on that hub).
FORK, WAITPID, CLOSE = os.fork, os.waitpid, os.close
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REMOUNT, MS_BIND, MS_REC = 1, 2, 4, 8, 32, 4096, 16384
PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_SET_NO_NEW_PRIVS, PR_SET_CHILD_SUBREAPER = 1, 4, 38, 36
SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 0x1
IPC_RMID = 0
HIDDEN = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock", "/root", "/home")
# the folders anyone may write to: emptied again after every example
WRITABLE = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock")
# the IPC namespace's POSIX message queues as files, in the hidden /root (root's, read-only to tools)
MESSAGE_QUEUES = "/root/.message-queues"
PLUGIN_COPY = "/tmp/.plugin"  # root-owned: examples copy from it and cannot change it
ENVIRONMENT_LAYER = "/root/.environment-layer"
SWEEP_ROUNDS = 1000
# the runner's own folder (this package and the wire module), which the worker reads
CODE = Path(__file__).resolve().parent.parent


class Sandbox:
    """The sandbox of one worker, from its set-up to the clean-up after each example."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.source = setup.plugin_root  # the plugin folder examples copy from
        self.workdir = Path(setup.workdir)
        self.kept: dict[str, set[str]] = {}
        self.queues: Path | None = None
        # the folder holding what examples write into the environment, and its free inodes when ready
        self.layer: str | None = None
        self.layer_free = 0
        # without namespaces: the worker's private view of the environment, and what it held when ready
        self.view: list[Path] | None = None
        self.view_marks: Marks = {}

    def enter(self) -> None:
        """As root: hide, bind back, copy; then limits and the unprivileged uid, for good."""
        setup = self.setup
        if setup.namespaces:
            environment = str(Path(sys.executable).parent.parent)
            needed = [sys.base_prefix, environment, str(CODE), self.source, *setup.visible]
            tmp_size = setup.limits.max_file_bytes * 4
            hide_private_folders([os.path.realpath(p) for p in needed], tmp_size)
            if setup.uid is not None:
                try:
                    self.layer = writable_view(os.path.realpath(environment), setup.uid)
                except OSError:  # no overlayfs here: the environment stays read-only (R037 says so)
                    self.layer = None
            bring_up_loopback()
            self.queues = show_message_queues()
            copy_plugin(self.source, PLUGIN_COPY)
            open_to_all(PLUGIN_COPY)
            self.source = PLUGIN_COPY
        else:  # what an example leaves behind is reparented here, to be ended after it
            _prctl(PR_SET_CHILD_SUBREAPER, 1)
            # no overlay without root: the worker runs from a private view of the environment
            view = self.workdir.parent / VIEW_NAME
            self.view = private_view(Path(sys.executable).parent.parent, view)
            enter_view(view)
        worker = dataclasses.replace(setup.limits, cpu_seconds=setup.worker_cpu_seconds)
        set_limits(worker, setup.uid is not None)
        if setup.uid is not None:
            drop_privileges(setup.uid)
        _prctl(PR_SET_DUMPABLE, 0)
        os.environ.update({"HOME": str(self.workdir), "TMPDIR": str(self.workdir)})
        os.chdir("/" if setup.namespaces else self.workdir.parent)

    def remember(self) -> None:
        """What the writable folders hold once the worker is ready: kept by every clean-up."""
        self.kept = {
            folder: {entry.name for entry in Path(folder).iterdir()}
            for folder in WRITABLE
            if self.setup.namespaces and Path(folder).is_dir()
        }
        if self.layer is not None:
            self.layer_free = os.statvfs(self.layer).f_ffree
        if self.view is not None:
            self.view_marks = marks(self.view)

    def enter_example(self) -> None:
        """In an example's child: its own limits (and CPU clock); traceable by the tool itself."""
        _prctl(PR_SET_DUMPABLE, 1)
        set_limits(self.setup.limits, self.setup.uid is not None)

    def sweep(self) -> bool:
        """End every process the example left, and empty what it could write; False if that failed."""
        try:
            if self.setup.namespaces:
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
                # An example that wrote into the environment's view leaves files in its layer, which
                # only root could take away again: the next example gets a new worker instead.
                if self.layer is not None and os.statvfs(self.layer).f_ffree != self.layer_free:
                    return False
            else:
                _end_children()
                if self.workdir.exists():
                    _remove(self.workdir)
                # a view an example changed is thrown away with its worker: the next starts afresh
                if self.view is not None and marks(self.view) != self.view_marks:
                    return False
        except Exception:
            return False
        return True


# ---------------------------------------------------------------- set-up (as root)


@functools.cache
def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _prctl(option: int, value: int) -> None:
    _libc().prctl(option, value, 0, 0, 0)


def mount(source: str | None, target: str, fstype: str | None, flags: int, data: str = "") -> None:
    """mount(2); OSError naming the target when it fails."""
    code = _libc().mount(
        source.encode() if source else None,
        target.encode(),
        fstype.encode() if fstype else None,
        ctypes.c_ulong(flags),
        data.encode() if data else None,
    )
    if code != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"mount {target}: {os.strerror(errno)}")


def bind(source: str, target: str, read_only: bool, recursive: bool = True) -> None:
    """Mount `source` (a folder, or /proc/self/fd/N of one opened before) at `target` as well."""
    mount(source, target, None, MS_BIND | (MS_REC if recursive else 0))
    if read_only:
        mount(None, target, None, MS_REMOUNT | MS_BIND | MS_RDONLY)


def hide_private_folders(needed: list[str], tmp_size: int) -> None:
    """Cover shared and private folders with empty tmpfs; re-expose, read-only, what the run needs."""
    for hidden in HIDDEN:
        if not Path(hidden).is_dir():
            continue
        inside = [p for p in needed if p == hidden or p.startswith(hidden + "/")]
        handles = [(p, os.open(p, os.O_PATH | os.O_DIRECTORY)) for p in inside]
        mode = "1777" if hidden in WRITABLE else "0755"
        mount("tmpfs", hidden, "tmpfs", MS_NOSUID | MS_NODEV, f"size={tmp_size},mode={mode}")
        for path, handle in handles:
            Path(path).mkdir(parents=True, exist_ok=True)
            bind(f"/proc/self/fd/{handle}", path, read_only=True)
            os.close(handle)


def writable_view(environment: str, uid: int) -> str:
    """Cover the (read-only) environment with an overlay whose writable layer lies in the private
    /root tmpfs: the examples can write into their environment, as Dify's plugins can, and what
    they write is thrown away with the worker; the cached environment is never changed. Its
    folders are the sandbox uid's in the layer (files stay root's, so they can be replaced, not
    changed in place). Returns the layer's folder."""
    layer = Path(ENVIRONMENT_LAYER)
    layer.mkdir(mode=0o700)  # root's: the examples reach the layer only through the overlay
    upper, work = layer / "upper", layer / "work"
    upper.mkdir()
    work.mkdir()
    lower = os.open(environment, os.O_PATH | os.O_DIRECTORY)
    try:
        for folder, dirs, _files in os.walk(environment):
            relative = os.path.relpath(folder, environment)
            made = upper / relative if relative != "." else upper
            made.mkdir(exist_ok=True)
            os.chown(made, uid, uid)
            made.chmod(0o755)
            dirs[:] = [d for d in dirs if not Path(folder, d).is_symlink()]
        handles = [os.open(str(path), os.O_PATH | os.O_DIRECTORY) for path in (upper, work)]
        try:
            lower_dir, upper_dir, work_dir = (f"/proc/self/fd/{fd}" for fd in (lower, *handles))
            options = f"lowerdir={lower_dir},upperdir={upper_dir},workdir={work_dir}"
            mount("overlay", environment, "overlay", MS_NOSUID | MS_NODEV, options)
        finally:
            for handle in handles:
                os.close(handle)
    finally:
        os.close(lower)
    return str(layer)


def show_message_queues() -> Path | None:
    """Mount the namespace's POSIX message queues (which have no other listing) so the worker can
    remove them between examples; None where /root is not hidden behind a tmpfs of our own."""
    if not Path("/root").is_dir():
        return None
    try:  # /root itself bound back read-only (an environment at /root) leaves nowhere to mount
        Path(MESSAGE_QUEUES).mkdir(mode=0o755, exist_ok=True)
        mount("mqueue", MESSAGE_QUEUES, "mqueue", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    except OSError:
        return None
    return Path(MESSAGE_QUEUES)


def bring_up_loopback() -> None:
    """A new network namespace has a loopback interface that is down; the file server needs it."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        request = struct.pack("16sH", b"lo", 0)
        flags = struct.unpack("16sH", fcntl.ioctl(probe, SIOCGIFFLAGS, request)[:18])[1]
        fcntl.ioctl(probe, SIOCSIFFLAGS, struct.pack("16sH", b"lo", flags | IFF_UP))


def set_limits(limits: ResourceLimits, unprivileged: bool) -> None:
    """The kernel's resource limits of the process (the generator adds a wall clock)."""
    seconds = limits.cpu_seconds
    pairs = {
        resource.RLIMIT_AS: (limits.memory_bytes,) * 2,
        # At a hard CPU limit equal to the soft one the kernel sends SIGKILL, which reads as a crash;
        # a second more makes it SIGXCPU (the CPU-time limit), then SIGKILL only if that is caught.
        resource.RLIMIT_CPU: (seconds, seconds + 1),
        resource.RLIMIT_FSIZE: (limits.max_file_bytes,) * 2,
        resource.RLIMIT_CORE: (0, 0),
        resource.RLIMIT_NOFILE: (256, 256),
    }
    if unprivileged:  # the kernel ignores RLIMIT_NPROC for root
        pairs[resource.RLIMIT_NPROC] = (limits.max_processes,) * 2
    for which, pair in pairs.items():
        resource.setrlimit(which, pair)


def drop_privileges(uid: int) -> None:
    """Become an unprivileged user with no way back (no setuid binaries either)."""
    os.setgroups([])
    os.setgid(uid)
    os.setuid(uid)
    _prctl(PR_SET_NO_NEW_PRIVS, 1)


def die_with_parent() -> None:
    """SIGKILL when the parent ends: `unshare --kill-child` asks for it, but changing the uid clears
    it, and a namespace's init that outlives `unshare` keeps every process of the namespace alive."""
    _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def copy_plugin(source: str, target: str) -> None:
    """A copy of a plugin folder without its git and bytecode folders."""
    shutil.copytree(source, target, symlinks=True, ignore=shutil.ignore_patterns(".git", "__pycache__"))


def open_to_all(target: str) -> None:
    """Let the sandbox uid read a copy made as root; it still cannot change anything in it."""
    for folder, _dirs, files in os.walk(target):
        Path(folder).chmod(0o755)
        for name in files:
            path = Path(folder) / name
            if not path.is_symlink():  # chmod follows links: their targets are not ours to change
                path.chmod(path.stat().st_mode | 0o444)


# ---------------------------------------------------------------- clean-up after an example


def _reap_all() -> None:
    while True:
        try:
            WAITPID(-1, 0)
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
                WAITPID(child, 0)
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
    libc = _libc()
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
