"""Run jobs in parallel (each job drives one child process) and show progress on a terminal."""

from __future__ import annotations

import os
import queue
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from typing import IO, TypeVar

T = TypeVar("T")
R = TypeVar("R")


def run_parallel(
    jobs: Sequence[T],
    work: Callable[[T, int], R],
    workers: int,
    describe: Callable[[T, R], str],
    progress: IO[str] | None = None,
) -> list[R]:
    """Results in job order; `work(job, slot)` gets a slot number unique among running jobs."""
    slots: queue.Queue[int] = queue.Queue()
    count = max(1, min(workers, len(jobs) or 1))
    for slot in range(count):
        slots.put(slot)
    # Slots of concurrent generator processes (parallel test workers) must not share a sandbox uid.
    base = (os.getpid() % 4096) * 64

    def with_slot(job: T) -> R:
        slot = slots.get()
        try:
            return work(job, base + slot)
        finally:
            slots.put(slot)

    results: dict[int, R] = {}
    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=count) as executor:
        futures = {executor.submit(with_slot, job): index for index, job in enumerate(jobs)}
        for done, future in enumerate(as_completed(futures), start=1):
            index = futures[future]
            results[index] = future.result()
            if progress is not None:
                elapsed = time.monotonic() - started
                progress.write(
                    f"[{done}/{len(jobs)} {elapsed:5.1f}s] {describe(jobs[index], results[index])}\n"
                )
                progress.flush()
    return [results[i] for i in range(len(jobs))]


def terminal_progress() -> IO[str] | None:
    """stderr when it is a terminal (progress lines would clutter logs and pipes)."""
    return sys.stderr if sys.stderr.isatty() else None
