"""Incremental work after one manifest changes.

- `dify-registry build` with tool runs: a cold build, an unchanged rebuild, and a rebuild after one
  plugin's manifest changed; for each, the tool runs redone (new entries in the run cache), which
  plugins they belong to, and the cache hit rate.
- `mkdocs serve`: the time from changing one manifest's label until the served page shows it.
- `dify-registry build --no-run` of a collection (a copy of it): a first build, then one tool's
  description changed and the same folder built again (it renders only the pages whose content
  changed), against a full build of the changed collection into a new folder (what that rebuild
  cost before); CPU (user + system of every process of the command), wall time, the pages rendered,
  and what Pagefind's index of the whole site costs in each.

    python -m benchmarks incremental [--collection=DIR]    # default: 20 synthetic plugins x 5 tools
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
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


def cpu_of_children() -> float:
    """CPU seconds (user + system) of every finished child process of this one, theirs included."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def timed_build(collection: Path, site: Path, cache: Path) -> tuple[float, float, str]:
    """`dify-registry build --no-run` of `collection` into `site`: CPU s, wall s, and its stderr."""
    command = [str(Path(sys.executable).parent / "dify-registry"), "build", str(collection), "--no-run"]
    command += ["--site-dir", str(site), "--cache-dir", str(cache), "--format", "json"]
    cpu, started = cpu_of_children(), time.perf_counter()
    done = subprocess.run(command, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    wall = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"build failed: {done.stderr.decode(errors='replace')[-2000:]}")
    return cpu_of_children() - cpu, wall, done.stderr.decode(errors="replace")


def search_index_cost(site: Path) -> tuple[float, float]:
    """CPU s and wall s of Pagefind's index of every language of the built `site` (run again)."""
    command = [
        sys.executable,
        "-c",
        "import sys, pathlib; from generator.site.search import index_site; "
        "index_site(pathlib.Path(sys.argv[1]))",
        str(site),
    ]
    cpu, started = cpu_of_children(), time.perf_counter()
    subprocess.run(command, cwd=REPO, check=True)
    return cpu_of_children() - cpu, time.perf_counter() - started


# An English text on a line of its own: YAML (plain or double-quoted) or JSON (synthetic plugins).
DESCRIPTION = re.compile(r"""^(\s+"?en_US"?:\s*"?)([^"'|>\s][^"\n]*)""", re.MULTILINE)


def change_one_description(collection: Path) -> Path:
    """Append a sentence to the English text after the first `human:` of the first tool YAML of the
    first plugin (by name) that has one; the file changed."""
    for tool in sorted(collection.glob("*/tools/*.yaml")):
        text = tool.read_text(encoding="utf-8")
        start = text.find("human:")
        found = DESCRIPTION.search(text, start) if start >= 0 else None
        if found is not None:
            end = found.end(2)
            tool.write_text(text[:end] + " Changed for the benchmark." + text[end:], encoding="utf-8")
            return tool
    raise RuntimeError(f"no tool description to change under {collection}")


def measure_partial(collection: Path, work: Path) -> None:
    """A first build, a rebuild after one tool's description changed, and a full build of the
    changed collection; each with its CPU and wall time, and the cost of the search index."""
    copy = work / "collection"
    shutil.copytree(collection, copy, symlinks=True)
    site, full, cache = work / "site", work / "full", work / "cache"
    print(f"\nrebuild after one tool's description changed: {collection}")
    print(f"{'build':58} {'CPU s':>7} {'wall s':>7}", flush=True)
    cpu, wall, _said = timed_build(copy, site, cache)
    print(f"{'first build':58} {cpu:7.1f} {wall:7.1f}", flush=True)
    changed = change_one_description(copy)
    cpu, wall, said = timed_build(copy, site, cache)
    pages = next((line for line in said.splitlines() if " pages: " in line), "(no pages line)")
    print(f"{'the same folder again (renders what changed)':58} {cpu:7.1f} {wall:7.1f}  {pages}", flush=True)
    cpu, wall, _said = timed_build(copy, full, cache)
    print(f"{'a full build of the changed collection (as before)':58} {cpu:7.1f} {wall:7.1f}", flush=True)
    cpu, wall = search_index_cost(site)
    print(f"{'of which the search index (Pagefind, every language)':58} {cpu:7.1f} {wall:7.1f}", flush=True)
    print(f"(changed: {changed.relative_to(copy)})")


def main(argv: list[str]) -> int:
    """`python -m benchmarks incremental [--collection=DIR]`."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks incremental", description=__doc__)
    parser.add_argument("--collection", type=Path, default=None, help="a folder of plugins")
    parser.add_argument("--quick", action="store_true", help="(accepted; the measure is the same)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-partial-") as folder:
        work = Path(folder)
        collection = args.collection or make_registry(work / "synthetic", 20, 5) / "plugins"
        measure_partial(collection.resolve(), work / "partial")
    return 0


def measure_incremental(work: Path, quick: bool) -> None:
    """Both incremental measurements."""
    measure_builds(work, 4 if quick else 10, 3)
    measure_serve(work, 10, 10)
