"""The recorder's own packages (vcrpy and what it needs), installed once per Python version into a
folder of the run cache that replaying and recording children add to the end of `sys.path`.

They are kept out of the plugin's environment on purpose: the plugin's requirements are resolved
as Dify resolves them, and an example without a recording never sees vcrpy. Only wheels are
installed (pinned here, from the package index), so no package code runs while installing."""

from __future__ import annotations

import subprocess
from pathlib import Path

from generator.run.envbuild import uv_environment
from generator.run.environment import find_uv, locked

# The version the recorder is written against (vcrpy's persister and request hooks).
VCRPY = "vcrpy==9.4.2"


def ensure_overlay(python: Path, version: str, cache: Path, offline: bool) -> tuple[Path | None, str]:
    """The overlay folder for that interpreter, installed when missing; else None and why."""
    target = cache / "overlays" / f"py{version}-{VCRPY.replace('==', '-')}"
    with locked(cache / "overlays" / f"{target.name}.lock"):
        if (target / ".complete").is_file():
            return target, ""
        command = [
            str(find_uv()),
            "pip",
            "install",
            "--quiet",
            "--target",
            str(target),
            "--python",
            str(python),
            "--only-binary",
            ":all:",
            *(["--offline"] if offline else []),
            VCRPY,
        ]
        try:
            done = subprocess.run(
                command, capture_output=True, text=True, timeout=300, env=uv_environment(), check=False
            )
        except (OSError, subprocess.TimeoutExpired) as problem:
            return None, f"cannot install {VCRPY}: {problem}"
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["uv failed"])[-1]
            return None, f"cannot install {VCRPY}: {last[:300]}"
        (target / ".complete").write_text(VCRPY, encoding="utf-8")
    return target, ""
