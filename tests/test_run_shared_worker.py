"""Examples of one plugin share a sandboxed worker, yet each starts fresh: storage, files,
processes, System V IPC, POSIX message queues, module state and CPU clock; a hanging or crashing
example does not stop the next. The plugin under tests/cases/run/shared_worker/sequence/ checks
this from the inside."""

from __future__ import annotations

import threading
import time

import pytest

from generator.load.crawl import load_plugin
from generator.run import ExampleRun, Limits, RunOptions, run_plugins
from generator.run.pool import run_parallel
from generator.run.sandbox import detect_isolation
from generator.schemas import load_schemas
from tests.conftest import REPO
from tests.hostile import processes_mentioning

CASE = REPO / "tests" / "cases" / "run" / "shared_worker" / "sequence"
LIMITS = Limits(timeout=8, cpu_seconds=1, memory_bytes=1024**3)
MARKER = b"dify-registry-shared-worker-marker"

pytestmark = pytest.mark.xdist_group("runner")
needs_namespaces = pytest.mark.skipif(
    not detect_isolation(None).namespaces, reason="the checks from inside need the PID namespace (root)"
)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, ExampleRun]:
    """Every example of the sequence plugin, one after another on one slot."""
    options = RunOptions(cache_dir=tmp_path_factory.mktemp("cache"), limits=LIMITS, jobs=1)
    report = run_plugins([load_plugin(CASE, "sequence")], options, load_schemas(REPO / "schemas"))
    return {f"{run.tool.tool}/{run.example}": run for run in report.runs}


def _worker(run: ExampleRun) -> object:
    """The worker identity the example reported (read from its messages: a crashed run has no outputs)."""
    values = [
        m.payload["variable_value"]
        for m in run.messages
        if m.type == "variable" and m.payload.get("variable_name") == "worker"
    ]
    assert len(values) == 1, run.messages
    return values[0]


def _rules(run: ExampleRun) -> set[str]:
    return {finding.rule for finding in run.findings if finding.severity.rank == 2}


@needs_namespaces
def test_nothing_carries_over_to_the_next_example(runs: dict[str, ExampleRun]) -> None:
    """The second example sees no storage, file, process, IPC object or module state of the first,
    although both ran in the same worker."""
    write, read = runs["state/write"], runs["state/read"]
    assert write.passed, write.findings
    assert read.outputs.get("text") == "clean", (read.messages, read.findings)
    assert read.passed, read.findings
    assert _worker(write) == _worker(read)


@needs_namespaces
def test_a_hanging_example_does_not_stop_the_next(runs: dict[str, ExampleRun]) -> None:
    """The hang is stopped at the wall clock; the next example runs and passes."""
    assert _rules(runs["hang/hang"]) == {"R002"}
    assert runs["hang/hang"].duration < LIMITS.timeout + 3
    assert runs["hang/pass"].passed, runs["hang/pass"].findings


@needs_namespaces
def test_a_crashing_example_keeps_its_worker(runs: dict[str, ExampleRun]) -> None:
    """os._exit in one example ends that child only: the next runs in the same worker."""
    assert _rules(runs["crash/crash"]) == {"R005"}
    assert runs["crash/pass"].passed, runs["crash/pass"].findings
    assert _worker(runs["crash/crash"]) == _worker(runs["crash/pass"])


@needs_namespaces
def test_each_example_has_its_own_cpu_limit(runs: dict[str, ExampleRun]) -> None:
    """Three examples each use most of a one-second CPU limit in one worker, and all pass."""
    burns = [runs[f"burn/{name}"] for name in ("one", "two", "three")]
    assert [run.passed for run in burns] == [True, True, True], [run.findings for run in burns]
    assert len({_worker(run) for run in burns}) == 1


@needs_namespaces
def test_the_cpu_limit_is_reported_as_such(runs: dict[str, ExampleRun]) -> None:
    """An endless loop is stopped by its CPU-time limit (SIGXCPU, not a bare SIGKILL that reads as a
    crash) well before the wall clock, and the next example runs in the same worker."""
    endless = runs["burn/endless"]
    assert _rules(endless) == {"R002"}, endless.findings
    assert any("CPU-time limit" in finding.message for finding in endless.findings), endless.findings
    assert endless.duration < LIMITS.timeout
    assert _worker(endless) == _worker(runs["burn/three"])


def test_no_process_is_left(runs: dict[str, ExampleRun]) -> None:
    """The background process the first example started is gone after the run."""
    assert runs["state/write"].passed
    survivors = processes_mentioning(MARKER.decode())
    assert survivors == []


def test_slots_keep_to_their_batch() -> None:
    """Two slots start on different batches and stay on them: a slot that runs out does not start a
    second worker for the other batch's last quick jobs. Results come back in job order."""
    jobs = [("a", n) for n in range(10)] + [("b", n) for n in range(3)]
    seen: dict[int, list[str]] = {}
    both_started = threading.Barrier(2, timeout=30)

    def work(job: tuple[str, int], slot: int) -> str:
        batches = seen.setdefault(slot, [])
        if not batches:
            both_started.wait()
        # the first job of a batch on a slot pays for a worker start
        time.sleep(0.3 if not batches or batches[-1] != job[0] else 0.01)
        batches.append(job[0])
        return f"{job[0]}{job[1]}"

    results = run_parallel(jobs, work, 2, lambda job, result: result, batch=lambda job: job[0])
    assert results == [f"{name}{n}" for name, n in jobs]
    assert sorted(batches[0] for batches in seen.values()) == ["a", "b"]
    assert all(len(set(batches)) == 1 for batches in seen.values()), seen
