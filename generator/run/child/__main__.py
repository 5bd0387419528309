"""Starts the sandboxed worker: `python -I -S -B generator/run/child/__main__.py FD`.

The interpreter is the plugin environment's, isolated (-I) and without site-packages (-S), so
nothing of the project is importable: the runner's folder is loaded by path as a package of its
own name, which gives the child modules their relative imports, and the worker's loop is run.
"""

import importlib
import importlib.machinery
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

PACKAGE = "dify_registry_run"


def load(name: str) -> ModuleType:
    """`generator/run/<name>.py`, imported as `dify_registry_run.<name>` (siblings found by path)."""
    if PACKAGE not in sys.modules:
        spec = importlib.machinery.ModuleSpec(PACKAGE, None, is_package=True)
        spec.submodule_search_locations = [str(Path(__file__).resolve().parent.parent)]
        sys.modules[PACKAGE] = importlib.util.module_from_spec(spec)
    return importlib.import_module(f"{PACKAGE}.{name}")


if __name__ == "__main__":
    load("child.zygote").main()
