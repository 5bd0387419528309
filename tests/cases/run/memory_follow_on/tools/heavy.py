"""Stands for a library like torch: importing it maps a native library larger than the runner's
address-space limit, and once its import has started it refuses to start again in the process."""

import ctypes
import sys
from pathlib import Path

if getattr(sys, "_case_heavy_started", False):
    raise ImportError("`heavy` can only be initialized once per process")
sys._case_heavy_started = True  # type: ignore[attr-defined]

native = ctypes.CDLL(str(Path(__file__).with_name("reserve.so")))
