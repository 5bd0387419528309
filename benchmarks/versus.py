"""One `dify-registry` command, in this checkout and in another (an older commit), runs interleaved.

    python -m benchmarks.versus --base ../wt-base [--runs 7] -- validate PATH --format json
    python -m benchmarks.versus --base ../wt-base --runs 3 --fresh-folders -- build PATH --no-run

Each side runs its own `.venv/bin/dify-registry` in its own checkout (`make setup` makes it), the two
sides alternating run by run, so that a machine shared with other work loads both alike. A run's
figures come from the kernel's account of the process and every child it waited for (`wait4`):
CPU (user + system), wall time and peak resident memory. On a loaded machine CPU is the figure to
compare; the spread of the runs is printed with the medians.

`--fresh-folders` gives every run of `build` (or `serve`) a new `--site-dir` and `--cache-dir`
under a temporary folder, deleted after the run: the unchanged-build record would otherwise make
every run after the first nearly free. `--warm-up` runs the command once on each side before the
measured runs (with `PYTHONPYCACHEPREFIX` set and `PYTHONDONTWRITEBYTECODE` unset, that run writes
the bytecode the measured runs then read, as an installed generator has it).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Run:
    """One command's account: CPU seconds (user + system), wall seconds, peak RSS in MB."""

    cpu: float
    wall: float
    peak_mb: float
    status: int


def run_once(checkout: Path, command: list[str], fresh_folders: bool) -> Run:
    """Run `dify-registry COMMAND` in `checkout`, output discarded, and account for it."""
    executable = checkout / ".venv" / "bin" / "dify-registry"
    with tempfile.TemporaryDirectory(prefix="versus-") as scratch:
        extra = ["--site-dir", f"{scratch}/site", "--cache-dir", f"{scratch}/cache"] if fresh_folders else []
        start = time.perf_counter()
        child = subprocess.Popen(
            [str(executable), *command, *extra],
            cwd=checkout,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _pid, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
        shutil.rmtree(scratch, ignore_errors=True)
    # ru_maxrss is in kilobytes on Linux; it is the largest of the process and its waited children.
    return Run(usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024, child.returncode)


def spread(values: list[float]) -> str:
    """`median (min-max)` with two decimals."""
    return f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"


def main(argv: list[str]) -> int:
    """Run the command `--runs` times on each side, alternating, and print every run and the medians."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.versus", description=__doc__.split("\n")[0])
    parser.add_argument("--base", type=Path, required=True, help="the other checkout (with its .venv)")
    parser.add_argument("--runs", type=int, default=7, help="runs on each side (default: 7)")
    parser.add_argument("--fresh-folders", action="store_true", help="new --site-dir and --cache-dir per run")
    parser.add_argument("--warm-up", action="store_true", help="one unmeasured run on each side first")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the dify-registry command, after --")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    sides = {"base": args.base.resolve(), "this": REPO}
    for name, checkout in sides.items():
        if not (checkout / ".venv" / "bin" / "dify-registry").is_file():
            print(f"{name}: no .venv/bin/dify-registry in {checkout} (`make setup` there)", file=sys.stderr)
            return 2
    print(f"dify-registry {' '.join(command)}{' (fresh folders)' if args.fresh_folders else ''}")
    for name, checkout in sides.items():
        head = subprocess.run(
            ["git", "-C", str(checkout), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=False,
        )
        print(f"  {name}: {checkout} at {head.stdout.strip() or 'unknown commit'}")
    results: dict[str, list[Run]] = {name: [] for name in sides}
    for checkout in sides.values() if args.warm_up else ():  # bytecode written, files cached
        run_once(checkout, command, args.fresh_folders)
    for index in range(args.runs):
        for name, checkout in sides.items():
            run = run_once(checkout, command, args.fresh_folders)
            results[name].append(run)
            print(
                f"  run {index + 1} {name}: CPU {run.cpu:.2f} s, wall {run.wall:.2f} s, "
                f"peak {run.peak_mb:.0f} MB, exit {run.status}",
                flush=True,
            )
    print(f"  load average at the end: {' '.join(f'{v:.1f}' for v in os.getloadavg())}")
    print("side   CPU s median (min-max)   wall s median (min-max)   peak MB median")
    for name, runs in results.items():
        cpu = spread([r.cpu for r in runs])
        wall = spread([r.wall for r in runs])
        peak = statistics.median(r.peak_mb for r in runs)
        print(f"{name:5}  {cpu:23}  {wall:24}  {peak:.0f}")
    base = statistics.median(r.cpu for r in results["base"])
    this = statistics.median(r.cpu for r in results["this"])
    print(f"this / base CPU: {this / base:.3f} ({(this - base) / base:+.1%})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
