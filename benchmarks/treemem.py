"""The memory of a process tree while it runs, two ways.

- At once (`watch`): its processes' proportional set sizes (PSS: a page shared by a forked child
  and its parent counts half to each) summed, sampled, with the largest such sum and what each
  process held at that moment. A build's processes (the build, its forked language builds,
  Pagefind) run together, so their memory adds up to what the machine must have.
- Each process's own peak (`watch_each`): the kernel's peak resident set size of every process of
  the tree (`VmHWM`, what `ru_maxrss` and `/usr/bin/time`'s "maximum resident set size" report),
  read every 50 ms, so that the process which holds the build's peak is named; `ru_maxrss` of a
  waited-for child gives the largest only, not whose it was."""

from __future__ import annotations

import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

INTERVAL = 0.2
# Often enough to see a Pagefind run of one language (2 s and more on the official catalog).
EACH_INTERVAL = 0.05


def _children(pid: int) -> list[int]:
    found: list[int] = []
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            found += [int(child) for child in (task / "children").read_text().split()]
    except OSError:  # the process ended meanwhile
        pass
    return found


def _tree(root: int) -> list[int]:
    todo, seen = [root], []
    while todo:
        pid = todo.pop()
        seen.append(pid)
        todo += _children(pid)
    return seen


def _pss_kib(pid: int) -> tuple[str, int] | None:
    """The process's command name and its PSS in KiB, or None when it has ended."""
    try:
        rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
        name = Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return None
    for line in rollup.splitlines():
        if line.startswith("Pss:"):
            return name, int(line.split()[1])
    return None


@dataclass
class TreePeak:
    """The largest summed PSS seen, in MB, and each process's share then (name, MB)."""

    mb: float = 0.0
    shares: list[tuple[str, float]] = field(default_factory=list)


def watch(process: subprocess.Popen[str], peak: TreePeak) -> threading.Thread:
    """Sample `process`'s tree until it ends, keeping the largest sum in `peak`."""

    def sample() -> None:
        while process.poll() is None:
            shares = [share for pid in _tree(process.pid) if (share := _pss_kib(pid)) is not None]
            total = sum(kib for _, kib in shares) / 1024
            if total > peak.mb:
                peak.mb = total
                peak.shares = sorted(((name, kib / 1024) for name, kib in shares), key=lambda s: -s[1])
            time.sleep(INTERVAL)

    thread = threading.Thread(target=sample, daemon=True)
    thread.start()
    return thread


@dataclass
class ProcessPeak:
    """One process of the tree: what it is, its peak resident set size in MB, and when it was
    first and last seen (seconds from the start of the watch)."""

    role: str
    mb: float
    first: float
    last: float


def _status_kib(pid: int, key: str) -> int | None:
    """A `/proc/PID/status` figure in KiB (`VmHWM`, the peak resident set), or None when the
    process has ended (or is a zombie, which has no memory left)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1])
    except OSError:
        return None
    return None  # a zombie: no memory left to report


def _argv(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").split("\0")[:-1]
    except OSError:
        return []


def role(pid: int, root: int, root_argv: list[str]) -> str:
    """What the process is in a build: the build itself, a forked language build (same command
    line as the build's), a Pagefind run (with the pages it was given), or its command's name."""
    argv = _argv(pid)
    if pid == root:
        return "build"
    if argv and argv == root_argv:
        return "forked language build"
    if argv and "pagefind" in Path(argv[0]).name:
        glob = argv[argv.index("--glob") + 1] if "--glob" in argv[:-1] else "every page"
        return f"Pagefind {glob if len(glob) <= 40 else glob[:37] + '...'}"
    return Path(argv[0]).name if argv else "?"


def watch_each(process: subprocess.Popen[str], peaks: dict[int, ProcessPeak]) -> threading.Thread:
    """Sample every process of `process`'s tree until it ends, keeping each one's peak resident
    set size in `peaks` (by process id)."""
    start = time.monotonic()

    def sample() -> None:
        while process.poll() is None:
            now = time.monotonic() - start
            # Read each time: right after Popen the child may not have run its program yet and
            # still show the caller's command line, which no fork of the build would match.
            root_argv = _argv(process.pid)
            for pid in _tree(process.pid):
                kib = _status_kib(pid, "VmHWM")
                if not kib:  # ended, or a zombie (no memory, no command line left)
                    continue
                what, seen = role(pid, process.pid, root_argv), peaks.get(pid)
                if seen is None or seen.role != what:
                    # New, or a fork that has just become another program: what the fork held
                    # before is the build's memory, not that program's.
                    peaks[pid] = ProcessPeak(what, kib / 1024, seen.first if seen else now, now)
                else:
                    seen.mb, seen.last = max(seen.mb, kib / 1024), now
            time.sleep(EACH_INTERVAL)

    thread = threading.Thread(target=sample, daemon=True)
    thread.start()
    return thread
