"""The environment build inside its sandbox, where a source distribution's build backend (a
stranger's code) runs.

Started by the generator as `unshare --pid --ipc --fork --kill-child --mount-proc ... python -I -m
generator.run.builder CONFIG` (see `envbuild.py`): new PID, IPC and mount namespaces, but the machine's
network, since uv fetches packages and build backends from the index. As root it covers the
private and shared folders with empty tmpfs (the runner's own `isolation.hide_private_folders`), binds back
read-only what the build reads (the interpreter, uv) and the environment's folder writable, sets
the resource limits and drops to the build's own unprivileged uid. Only then does it run the uv
steps, with the environment named in CONFIG and the requirements on stdin. Being the namespace's
init, it inherits every process whose parent ended: what a build backend left running is ended as
soon as no backend runs any more, and a step that makes no progress (no CPU time, no bytes read or
written, no process started or ended) for CONFIG's `stall_seconds` is stopped.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from generator.run.child import isolation
from generator.run.wire import ResourceLimits

# The private /tmp holds the build's HOME and temporary files (the uv cache is on disk).
TMP_BYTES = 1024**3
TICK = 0.2
# The exit status of a step stopped for making no progress (as `timeout` reports its own stop).
STALLED = 124


def enter(config: dict[str, Any]) -> None:
    """Hide, bind, limit and drop privileges (as root, inside fresh namespaces)."""
    target = os.path.realpath(config["target"])
    original = os.open(target, os.O_PATH | os.O_DIRECTORY)
    needed = [os.path.realpath(p) for p in [*config["readable"], target]]
    isolation.hide_private_folders(needed, TMP_BYTES)
    # the environment was bound back read-only with the rest; the build writes there
    isolation.bind(f"/proc/self/fd/{original}", target, read_only=False, recursive=False)
    os.close(original)
    os.umask(0o022)
    isolation.set_limits(ResourceLimits(**config["limits"]), True)
    isolation.drop_privileges(int(config["uid"]))
    isolation.die_with_parent()


def main() -> None:
    """Enter the sandbox, then run each step; the first that fails ends the build with its status."""
    config = json.loads(sys.argv[1])
    enter(config)
    environment: dict[str, str] = config["env"]
    Path(environment["HOME"]).mkdir(parents=True, exist_ok=True)
    steps: list[list[str]] = config["steps"]
    for number, step in enumerate(steps, start=1):
        # only the last step (the install) reads the requirements from stdin
        stdin = None if number == len(steps) else subprocess.DEVNULL
        started = subprocess.Popen(step, cwd=config["cwd"], env=environment, stdin=stdin)
        code = watch(started, float(config["stall_seconds"]))
        if code != 0:
            end_all()
            sys.exit(code)
    end_all()


def watch(step: subprocess.Popen[bytes], stall_seconds: float) -> int:
    """Wait for a step, ending what its build backends leave behind, and stopping it when nothing
    has moved for `stall_seconds`; its exit status (STALLED when stopped)."""
    last, moved = progress(), time.monotonic()
    while (code := step.poll()) is None:
        time.sleep(TICK)
        end_leftovers(step.pid)
        now = progress()
        if now != last:
            last, moved = now, time.monotonic()
        elif time.monotonic() - moved > stall_seconds:
            print(f"the build made no progress for {stall_seconds:g} s and was stopped", file=sys.stderr)
            return STALLED
    return code


def processes() -> dict[int, tuple[int, list[str]]]:
    """Every process of the namespace but this one: pid -> (parent pid, fields of its stat)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            with contextlib.suppress(OSError, IndexError, ValueError):
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                found[int(entry.name)] = (int(fields[1]), fields)
    return found


def end_leftovers(step: int) -> None:
    """A process whose parent has ended is reparented to this one (the namespace's init): what a
    build backend started and left running (a background `sleep` keeps uv waiting on the backend's
    output forever). Once the step has no child of its own left (no backend is running), they are
    ended, and their exits collected."""
    found = processes()
    # a backend that has exited stays a zombie until uv collects it, which uv does only after
    # reading the backend's output to its end
    if any(parent == step and fields[0] != "Z" for parent, fields in found.values()):
        return
    for pid, (parent, _fields) in found.items():
        if parent == os.getpid() and pid != step:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, os.WNOHANG)


def progress() -> tuple[int, ...]:
    """What changes while a build works: its processes, their CPU time and bytes read and written."""
    found = processes()
    ticks = sum(int(fields[11]) + int(fields[12]) for _parent, fields in found.values())
    moved = 0
    for pid in found:
        with contextlib.suppress(OSError, ValueError):
            lines = Path("/proc", str(pid), "io").read_text().splitlines()
            counters = dict(line.split(": ") for line in lines)
            moved += int(counters.get("rchar", 0)) + int(counters.get("wchar", 0))
    return (len(found), sum(found), ticks, moved)


def end_all() -> None:
    """Every other process of the namespace (all of them run as the build's uid)."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(-1, signal.SIGKILL)


if __name__ == "__main__":
    main()
