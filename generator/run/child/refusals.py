"""The first mapping the address-space limit refused in this process, even when a library caught
the error: a later failure may only follow from it, and then it is the runner's limit that stopped
the run, not the plugin.

torch is the case in point: a library that tries `import torch` and catches the ImportError
("libtorch_cpu.so: failed to map segment from shared object") leaves torch half initialised, and
the next `import torch` fails with "`torch` can only be initialized once per process", which names
no limit. Exceptions are seen with `sys.monitoring`'s RAISE event (Python 3.12+), which costs
nothing until an exception is raised; without it, only a failure that itself names the refused
mapping is known."""

from __future__ import annotations

import sys
import types
from typing import Any

from ..wire import MAPPING_REFUSED
from .origin import free_tool

# The exception types a refused mapping arrives as: the loader's error through `import` or ctypes,
# and `mmap`'s ENOMEM.
_KINDS = (ImportError, OSError)
_MAX_TEXT = 500


class _Seen:
    first: BaseException | None = None
    tool: int | None = None
    monitoring: Any = None


def watch() -> None:
    """Start noting the first refused mapping of this process (a fresh child per example)."""
    monitoring: Any = getattr(sys, "monitoring", None)
    if monitoring is None:
        return
    # Kept on for the whole run, not only while the tool's module loads: libraries such as torch
    # are often imported lazily inside `_invoke`.
    tool = free_tool(monitoring)
    if tool is not None:
        _Seen.tool, _Seen.monitoring = tool, monitoring
        monitoring.register_callback(tool, monitoring.events.RAISE, _raised)
        monitoring.set_events(tool, monitoring.events.RAISE)


def _raised(code: types.CodeType, offset: int, problem: BaseException) -> None:
    if _Seen.first is not None or not isinstance(problem, _KINDS):
        return
    try:
        refused = MAPPING_REFUSED.search(str(problem)[:_MAX_TEXT]) is not None
    except Exception:  # an exception class of a library whose __str__ fails
        return
    if refused:
        _Seen.first = problem
        # only the first refusal is kept: no further exception of this process needs a look
        _Seen.monitoring.set_events(_Seen.tool, 0)


def earlier_refusal(problem: BaseException) -> str | None:
    """`Type: message` of the first refused mapping of this process, unless it is `problem` itself."""
    first = _Seen.first
    if first is None or first is problem:
        return None
    try:
        text = str(first)[:_MAX_TEXT]
    except Exception:
        return None
    return f"{type(first).__name__}: {text}"
