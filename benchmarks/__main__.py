"""`python -m benchmarks [NAME...] [OPTIONS]`: run the named benchmarks (all when none is named).

Options (such as `--quick`, fewer and smaller runs) are handed to every named benchmark.
"""

from __future__ import annotations

import importlib
import sys

# name -> module under benchmarks/ exposing `main(argv) -> int`
BENCHMARKS: dict[str, str] = {
    "validate": "benchmarks.validation",
    "site": "benchmarks.site",
    "scale": "benchmarks.scale",
    "runner": "benchmarks.runner",
    "shards": "benchmarks.shards",
    "weight": "benchmarks.weight",
    "memory": "benchmarks.memory",
    "incremental": "benchmarks.incremental",
}


def main(argv: list[str]) -> int:
    """Dispatch to each named benchmark in turn."""
    names = [arg for arg in argv if not arg.startswith("-")] or list(BENCHMARKS)
    options = [arg for arg in argv if arg.startswith("-")]
    unknown = [name for name in names if name not in BENCHMARKS]
    if unknown:
        print(f"unknown benchmark(s): {', '.join(unknown)}; known: {', '.join(BENCHMARKS)}", file=sys.stderr)
        return 2
    status = 0
    for name in names:
        print(f"== {name}", flush=True)
        status |= importlib.import_module(BENCHMARKS[name]).main(options)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
