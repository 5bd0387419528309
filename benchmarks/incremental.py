"""Incremental work after one manifest changes.

- `dify-registry build` with tool runs: a cold build, an unchanged rebuild, and a rebuild after one
  plugin's manifest changed; for each, the tool runs redone (new entries in the run cache), which
  plugins they belong to, and the cache hit rate.
- `mkdocs serve`: the time from changing one manifest's label until the served page shows it.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlparse

from benchmarks.sitebuild import REPO, write_config
from benchmarks.synthetic import make_registry

SERVE_WITHIN = 900.0


def cached_runs(cache: Path) -> dict[str, str]:
    """Run cache key -> the plugin whose tool ran."""
    found = {}
    for record in (cache / "runs").glob("*/run.json"):
        found[record.parent.name] = json.loads(record.read_text(encoding="utf-8"))["tool"]["plugin"]
    return found


def build(config_dir: Path, cache: Path) -> float:
    """`dify-registry build` with tool runs; its wall time."""
    command = [
        str(Path(sys.executable).parent / "dify-registry"),
        "build",
        str(config_dir),
        "--site-dir",
        str(config_dir / "site"),
        "--cache-dir",
        str(cache),
        "--format",
        "json",
    ]
    started = time.perf_counter()
    subprocess.run(command, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - started


def relabel_manifest(manifest: Path, label: str) -> None:
    """Give a synthetic plugin (its manifest is a comment line and JSON) a new English label."""
    header, _, body = manifest.read_text(encoding="utf-8").partition("\n")
    data = json.loads(body)
    data["label"]["en_US"] = label
    manifest.write_text(
        header + "\n" + json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
    )


def measure_builds(work: Path, plugins: int, tools: int) -> None:
    """Cold, unchanged and one-manifest-changed builds with tool runs."""
    registry = make_registry(work / "incremental", plugins, tools)
    config_dir = write_config(work / "incremental-config", [registry]).parent
    cache = work / "incremental-cache"
    print(f"\nincremental `dify-registry build` with tool runs: {plugins} plugins x {tools} tools")
    print(f"{'build':34} {'wall s':>8} {'runs':>5} {'re-run':>7} {'hit rate':>9}  re-run plugins", flush=True)
    before: dict[str, str] = {}
    total = 0  # the runs of one build: every example and required-only run of the cold build
    touched = registry / "plugins" / "synthetic_00001" / "manifest.yaml"
    for name, change in (
        ("cold (empty run cache)", None),
        ("unchanged", None),
        ("after changing one manifest", touched),
    ):
        if change is not None:
            relabel_manifest(change, "Touched plugin")
        seconds = build(config_dir, cache)
        after = cached_runs(cache)
        fresh = sorted(set(after) - set(before))
        total = total or len(after)
        rate = 100 * (total - len(fresh)) / total
        owners = ", ".join(sorted({after[key] for key in fresh})) if len(fresh) < total else "all"
        print(f"{name:34} {seconds:8.1f} {total:5d} {len(fresh):7d} {rate:8.0f}%  {owners}", flush=True)
        before = after


def free_port() -> int:
    """A localhost port nobody listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def wait_for(url: str, text: str, process: subprocess.Popen[bytes]) -> float:
    """Seconds until `url` answers with a body containing `text`."""
    started = time.perf_counter()
    while time.perf_counter() - started < SERVE_WITHIN and process.poll() is None:
        try:
            with urllib.request.urlopen(url, timeout=10) as response:
                if text in response.read().decode("utf-8"):
                    return time.perf_counter() - started
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{url} never showed {text!r}")


def measure_serve(work: Path, plugins: int, tools: int) -> None:
    """Time of the first build and of the rebuild after one manifest changes, under `mkdocs serve`."""
    registry = make_registry(work / "serve", plugins, tools)
    config = write_config(work / "serve-config", [registry])
    port = free_port()
    base = f"http://127.0.0.1:{port}/"
    command = [
        str(Path(sys.executable).parent / "mkdocs"),
        "serve",
        "-f",
        str(config),
        "-a",
        f"127.0.0.1:{port}",
    ]
    process = subprocess.Popen(
        command, cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    try:
        first = wait_for(base + "index.json", '"plugins"', process)
        with urllib.request.urlopen(base + "index.json", timeout=10) as response:
            index = json.loads(response.read())
        page = base + urlparse(index["plugins"][1]["pages"]["en_US"]).path.lstrip("/")
        wait_for(page, "</html>", process)
        label = f"Relabelled {os.getpid()}"
        relabel_manifest(registry / "plugins" / "synthetic_00001" / "manifest.yaml", label)
        rebuild = wait_for(page, label, process)
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    print(f"\n`mkdocs serve`, {plugins * tools} tools in four languages (no tool runs)")
    print(
        f"first build served after {first:.1f} s; after one manifest changed, "
        f"the page showed it after {rebuild:.1f} s"
    )
    print("(MkDocs rebuilds the whole site on every change, and the catalog is built again from the files)")


def measure_incremental(work: Path, quick: bool) -> None:
    """Both incremental measurements."""
    measure_builds(work, 4 if quick else 10, 3)
    measure_serve(work, 10, 10)
