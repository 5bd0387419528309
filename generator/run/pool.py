"""Run jobs in parallel (each job drives one sandboxed child), advancing a progress stage.

Jobs may name a batch (examples that can share a warm worker). A slot that finished a job takes
the next job of its own batch when there is one, else a job of a batch no other slot is on. Else
it joins the batch with the most jobs left, but only when those jobs are expected to take longer
than starting another worker (both estimated from the jobs done so far), so two slots do not
each start a worker for the last few quick examples of one plugin.
"""

from __future__ import annotations

import os
import statistics
import threading
import time
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from generator.progress import Stage

T = TypeVar("T")
R = TypeVar("R")


class _Queue:
    """The jobs not yet taken, which batch each slot is on, and how long jobs took."""

    def __init__(self, keys: list[Hashable]) -> None:
        self.keys = keys
        self.pending = list(range(len(keys)))
        self.current: dict[int, Hashable] = {}
        self.first: list[float] = []  # jobs that started a slot on a batch (a worker start included)
        self.next: list[float] = []  # jobs that followed one of the same batch on the same slot
        self.lock = threading.Lock()

    def take(self, slot: int) -> tuple[int, bool] | None:
        """The next job for `slot` and whether it moves the slot to another batch; None: stop."""
        with self.lock:
            mine = self.current.get(slot)
            others = {key for other, key in self.current.items() if other != slot}
            choice = next((i for i in self.pending if self.keys[i] == mine), None)
            if choice is None:
                choice = next((i for i in self.pending if self.keys[i] not in others), None)
            if choice is None and self.pending and self._worth_joining():
                left = {key: sum(self.keys[i] == key for i in self.pending) for key in others}
                busiest = max(left, key=lambda key: left[key])
                choice = next(i for i in self.pending if self.keys[i] == busiest)
            if choice is None:
                self.current.pop(slot, None)
                return None
            self.pending.remove(choice)
            self.current[slot] = self.keys[choice]
            return choice, self.keys[choice] != mine

    def _worth_joining(self) -> bool:
        if not self.first or not self.next:
            return True
        start = statistics.median(self.first) - statistics.median(self.next)
        left = max(sum(self.keys[i] == key for i in self.pending) for key in self.current.values())
        return left * statistics.median(self.next) / 2 > start

    def done(self, switched: bool, seconds: float) -> None:
        with self.lock:
            (self.first if switched else self.next).append(seconds)


def run_parallel(
    jobs: Sequence[T],
    work: Callable[[T, int], R],
    workers: int,
    describe: Callable[[T, R], str],
    progress: Stage | None = None,
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

    def loop(slot: int) -> None:
        while not failures and (taken := queue.take(slot)) is not None:
            index, switched = taken
            begun = time.monotonic()
            try:
                result = work(jobs[index], base + slot)
            except BaseException as problem:  # re-raised in the caller's thread
                failures.append(problem)
                return
            queue.done(switched, time.monotonic() - begun)
            with lock:
                results[index] = result
                if progress is not None:
                    progress.advance(describe(jobs[index], result))

    threads = [threading.Thread(target=loop, args=(slot,), daemon=True) for slot in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        raise failures[0]
    return [results[i] for i in range(len(jobs))]
