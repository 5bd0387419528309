"""`python -m benchmarks [NAME...]`: run the named benchmarks (all when none is named)."""

from __future__ import annotations

import importlib
import sys

# name -> module under benchmarks/ exposing `main(argv) -> int`
BENCHMARKS: dict[str, str] = {
    "validate": "benchmarks.validation",
    "runner": "benchmarks.runner",
}


def main(argv: list[str]) -> int:
    """Dispatch to each named benchmark in turn."""
    names = argv or list(BENCHMARKS)
    unknown = [name for name in names if name not in BENCHMARKS]
    if unknown:
        print(f"unknown benchmark(s): {', '.join(unknown)}; known: {', '.join(BENCHMARKS)}", file=sys.stderr)
        return 2
    status = 0
    for name in names:
        status |= importlib.import_module(BENCHMARKS[name]).main([])
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
