"""`python -m benchmarks shards --plugins=DIR`: a cold run of the plugins in DIR (plugin folders,
kept outside the repository) in one process against two shards run at once, then the site built
from the two shards' merged caches (which runs nothing), and the disk the one process's
environments take.

Each cold run gets an empty cache of its own (environments built, every example run); uv's own
download cache is the machine's, as on a runner that keeps it between runs. Disk is counted in
blocks: "full copies" sums each environment alone (what it would take with nothing shared), "on
disk" counts every inode of the environments and the shared store once (as `du` counts them
together, and `cache info`).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from generator.run.cachedir import disk_size
from generator.run.share import STORE

REPO = Path(__file__).resolve().parent.parent
SCRIPT = Path(sys.executable).parent / "dify-registry"


def _registry(plugins: Path, target: Path) -> Path:
    """A registry at `target`: the repository's site configuration, pages and schemas, and the
    plugin folders of `plugins`."""
    target.mkdir()
    shutil.copy2(REPO / "mkdocs.yml", target / "mkdocs.yml")
    for folder in ("registry", "schemas"):
        shutil.copytree(REPO / folder, target / folder)
    for plugin in sorted(p for p in plugins.iterdir() if (p / "manifest.yaml").is_file()):
        shutil.copytree(plugin, target / "plugins" / plugin.name, symlinks=True)
    return target


def _start(registry: Path, *args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [str(SCRIPT), *args], cwd=registry, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )


def _timed(registry: Path, *commands: list[str]) -> float:
    """Seconds from starting all `commands` at once until the last one ends."""
    started = time.perf_counter()
    for process in [_start(registry, *command) for command in commands]:
        process.wait()
    return time.perf_counter() - started


def _environment_disk(cache: Path) -> tuple[int, int, int]:
    """How many environments `cache` holds, their size as full copies, and on disk with the
    shared store (every inode once)."""
    environments = sorted(p for p in (cache / "envs").iterdir() if p.is_dir())
    alone = sum(disk_size(environment, set()) for environment in environments)
    seen: set[tuple[int, int]] = set()
    together = sum(disk_size(folder, seen) for folder in [*environments, cache / STORE])
    return len(environments), alone, together


def main(argv: list[str]) -> int:
    """Measure and print the three figures."""
    given = [arg.removeprefix("--plugins=") for arg in argv if arg.startswith("--plugins=")]
    if not given:
        print("shards: skipped (give --plugins=DIR, a folder of plugin folders)")
        return 0
    plugins = Path(given[0])
    with tempfile.TemporaryDirectory(prefix="dify-registry-shards-") as temporary:
        base = Path(temporary)
        registry = _registry(plugins, base / "registry")
        print(f"load {' '.join(f'{load:.1f}' for load in os.getloadavg())} at the start")
        count = len(list((registry / "plugins").iterdir()))
        one = _timed(registry, ["run", ".", "--cache-dir", str(base / "one")])
        caches = [base / "shard-1", base / "shard-2"]
        shards = [["run", ".", "--shard", f"{i}/2", "--cache-dir", str(c)] for i, c in enumerate(caches, 1)]
        two = _timed(registry, *shards)
        merged = base / "merged"
        merge = _timed(registry, ["cache", "merge", *map(str, caches), "--into", str(merged)])
        build = _timed(registry, ["build", ".", "--site-dir", str(base / "site"), "--cache-dir", str(merged)])
        nothing_built = not (merged / "envs").exists()
        built, alone, together = _environment_disk(base / "one")
        mib = 1024**2 * max(built, 1)
        print(f"{count} plugins, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f} at the end")
        print(f"cold run, one process: {one:.1f} s")
        print(f"cold run, two shards at once: {two:.1f} s")
        print(f"cache merge: {merge:.1f} s; build from the merged cache: {build:.1f} s")
        print(f"environments built by that build: {'none' if nothing_built else 'some (a run was missing)'}")
        print(f"{built} environments, MiB each: full copies {alone / mib:.1f}, on disk {together / mib:.1f}")
    return 0
