"""The memory benchmark names each process of a tree with its own peak: the root, a fork of it,
and a program it started, each with the memory it really touched."""

from __future__ import annotations

import subprocess
import sys

from benchmarks.treemem import ProcessPeak, watch_each

# The root touches 100 MB, a fork of it 60 MB more, then a program it starts 30 MB; each lives
# long enough to be sampled several times, even on a loaded machine (2 s: a 0.6 s fork was missed
# under a load of 12 on two cores).
TREE = """
import os, subprocess, sys, time
mine = b"r" * (100 << 20)
pid = os.fork()
if pid == 0:
    forked = b"f" * (60 << 20)
    time.sleep(2)
    os._exit(0)
os.waitpid(pid, 0)
program = "import time; program = b'p' * (30 << 20); time.sleep(2)"
subprocess.run([sys.executable, "-c", program], check=True)
"""


def test_each_process_of_the_tree_is_named_with_its_own_peak() -> None:
    peaks: dict[int, ProcessPeak] = {}
    with subprocess.Popen([sys.executable, "-c", TREE], text=True) as process:
        watcher = watch_each(process, peaks)
        assert process.wait(timeout=60) == 0
    watcher.join()
    by_role: dict[str, list[float]] = {}
    for peak in peaks.values():
        by_role.setdefault(peak.role, []).append(peak.mb)
    (root,) = by_role["build"]
    assert 100 <= root < 150
    assert max(by_role["forked language build"]) >= 100 + 60
    # The started program: its own memory, not what its parent held before it became that program.
    (program,) = [mb for role, mbs in by_role.items() if role.startswith("python") for mb in mbs]
    assert 30 <= program < 80
