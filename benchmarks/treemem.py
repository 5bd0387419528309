"""The memory a process tree holds at once: its processes' proportional set sizes (PSS: a page
shared by a forked child and its parent counts half to each) summed, sampled while it runs, with
the largest such sum and what each process held at that moment. `ru_maxrss` gives each process's
own peak only; a build's processes (the build, its forked language builds, Pagefind) run together,
so their peaks add up to what the machine must have."""

from __future__ import annotations

import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

INTERVAL = 0.2


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
