"""Runner speed on synthetic plugins (`benchmarks/synthetic.py`), medians over several runs.

- fixed cost of one tool run: `run_plugins` on one plugin with one example, its environment built
  but nothing cached (sandbox, interpreter start, `dify_plugin` import, the example);
- overhead of each further example in a warm environment: one plugin whose tool has N examples,
  `(T(N) - T(1)) / (N - 1)` with one worker; the tool is trivial (three messages, no I/O), so its own
  `_invoke` time is negligible and all of it is overhead (sandboxing, assembly, checks, cache);
- runs per second with one and two workers on several plugins, and the speed-up;
- building a plugin environment: cold (empty uv cache), warm (uv cache filled), and reused;
- cache hit rate: a second run over the same plugins, after touching one manifest (mtime only),
  and after editing it (only that plugin's examples may run again).

`python -m benchmarks runner [--quick] [--runs=N] [--examples=N] [--skip-environments]`.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from benchmarks.synthetic import make_registry
from generator.load.crawl import LoadedPlugin, load_plugin
from generator.load.reader import PluginReader
from generator.run import Limits, RunOptions, RunReport, run_plugins
from generator.run.environment import build_environment, describe_environment
from generator.run.sandbox import detect_isolation

RUNS = 3
EXAMPLES = 40
POOL_PLUGINS, POOL_TOOLS, POOL_EXAMPLES = 4, 3, 4
ENV_RUNS = 2
Row = tuple[str, float, str]


def _median(action: Callable[[int], float], runs: int) -> float:
    """Median of `action(run_index)` (each returns the seconds it measured)."""
    return statistics.median(action(index) for index in range(runs))


def _timed(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def _plugins(registry: Path) -> list[LoadedPlugin]:
    return [load_plugin(root, root.name) for root in sorted((registry / "plugins").iterdir())]


def _with_examples(registry: Path, count: int) -> None:
    """Give every tool of the registry `count` examples."""
    for path in (registry / "plugins").glob("*/tools/*.examples.yaml"):
        lines = [
            "examples:",
            *(f"  - {{name: ex-{n:03d}, inputs: {{query: example {n}}}}}" for n in range(count)),
        ]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")


class Bench:
    """A scratch folder with one cache: environments are kept, runs are dropped before each run."""

    def __init__(self, scratch: Path) -> None:
        self.scratch = scratch
        self.cache = scratch / "cache"

    def options(self, jobs: int) -> RunOptions:
        """Options whose run cache is empty (the environments stay built)."""
        shutil.rmtree(self.cache / "runs", ignore_errors=True)
        return RunOptions(cache_dir=self.cache, jobs=jobs, limits=Limits())

    def registry(self, name: str, plugins: int, tools: int, examples: int) -> list[LoadedPlugin]:
        """A synthetic registry with `examples` examples per tool, loaded."""
        folder = make_registry(self.scratch / name, plugins, tools)
        _with_examples(folder, examples)
        return _plugins(folder)

    def run(self, plugins: list[LoadedPlugin], jobs: int) -> tuple[float, RunReport]:
        """Wall time of a run with nothing cached, and its report."""
        options = self.options(jobs)
        start = time.perf_counter()
        report = run_plugins(plugins, options)
        elapsed = time.perf_counter() - start
        failed = [run for run in report.runs if not run.passed]
        if failed:
            raise RuntimeError(f"{len(failed)} runs failed: {failed[0].findings}")
        return elapsed, report


def _runs_rows(bench: Bench, runs: int, examples: int) -> list[Row]:
    one = bench.registry("one", 1, 1, 1)
    many = bench.registry("many", 1, 1, examples)
    bench.run(one, 1)  # builds the environment once; not measured
    cold: list[float] = []
    series: list[float] = []
    further: list[float] = []
    sandbox: list[float] = []
    # measured in pairs, close in time, so both see the same load on the machine
    for _ in range(runs):
        cold.append(bench.run(one, 1)[0])
        elapsed, report = bench.run(many, 1)
        series.append(elapsed)
        further.append((elapsed - cold[-1]) / (examples - 1))
        sandbox.extend(run.duration for run in report.runs[1:])
    return [
        ("one tool run, cold (sandbox + interpreter + SDK import)", statistics.median(cold) * 1000, "ms"),
        (f"{examples} examples of one tool, one worker", statistics.median(series) * 1000, "ms"),
        ("overhead per further example, whole run (target < 100)", statistics.median(further) * 1000, "ms"),
        ("  of which in the sandbox (fork to clean-up, median)", statistics.median(sandbox) * 1000, "ms"),
    ]


def _pool_run(bench: Bench, plugins: list[LoadedPlugin], jobs: int, _index: int) -> float:
    return bench.run(plugins, jobs)[0]


def _pool_rows(bench: Bench, runs: int) -> list[Row]:
    plugins = bench.registry("pool", POOL_PLUGINS, POOL_TOOLS, POOL_EXAMPLES)
    total = POOL_PLUGINS * POOL_TOOLS * POOL_EXAMPLES
    rates = {jobs: total / _median(partial(_pool_run, bench, plugins, jobs), runs) for jobs in (1, 2)}
    label = f"{POOL_PLUGINS} plugins x {POOL_TOOLS} tools x {POOL_EXAMPLES} examples"
    return [
        (f"runs/s, 1 worker ({label})", rates[1], "/s"),
        ("runs/s, 2 workers", rates[2], "/s"),
        ("speed-up, 2 workers over 1", rates[2] / rates[1], "x"),
    ]


def _build(root: Path, cache: Path) -> None:
    described = describe_environment(PluginReader(root), "3.12", cache, False, detect_isolation(None), str)
    environment = build_environment(described, str)
    if environment.problem:
        raise RuntimeError(environment.problem)


def _environment_rows(bench: Bench, runs: int) -> list[Row]:
    root = bench.scratch / "one" / "plugins" / "synthetic_00000"
    saved = os.environ.get("UV_CACHE_DIR")
    cold: list[float] = []
    warm: list[float] = []
    reused: list[float] = []
    try:
        for index in range(runs):
            uv_cache = bench.scratch / f"uv-cache-{index}"
            os.environ["UV_CACHE_DIR"] = str(uv_cache)  # empty: every wheel is downloaded
            for series in (cold, warm):
                target = bench.scratch / f"env-{index}-{len(series)}"
                series.append(_timed(partial(_build, root, target)))
                reused.append(_timed(partial(_build, root, target)))
                shutil.rmtree(target)
            shutil.rmtree(uv_cache, ignore_errors=True)
    finally:
        if saved is None:
            os.environ.pop("UV_CACHE_DIR", None)
        else:
            os.environ["UV_CACHE_DIR"] = saved
    return [
        ("environment, cold (empty uv cache)", statistics.median(cold) * 1000, "ms"),
        ("environment, warm (uv cache filled)", statistics.median(warm) * 1000, "ms"),
        ("environment, reused (already built)", statistics.median(reused) * 1000, "ms"),
    ]


def _cache_rows(bench: Bench) -> list[Row]:
    plugins = bench.registry("cached", POOL_PLUGINS, POOL_TOOLS, 2)
    options = bench.options(2)
    run_plugins(plugins, options)
    again = run_plugins(plugins, options).runs
    manifest = plugins[0].root / "manifest.yaml"
    manifest.touch()
    touched = run_plugins(_plugins(plugins[0].root.parents[1]), options).runs
    manifest.write_text(manifest.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    edited = run_plugins(_plugins(plugins[0].root.parents[1]), options).runs
    rerun = [run for run in edited if not run.cached]
    only_that = all(run.tool.plugin == plugins[0].display for run in rerun)
    per_plugin = len(edited) // POOL_PLUGINS
    return [
        ("cache hits, second run", 100 * sum(r.cached for r in again) / len(again), "%"),
        ("cache hits, manifest touched (mtime)", 100 * sum(r.cached for r in touched) / len(touched), "%"),
        ("cache hits, one manifest edited", 100 * sum(r.cached for r in edited) / len(edited), "%"),
        (
            f"  runs again: {len(rerun)} of {len(edited)} (that plugin has {per_plugin}; "
            f"{'only' if only_that else 'NOT only'} its own)",
            len(rerun),
            "",
        ),
    ]


def main(argv: list[str]) -> int:
    """Print the runner's figures as a table."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.runner", description=__doc__)
    parser.add_argument("--runs", type=int, default=RUNS)
    parser.add_argument("--examples", type=int, default=EXAMPLES)
    parser.add_argument("--skip-environments", action="store_true", help="no cold environment builds")
    parser.add_argument("--quick", action="store_true", help="one run of 10 examples, no environment builds")
    args, _unknown = parser.parse_known_args(argv)  # options meant for other benchmarks are ignored
    if args.quick:
        args.runs, args.examples, args.skip_environments = 1, 10, True
    with tempfile.TemporaryDirectory(prefix="dify-bench-runner-") as folder:
        bench = Bench(Path(folder))
        rows = _runs_rows(bench, args.runs, args.examples)
        rows += _pool_rows(bench, args.runs)
        rows += _cache_rows(bench)
        if not args.skip_environments:
            rows += _environment_rows(bench, ENV_RUNS)
    print(
        f"runner: median of {args.runs} runs; Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    for name, value, unit in rows:
        shown = f"{value:10.1f} {unit}" if unit else ""
        print(f"{name:68} {shown}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
