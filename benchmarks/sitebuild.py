"""One measured site build in a fresh process: generator vs MkDocs seconds, peak memory, site size.

    python -m benchmarks.sitebuild CONFIG SITE_DIR     (prints one JSON line)

A fresh process per build, so nothing is warm that a real `mkdocs build` would not have warm, and
`resource.getrusage` reports the peak memory of that build alone.
"""

from __future__ import annotations

import json
import logging
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def write_config(
    folder: Path, registries: list[Path], jobs: int = 0, schemas: Path = REPO / "schemas"
) -> Path:
    """An mkdocs.yml (JSON is YAML) like the repository's, over the given registry folders and
    schemas; `jobs` language builds at a time (0: one per core; the split clock needs 1, it sees
    one process)."""
    config = {
        "site_name": "Dify Plugin Registry",
        "site_url": "https://dify.ai/",
        "docs_dir": str(REPO / "registry"),
        "theme": {"name": "material", "features": ["navigation.prune"]},
        "plugins": [
            {
                "dify-registry": {
                    "registry": [str(r) for r in registries],
                    "schemas": str(schemas),
                    "jobs": jobs,
                }
            },
        ],
        "markdown_extensions": ["tables", "admonition"],
    }
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "mkdocs.yml"
    path.write_text(json.dumps(config), encoding="utf-8")
    return path


@dataclass(frozen=True)
class BuildResult:
    """Seconds by part of one build, its peak memory and the size of what it wrote."""

    catalog: float
    pages: float
    languages: float
    mkdocs: float
    search: float  # the search index of the written site (Pagefind), on MkDocs's side
    wall: float
    peak_mb: float
    site_mb: float
    files: int

    @property
    def generator(self) -> float:
        """Everything the generator adds (catalog included)."""
        return self.catalog + self.pages + self.languages

    @property
    def overhead_pct(self) -> float:
        """The generator's time as a share of MkDocs's own time for the same pages, the search index
        included (it used to be MkDocs's search plugin's)."""
        return 100 * self.generator / (self.mkdocs + self.search)


def tool_count(folders: list[Path]) -> int:
    """How many tools the plugin folders declare (loaded, not checked)."""
    from generator.inputs import open_inputs

    with open_inputs(folders) as inputs:
        return sum(len(p.plugin.tools) for p in inputs.plugins if p.plugin)


def folder_size(root: Path) -> tuple[float, int]:
    """Megabytes and number of files under `root`."""
    sizes = [p.stat().st_size for p in root.rglob("*") if p.is_file()]
    return sum(sizes) / 1e6, len(sizes)


def build_once(config: Path, site: Path) -> BuildResult:
    """Build in a child process and collect its figures."""
    command = [sys.executable, "-m", "benchmarks.sitebuild", str(config), str(site)]
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"site build failed:\n{done.stderr[-4000:]}")
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    size, files = folder_size(site)
    return BuildResult(**figures, site_mb=round(size, 1), files=files)


@dataclass(frozen=True)
class PlainBuild:
    """A build as users run it (every core), unmeasured inside: its wall time and peak memory."""

    wall: float
    peak_mb: float


def plain_build(config: Path, site: Path) -> PlainBuild:
    """Build in a child process with no clock inside; peak memory is the largest process's."""
    command = [sys.executable, "-m", "benchmarks.sitebuild", "--plain", str(config), str(site)]
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"site build failed:\n{done.stderr[-4000:]}")
    return PlainBuild(**json.loads(done.stdout.strip().splitlines()[-1]))


def median_plain(builds: list[PlainBuild]) -> PlainBuild:
    """Median wall time and peak memory over several plain builds."""
    return PlainBuild(statistics.median(b.wall for b in builds), statistics.median(b.peak_mb for b in builds))


def median_build(results: list[BuildResult]) -> BuildResult:
    """Median of each figure over several builds of the same site."""
    fields = BuildResult.__dataclass_fields__
    return BuildResult(**{name: statistics.median(getattr(r, name) for r in results) for name in fields})


def main(argv: list[str]) -> int:
    """Build once, print the split as one JSON line."""
    from benchmarks.clock import timed_build

    logging.getLogger("mkdocs").setLevel(logging.ERROR)
    if argv[0] == "--plain":
        return plain_main(*argv[1:])
    config, site = argv
    started = time.perf_counter()
    clock = timed_build(config, site)
    wall = time.perf_counter() - started
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    figures = {
        "catalog": clock.seconds.get("catalog", 0.0),
        "pages": clock.seconds.get("pages", 0.0),
        "languages": clock.seconds.get("languages", 0.0),
        "mkdocs": clock.mkdocs,
        "search": clock.search,
        "wall": wall,
        "peak_mb": peak_kb / 1024,
    }
    print(json.dumps({k: round(v, 3) for k, v in figures.items()}))
    return 0


def plain_main(config: str, site: str) -> int:
    """Build as `mkdocs build` does; print wall time and the peak memory of the largest process."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    started = time.perf_counter()
    build(load_config(config, site_dir=site))
    wall = time.perf_counter() - started
    peak_kb = max(
        resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
        resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,
    )
    print(json.dumps({"wall": round(wall, 3), "peak_mb": round(peak_kb / 1024, 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
