"""Tell the registry's own failure from the plugin's when an environment build fails.

The isolated build runs the registry's build helper (`python -m generator.run.builder`, see
`envbuild.py`), whose output is the build's problem text. When the helper itself is broken (a module
it imports has a syntax error), that text is a Python traceback through the registry's files, and
reporting it as the plugin's R009 would blame a stranger for the registry's bug. Text alone could be
forged by a build script that prints such lines, so the helper is imported once more, in a fresh
interpreter started as the build starts it: only when that fails too is the failure the registry's.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import generator
from generator.errors import BrokenRegistry

PACKAGE = Path(generator.__file__).resolve().parent
# A traceback's frame: `File "/path/to/module.py", line 12` (the problem text is one line).
_FRAME = re.compile(r'File "([^"]{1,1000}\.py)", line \d+')
_IMPORT_TIMEOUT = 60


def registry_frames(problem: str, package: Path = PACKAGE) -> list[str]:
    """The files of the registry's package that a traceback in the problem text passes through."""
    inside = str(package) + "/"
    return [found for found in dict.fromkeys(_FRAME.findall(problem)) if found.startswith(inside)]


def helper_import_failure(package: Path = PACKAGE) -> str:
    """Why the build helper does not import ("" when it does), as `python -I -B` imports it."""
    code = f"import sys; sys.path.insert(0, {str(package.parent)!r}); import generator.run.builder"
    done = subprocess.run(
        [sys.executable, "-I", "-B", "-c", code],
        capture_output=True,
        text=True,
        timeout=_IMPORT_TIMEOUT,
        check=False,
    )
    if done.returncode == 0:
        return ""
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    return " ".join(" ".join(lines[-4:]).split()) or f"exit status {done.returncode}"


def raise_if_own(problem: str, package: Path = PACKAGE) -> None:
    """Raise BrokenRegistry when the failed build's problem is the registry's own (see above)."""
    frames = registry_frames(problem, package)
    if not frames:
        return
    failure = helper_import_failure(package)
    if failure:
        raise BrokenRegistry(
            f"the registry's environment build helper (generator.run.builder) does not import: {failure}; "
            "environments cannot be built until the registry is fixed (this is not the plugin's fault)"
        )
