"""Scale: validation + catalog and the four-language site for 100, 1,000 and 10,000 synthetic tools,
a fit of build time against tool count, and the incremental work after one manifest changes.

    python -m benchmarks scale [--quick] [--runs=N] [--sizes=100,1000,10000] [--no-site] [--no-incremental]

Every measurement runs in a fresh process (peak memory from `resource.getrusage`). Each figure is the
median of several runs (one run for 10,000 tools: a four-language site of 10,000 tools takes many
minutes). `--quick`: sizes 100 and 1,000, one run each.

Targets: 10,000 tools validated and catalogued in under 60 s and 2 GB; build time linear in the
number of tools (exponent about 1); touching one manifest re-runs only that plugin's tools.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.incremental import measure_incremental
from benchmarks.site import measure
from benchmarks.sitebuild import REPO
from benchmarks.synthetic import make_registry

TOOLS_PER_PLUGIN = 10


def catalog_figures(registry: Path, runs: int) -> dict[str, float]:
    """Median wall time, CPU time and peak memory of validating and cataloguing `registry`."""
    results = []
    for _ in range(runs):
        command = [sys.executable, "-m", "benchmarks.catalogrun", str(registry)]
        done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=True)
        results.append(json.loads(done.stdout.strip().splitlines()[-1]))
    return {key: statistics.median(r[key] for r in results) for key in results[0]}


def exponent(points: list[tuple[int, float]]) -> float:
    """The slope of log(time) against log(tools): 1 is linear growth."""
    xs = [math.log(n) for n, _ in points]
    ys = [math.log(t) for _, t in points]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum((x - mx) ** 2 for x in xs)


def runs_for(tools: int, runs: int) -> int:
    """Fewer runs for the largest registry."""
    return 1 if tools >= 10_000 else runs


def main(argv: list[str]) -> int:
    """Print the catalog table, the site table with the fitted exponents, and the incremental table."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks scale", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="sizes 100 and 1,000, one run each")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sizes", default="100,1000,10000", help="tool counts, comma-separated")
    parser.add_argument("--no-site", action="store_true", help="skip the site builds")
    parser.add_argument("--no-incremental", action="store_true", help="skip the incremental measurements")
    args, _unknown = parser.parse_known_args(argv)
    sizes = [100, 1000] if args.quick else [int(s) for s in args.sizes.split(",")]
    runs = 1 if args.quick else args.runs
    with tempfile.TemporaryDirectory(prefix="bench-scale-") as folder:
        work = Path(folder)
        registries = {
            n: make_registry(work / f"registry-{n}", max(1, n // TOOLS_PER_PLUGIN), TOOLS_PER_PLUGIN)
            for n in sizes
        }
        print(f"validation + catalog (no tool runs); median of {runs} run(s), 1 for 10,000 tools")
        print(
            f"{'tools':>7} {'files':>7} {'wall s':>8} {'cpu s':>8} {'peak MB':>8} {'tools/s':>8}", flush=True
        )
        catalog_points: dict[str, list[tuple[int, float]]] = {"wall": [], "cpu": []}
        for n, registry in registries.items():
            figures = catalog_figures(registry, runs_for(n, runs))
            catalog_points["wall"].append((n, figures["wall"]))
            catalog_points["cpu"].append((n, figures["cpu"]))
            print(
                f"{n:7d} {figures['files']:7.0f} {figures['wall']:8.2f} {figures['cpu']:8.2f} "
                f"{figures['peak_mb']:8.0f} {n / figures['wall']:8.0f}",
                flush=True,
            )
        if len(sizes) > 1:
            print_fit(catalog_points)
        if not args.no_site:
            print_site_table(registries, work, runs)
        if not args.no_incremental:
            measure_incremental(work, quick=args.quick)
    return 0


def print_site_table(registries: dict[int, Path], work: Path, runs: int) -> None:
    """The four-language site per size, and the exponents of its growth."""
    print(f"\nsite in four languages; median of {runs} build(s), 1 for 10,000 tools")
    print(
        f"{'tools':>7} {'pages':>7} {'generator s':>11} {'mkdocs s':>9} {'search s':>8} {'overhead':>9} "
        f"{'wall s':>8} {'peak MB':>8} {'site MB':>8} {'cores s':>8} {'peak MB':>8}",
        flush=True,
    )
    points: dict[str, list[tuple[int, float]]] = {"wall": [], "generator": [], "mkdocs": [], "cores": []}
    for n, registry in registries.items():
        result, plain = measure(f"site-{n}", [registry], work, runs_for(n, runs))
        points["wall"].append((n, result.wall))
        points["generator"].append((n, result.generator))
        points["mkdocs"].append((n, result.mkdocs))
        points["cores"].append((n, plain.wall))
        print(
            f"{n:7d} {result.files:7d} {result.generator:11.2f} {result.mkdocs:9.2f} {result.search:8.2f} "
            f"{result.overhead_pct:8.1f}% {result.wall:8.1f} {result.peak_mb:8.0f} {result.site_mb:8.1f} "
            f"{plain.wall:8.1f} {plain.peak_mb:8.0f}",
            flush=True,
        )
    if len(registries) > 1:
        print_fit(points)


def print_fit(points: dict[str, list[tuple[int, float]]]) -> None:
    """One line: how each measured figure grows with the number of tools."""
    print("fit: " + ", ".join(f"{name} ~ tools^{exponent(p):.2f}" for name, p in points.items()))
