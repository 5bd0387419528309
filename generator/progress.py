"""Progress on a terminal: one line redrawn in place per stage (environment builds, runs, the site's
render), and a closing line per stage.

Shown only where a person watches: stderr is a terminal, not in CI (`CI` set, as every CI service
does), and not with `--format json` (whose reader is a program). Everywhere else every call is a
no-op, so the stages never ask whether to report. Hand-written rather than a library: one line,
redrawn with a carriage return, is all it draws, and the stages are called from the run pool's
threads, so drawing takes a lock.
"""

from __future__ import annotations

import os
import shutil
import sys
import threading
import time
from typing import IO

_CLEAR = "\r\033[K"  # back to the start of the line, erase it


def progress_wanted(format: str, stream: IO[str] | None = None) -> bool:
    """Whether to draw progress for output in `format`."""
    stream = stream or sys.stderr
    return format != "json" and not os.environ.get("CI") and stream.isatty()


class Stage:
    """One stage: `advance` after each unit of work, with what it was."""

    def __init__(self, stream: IO[str] | None, label: str, total: int) -> None:
        self.stream = stream
        self.label = label
        self.total = total
        self.done = 0
        self.started = time.monotonic()
        self.lock = threading.Lock()

    @classmethod
    def shown_if(cls, shown: bool, label: str, total: int) -> Stage:
        """A stage drawn on stderr when `shown`, else silent; the caller closes it."""
        return cls(sys.stderr if shown else None, label, total)

    def advance(self, what: str = "") -> None:
        """Count one unit done and redraw the line."""
        with self.lock:
            self.done += 1
            self._draw(what)

    def reach(self, done: int, what: str = "") -> None:
        """Set how many units are done (counted elsewhere) and redraw the line."""
        with self.lock:
            self.done = done
            self._draw(what)

    def show(self, what: str) -> None:
        """Redraw the line with what is under way, without counting."""
        with self.lock:
            self._draw(what)

    def _draw(self, what: str) -> None:
        if self.stream is None:
            return
        count = f"{self.done}/{self.total}" if self.total else str(self.done)
        line = f"{self.label} [{count}] {time.monotonic() - self.started:5.1f} s  {what}"
        width = shutil.get_terminal_size((80, 24)).columns - 1
        self.stream.write(_CLEAR + line[:width])
        self.stream.flush()

    def close(self) -> None:
        """Replace the line with the stage's closing line."""
        if self.stream is None:
            return
        count = f"{self.done}/{self.total} " if self.total else "done "
        seconds = time.monotonic() - self.started
        self.stream.write(f"{_CLEAR}{self.label}: {count}in {seconds:.1f} s\n")
        self.stream.flush()
