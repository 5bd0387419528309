"""Where in the plugin's code the value a run received came from: the `yield` its generator is
suspended at, or the `return` that ended a plain `_invoke`. A message the SDK cannot send is then
reported at that line, not at the tool's YAML.

A `return` is seen with `sys.monitoring` (Python 3.12+) on the one code object of `_invoke`, so no
other code of the run is slowed; without it, a plain `_invoke`'s line is not known."""

from __future__ import annotations

import contextlib
import inspect
import linecache
import sys
import types
from collections.abc import Iterator
from typing import Any

from ..wire import Frame


class Origin:
    """The plugin line that produced the values of one invocation, as far as it can be known."""

    def __init__(self, plugin_root: str) -> None:
        self.prefix = plugin_root + "/"
        self.returned: Frame | None = None
        self.produced: Any = None

    def _own(self, code: types.CodeType) -> bool:
        return code.co_filename.startswith(self.prefix)

    def _frame(self, code: types.CodeType, line: int) -> Frame:
        text = linecache.getline(code.co_filename, line).strip()
        return Frame(file=code.co_filename[len(self.prefix) :], line=line, code=text[:300])

    @contextlib.contextmanager
    def watching(self, invoke: Any) -> Iterator[None]:
        """Note the line of the `return` that ends `invoke` (the tool's own `_invoke`), while inside."""
        code = _code_of(invoke)
        monitoring = getattr(sys, "monitoring", None)
        if code is None or not self._own(code) or monitoring is None:
            yield
            return
        if code.co_flags & (inspect.CO_GENERATOR | inspect.CO_ASYNC_GENERATOR):
            yield  # a generator's line is read from its suspended frame instead
            return
        tool = free_tool(monitoring)
        if tool is None:
            yield
            return

        def returned(at: types.CodeType, offset: int, value: object) -> None:
            line = next((ln for start, end, ln in at.co_lines() if start <= offset < end and ln), None)
            if line is not None:
                self.returned = self._frame(at, line)

        try:
            monitoring.register_callback(tool, monitoring.events.PY_RETURN, returned)
            monitoring.set_local_events(tool, code, monitoring.events.PY_RETURN)
            yield
        finally:
            monitoring.set_local_events(tool, code, 0)
            monitoring.register_callback(tool, monitoring.events.PY_RETURN, None)
            monitoring.free_tool_id(tool)

    def line(self) -> Frame | None:
        """The plugin's line the last value came from: the innermost of its generators suspended
        at a `yield` (through `yield from`), else the `return` of a plain `_invoke`."""
        found: Frame | None = None
        current = self.produced
        for _depth in range(100):  # a chain of `yield from`, bounded: the objects are the tool's
            frame = getattr(current, "gi_frame", None)
            if isinstance(frame, types.FrameType) and self._own(frame.f_code):
                found = self._frame(frame.f_code, frame.f_lineno)
            current = getattr(current, "gi_yieldfrom", None)
            if current is None:
                break
        return found or self.returned


def _code_of(invoke: Any) -> types.CodeType | None:
    """The code object of the tool's `_invoke` (through decorators that keep `__wrapped__`); None
    for anything else. The class is the tool's: nothing about it may fail the run."""
    try:
        function = inspect.unwrap(invoke) if callable(invoke) else None
        code = getattr(getattr(function, "__func__", function), "__code__", None)
    except Exception:
        return None
    return code if isinstance(code, types.CodeType) else None


def free_tool(monitoring: Any) -> int | None:
    """A `sys.monitoring` tool id no one uses (the plugin may run a profiler or coverage of its own)."""
    for tool in (5, 4, 3, 2):
        try:
            monitoring.use_tool_id(tool, "dify-registry")
        except ValueError:
            continue
        return tool
    return None
