"""Site build speed: the generator's time against MkDocs's own time for the same pages.

    python -m benchmarks site [--quick] [--runs N] [--plugins 100 --tools 10] [--corpus PATH]

Each build is a real `mkdocs build` in four languages, in a fresh process (see `sitebuild.py`). The
generator's time is everything it adds: the catalog (load + check; tool runs are not part of these
builds), rendering every generated page in every language, the files published once, and loading
one configuration per extra language. MkDocs's own time is the rest of the same build (Markdown,
theme templates, search index, copying). Target: the generator adds at most 15% to MkDocs's time.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from benchmarks.sitebuild import (
    BuildResult,
    PlainBuild,
    build_once,
    median_build,
    median_plain,
    plain_build,
    tool_count,
    write_config,
)
from benchmarks.synthetic import make_registry
from benchmarks.validation import CORPUS, plugin_folders

HEADER = (
    f"{'site':28} {'tools':>6} {'catalog s':>9} {'pages s':>8} {'langs s':>8} {'generator s':>11} "
    f"{'mkdocs s':>9} {'search s':>8} {'overhead':>9} {'wall s':>7} {'peak MB':>8} {'site MB':>8} "
    f"{'cores s':>8} {'peak MB':>8}"
)


def row(name: str, tools: int, result: BuildResult, plain: PlainBuild) -> str:
    """One line of the results table."""
    return (
        f"{name:28} {tools:6d} {result.catalog:9.2f} {result.pages:8.2f} {result.languages:8.2f} "
        f"{result.generator:11.2f} {result.mkdocs:9.2f} {result.search:8.2f} {result.overhead_pct:8.1f}% "
        f"{result.wall:7.1f} "
        f"{result.peak_mb:8.0f} {result.site_mb:8.1f} {plain.wall:8.1f} {plain.peak_mb:8.0f}"
    )


def measure(name: str, registries: list[Path], work: Path, runs: int) -> tuple[BuildResult, PlainBuild]:
    """Median figures of `runs` measured one-process builds of the same site, and of `runs` builds
    as users run them (the languages on every core)."""
    split = write_config(work / name / "split", registries, jobs=1)
    result = median_build([build_once(split, work / name / "site") for _ in range(runs)])
    cores = write_config(work / name / "cores", registries)
    return result, median_plain([plain_build(cores, work / name / "site") for _ in range(runs)])


def main(argv: list[str]) -> int:
    """Print the table: a synthetic registry and the shared corpus."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks site",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--plugins", type=int, default=100)
    parser.add_argument("--tools", type=int, default=10, help="tools per plugin")
    parser.add_argument("--runs", type=int, default=3, help="builds per site (the median is shown)")
    parser.add_argument("--quick", action="store_true", help="one build of each site")
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    args = parser.parse_args(argv)
    runs = 1 if args.quick else args.runs
    print(
        f"site builds in four languages; median of {runs} build(s) each; overhead = generator / (mkdocs "
        "+ search) in one process (search: Pagefind over the written site); cores s = wall time of "
        "the same build with the languages on every core"
    )
    print(HEADER, flush=True)
    with tempfile.TemporaryDirectory(prefix="bench-site-") as folder:
        work = Path(folder)
        registry = make_registry(work / "synthetic", args.plugins, args.tools)
        tools = args.plugins * args.tools
        print(
            row(
                f"synthetic {args.plugins}x{args.tools}", tools, *measure("synthetic", [registry], work, runs)
            )
        )
        if args.corpus.is_dir():
            folders = plugin_folders(args.corpus)
            print(row("corpus (dify-official)", tool_count(folders), *measure("corpus", folders, work, runs)))
        else:
            print(f"(corpus not found at {args.corpus}: skipped)")
    return 0
