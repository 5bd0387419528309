"""Validation and catalog of registry folders in a fresh process: wall time, CPU time, peak memory.

python -m benchmarks.catalogrun FOLDER...     (prints one JSON line)
"""

from __future__ import annotations

import json
import resource
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def main(argv: list[str]) -> int:
    """Load, check and catalogue (no tool runs) the folders; print the figures."""
    started = time.perf_counter()
    from generator.pipeline import site_catalog

    catalog = site_catalog([Path(a) for a in argv], REPO / "schemas", None)
    wall = time.perf_counter() - started
    usage = resource.getrusage(resource.RUSAGE_SELF)
    tools = sum(len(p.plugin.tools) for p in catalog.plugins if p.plugin)
    figures = {
        "tools": tools,
        "files": sum(len(p.documents) for p in catalog.plugins),
        "findings": len(catalog.findings),
        "wall": round(wall, 3),
        "cpu": round(usage.ru_utime + usage.ru_stime, 3),
        "peak_mb": round(usage.ru_maxrss / 1024, 1),
    }
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
