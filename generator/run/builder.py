"""The environment build inside its sandbox, where a source distribution's build backend (a
stranger's code) runs.

Started by the generator as `unshare --pid --ipc --fork --kill-child --mount-proc ... python -I -m
generator.run.builder CONFIG` (see `build.py`): new PID, IPC and mount namespaces, but the machine's
network, since uv fetches packages and build backends from the index. As root it covers the
private and shared folders with empty tmpfs (the runner's own `isolation.hide_private_folders`), binds back
read-only what the build reads (the interpreter, uv) and the environment's folder writable, sets
the resource limits and drops to the build's own unprivileged uid. Only then does it run the uv
steps, with the environment named in CONFIG and the requirements on stdin.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from generator.run.child import isolation
from generator.run.wire import ResourceLimits

# The private /tmp holds the build's HOME and temporary files (the uv cache is on disk).
TMP_BYTES = 1024**3


def enter(config: dict[str, Any]) -> None:
    """Hide, bind, limit and drop privileges (as root, inside fresh namespaces)."""
    target = os.path.realpath(config["target"])
    original = os.open(target, os.O_PATH | os.O_DIRECTORY)
    needed = [os.path.realpath(p) for p in [*config["readable"], target]]
    isolation.hide_private_folders(needed, TMP_BYTES)
    # the environment was bound back read-only with the rest; the build writes there
    isolation.bind(f"/proc/self/fd/{original}", target, read_only=False, recursive=False)
    os.close(original)
    os.umask(0o022)
    isolation.set_limits(ResourceLimits(**config["limits"]), True)
    isolation.drop_privileges(int(config["uid"]))


def main() -> None:
    """Enter the sandbox, then run each step; the first that fails ends the build with its status."""
    config = json.loads(sys.argv[1])
    enter(config)
    environment: dict[str, str] = config["env"]
    Path(environment["HOME"]).mkdir(parents=True, exist_ok=True)
    steps: list[list[str]] = config["steps"]
    for number, step in enumerate(steps, start=1):
        # only the last step (the install) reads the requirements from stdin
        stdin = None if number == len(steps) else subprocess.DEVNULL
        done = subprocess.run(step, cwd=config["cwd"], env=environment, stdin=stdin, check=False)
        if done.returncode != 0:
            sys.exit(done.returncode)


if __name__ == "__main__":
    main()
