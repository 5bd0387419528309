"""Validation speed on the shared corpus, side by side with check-jsonschema.

Measures, in the same run and as medians over several runs:
- the whole validator in-process (load with positions, schema checks and every rule);
- the same through the command line (`python -m generator validate`, interpreter start included);
- `check-jsonschema --schemafile schemas/v1/tool.json` on every tool YAML (schema checks only).
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from generator.check import CheckContext
from tests.validating import validate_paths

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus" / "dify-official-plugins"
TOOL_SCHEMA = REPO / "schemas" / "v1" / "tool.json"
RUNS = 5


def plugin_folders(corpus: Path = CORPUS) -> list[Path]:
    """Every tool and datasource plugin of the corpus."""
    return [p for kind in ("tools", "datasources") for p in sorted((corpus / kind).iterdir()) if p.is_dir()]


def median_time(action: Callable[[], object], runs: int = RUNS) -> float:
    """Median wall time of `action` over `runs` runs, in seconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def run_quietly(command: list[str]) -> None:
    """Run a command, discarding its output (findings are expected: the corpus has defects)."""
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, cwd=REPO)


def main(argv: list[str]) -> int:
    """Print files per second and wall time of the validator and of check-jsonschema."""
    runs = 1 if "--quick" in argv else RUNS
    if not CORPUS.is_dir():
        print(f"the shared corpus is missing at {CORPUS}", file=sys.stderr)
        return 1
    folders = plugin_folders()
    first = validate_paths(folders, CheckContext())
    documents = sum(len(p.documents) for p in first.plugins)
    tool_files = sorted(
        str(p.root / relative) for p in first.plugins for relative, role in p.roles.items() if role == "tool"
    )
    check_jsonschema = shutil.which(
        "check-jsonschema", path=str(Path(sys.executable).parent)
    ) or shutil.which("check-jsonschema")
    env_python = [sys.executable, "-m", "generator", "validate", "--format", "json"]
    rows = [
        (
            "dify-registry validate (in-process)",
            documents,
            median_time(lambda: validate_paths(folders, CheckContext()), runs),
        ),
        (
            "dify-registry validate (command line)",
            documents,
            median_time(lambda: run_quietly([*env_python, *map(str, folders)]), runs),
        ),
    ]
    if check_jsonschema:
        command = [check_jsonschema, "--schemafile", str(TOOL_SCHEMA), *tool_files]
        rows.append(
            (
                "check-jsonschema tool.json (tools only)",
                len(tool_files),
                median_time(lambda: run_quietly(command), runs),
            )
        )
    print(
        f"corpus: {len(folders)} plugins, {documents} YAML files ({len(tool_files)} tool YAMLs), "
        f"{len(first.findings)} findings; median of {runs} runs; Python {sys.version.split()[0]}, "
        f"{os.cpu_count()} CPUs"
    )
    print(f"{'':42} {'files':>6} {'wall s':>8} {'files/s':>9}")
    for name, files, seconds in rows:
        print(f"{name:42} {files:6d} {seconds:8.3f} {files / seconds:9.0f}")
    if not check_jsonschema:
        print("check-jsonschema is not installed (it is a dev dependency): comparison skipped")
    return 0
