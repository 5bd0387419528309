"""Peak memory of a site build: the build's own process, and the largest of its child processes
(the forked builds of the other languages, Pagefind's runs), each as the kernel counts it (peak
resident set size; a forked child counts the pages it shares with its parent too).

    python -m benchmarks memory --registry=DIR     a registry folder (Dify's official tools, say)
    python -m benchmarks memory [--tools=1000]     a synthetic registry of that size

Then every process of the build with its own peak (sampled every 50 ms: the build, its forked
language builds, each Pagefind run with the pages it indexed), the memory the build's processes
held at once (their PSS summed, sampled: `treemem`), and the search index alone: Pagefind run
again over the built site, as the build runs it.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.sitebuild import write_config
from benchmarks.synthetic import make_registry
from benchmarks.treemem import ProcessPeak, TreePeak, watch, watch_each

# Run in a fresh interpreter, so that nothing of this process counts: the build, then what the
# kernel kept of its own peak and of its largest waited-for child.
BUILD = """
import json, resource, sys
from generator.cli import main
main(["build", sys.argv[1], "--site-dir", sys.argv[2], "--no-run", "--format", "json"])
whose = (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
print(json.dumps([resource.getrusage(who).ru_maxrss for who in whose]))
"""
# Issue 38: the official catalog's build peaks under this in every process.
GOAL_MB = 300
SEARCH = """
import json, resource, sys
from pathlib import Path
from generator.site.search import index_site
index_site(Path(sys.argv[1]))
print(json.dumps([resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss]))
"""


def peaks(
    script: str, *args: str, tree: TreePeak | None = None, each: dict[int, ProcessPeak] | None = None
) -> list[float]:
    """Run `script` in a child interpreter; the peaks it prints, in MB (ru_maxrss is in KiB). With
    `tree`, the largest memory its process tree held at once is kept there; with `each`, every
    process's own peak."""
    command = [sys.executable, "-c", script, *args]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as process:
        watchers = [watch(process, tree)] if tree is not None else []
        watchers += [watch_each(process, each)] if each is not None else []
        out, err = process.communicate()
    for watcher in watchers:
        watcher.join()
    if process.returncode != 0:
        raise subprocess.CalledProcessError(process.returncode, command, out, err)
    return [kib / 1024 for kib in json.loads(out.strip().splitlines()[-1])]


def measure(registry: Path, base: Path) -> None:
    """Build `registry` into `base/site` and print the peaks."""
    site = base / "site"
    tree, each = TreePeak(), dict[int, ProcessPeak]()
    own, child = peaks(BUILD, str(registry), str(site), tree=tree, each=each)
    (search,) = peaks(SEARCH, str(site))
    print("each process of the build, its own peak (sampled every 50 ms):")
    # A fork seen once is a subprocess's child before it became another program (git, say): its
    # figure is the build's own memory, shared, already counted as the build's.
    shown = sorted(
        (peak for peak in each.values() if peak.role != "forked language build" or peak.last > peak.first),
        key=lambda peak: peak.first,
    )
    for peak in shown:
        print(f"  {peak.mb:6.0f} MB  {peak.first:6.1f}-{peak.last:6.1f} s  {peak.role}")
    largest = max(shown, key=lambda peak: peak.mb)
    print(f"largest process            {largest.mb:8.0f} MB  ({largest.role})")
    verdict = "met" if largest.mb < GOAL_MB else "not met"
    print(f"every process under {GOAL_MB} MB (issue 38): {verdict}")
    print(f"build process peak         {own:8.0f} MB")
    print(f"largest child process peak {child:8.0f} MB")
    print(f"whole build peak           {max(own, child):8.0f} MB  (the largest process)")
    shares = ", ".join(f"{name} {mb:.0f}" for name, mb in tree.shares)
    print(f"held at once, summed PSS   {tree.mb:8.0f} MB  ({shares})")
    print(f"search index (Pagefind)    {search:8.0f} MB")


def main(argv: list[str]) -> int:
    """Measure a build of `--registry`, or of a synthetic registry of `--tools` tools."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks memory", description=__doc__)
    parser.add_argument("--registry", type=Path, default=None)
    parser.add_argument("--tools", type=int, default=1000)
    parser.add_argument("--quick", action="store_true", help="100 tools when no registry is given")
    args, _ = parser.parse_known_args(argv)
    with tempfile.TemporaryDirectory(prefix="memory-") as folder:
        base = Path(folder)
        if args.registry is None:
            tools = 100 if args.quick else args.tools
            registry = make_registry(base / "registry", max(1, tools // 10), 10)
            print(f"synthetic registry: {tools} tools")
            measure(write_config(base / "config", [registry]).parent, base)
        else:
            print(f"registry: {args.registry}")
            measure(args.registry.resolve(), base)
    return 0
