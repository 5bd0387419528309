"""Run jobs in parallel (each job drives one sandboxed child) and show progress on a terminal.

Jobs may name a batch: a slot that finished a job of one batch takes the next job of the same
batch when there is one (its worker is warm for it), else a job of a batch no other slot is on,
else any job, so every slot stays busy to the end.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Hashable, Sequence
from typing import IO, TypeVar

T = TypeVar("T")
R = TypeVar("R")


class _Queue:
    """The jobs not yet taken, and which batch each slot is on."""

    def __init__(self, keys: list[Hashable]) -> None:
        self.keys = keys
        self.pending = list(range(len(keys)))
        self.current: dict[int, Hashable] = {}
        self.lock = threading.Lock()

    def take(self, slot: int) -> int | None:
        with self.lock:
            if not self.pending:
                return None
            mine = self.current.get(slot)
            others = {key for other, key in self.current.items() if other != slot}
            choice = next((i for i in self.pending if self.keys[i] == mine), None)
            if choice is None:
                choice = next((i for i in self.pending if self.keys[i] not in others), self.pending[0])
            self.pending.remove(choice)
            self.current[slot] = self.keys[choice]
            return choice


def run_parallel(
    jobs: Sequence[T],
    work: Callable[[T, int], R],
    workers: int,
    describe: Callable[[T, R], str],
    progress: IO[str] | None = None,
    batch: Callable[[T], Hashable] | None = None,
) -> list[R]:
    """Results in job order; `work(job, slot)` gets a slot number unique among running jobs."""
    count = max(1, min(workers, len(jobs) or 1))
    # Slots of concurrent generator processes (parallel test workers) must not share a sandbox uid.
    base = (os.getpid() % 4096) * 64
    queue = _Queue([batch(job) if batch else index for index, job in enumerate(jobs)])
    results: dict[int, R] = {}
    failures: list[BaseException] = []
    lock = threading.Lock()
    started = time.monotonic()

    def loop(slot: int) -> None:
        while not failures and (index := queue.take(slot)) is not None:
            try:
                result = work(jobs[index], base + slot)
            except BaseException as problem:  # re-raised in the caller's thread
                failures.append(problem)
                return
            with lock:
                results[index] = result
                if progress is not None:
                    elapsed = time.monotonic() - started
                    progress.write(
                        f"[{len(results)}/{len(jobs)} {elapsed:5.1f}s] {describe(jobs[index], result)}\n"
                    )
                    progress.flush()

    threads = [threading.Thread(target=loop, args=(slot,), daemon=True) for slot in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        raise failures[0]
    return [results[i] for i in range(len(jobs))]


def terminal_progress() -> IO[str] | None:
    """stderr when it is a terminal (progress lines would clutter logs and pipes)."""
    return sys.stderr if sys.stderr.isatty() else None
