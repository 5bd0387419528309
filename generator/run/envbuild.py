"""Building one plugin environment with uv, in the plugin's own folder as Dify's install does.

With the runner's isolation (root, util-linux `unshare`) source distributions are built, as Dify
builds them: the whole build runs in `builder.py`'s sandbox as an unprivileged uid of its own, on a
private copy of the plugin, with a uv cache of its own inside the environment's folder, and the
environment is handed back to root and made read-only to everyone else afterwards. The build is
tried from wheels alone first when a lock fixes every version (`--no-build`), so the trusted side
knows whether any build script ran: only an environment installed from wheels alone adds files to
the store shared between environments (`share.py`). Without isolation nothing may run a
stranger's code: only wheels are installed (`--no-build`).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from generator.run.sandbox import CLEAN_PATH, SANDBOX_UID_BASE, unshare

BUILD_TIMEOUT = 600
# A build whose processes neither use CPU nor read or write anything for this long is stopped
# (the daemon stops an install whose output stays silent for PYTHON_ENV_INIT_TIMEOUT).
BUILD_STALL = 120.0
# Builds get far more than a tool run: compilers, many files, many threads (uv's own count).
BUILD_LIMITS = {
    "cpu_seconds": BUILD_TIMEOUT,
    "memory_bytes": 4 * 1024**3,
    "max_file_bytes": 2 * 1024**3,
    "max_processes": 512,
}
# One uid per environment, below the runner's slot uids: a build can touch neither a tool run
# nor another plugin's build going on at the same time.
BUILD_UID_BASE = SANDBOX_UID_BASE - (1 << 24)
WORKSPACE = ".build"
MAX_OUTPUT = 1 << 20
SOURCE_DATE_EPOCH = "315532800"  # 1980-01-01, the earliest time a wheel (a zip) can hold
NOT_WRITABLE = ~(stat.S_ISUID | stat.S_ISGID | stat.S_ISVTX | stat.S_IWGRP | stat.S_IWOTH)
LOCK_FILE = "uv.lock"
COPY_IGNORED = shutil.ignore_patterns(".git", "__pycache__", ".dify-registry-cache", ".venv")
# The only variables of the caller a build sees: where the machine's CA certificates are (an
# index behind a TLS-inspecting proxy is unreachable without them). Paths, never secrets.
PASSED = ("SSL_CERT_FILE", "SSL_CERT_DIR")
NO_BUILD = "--no-build"
# uv's words when a requirement has no wheel and --no-build keeps it from being built
# (`uv pip install`: "Building source distributions is disabled"; `uv sync`: "... is marked as
# `--no-build` but has no binary distribution"; the resolver: "building from source is disabled")
NEEDS_BUILD = re.compile(r"--no-build|(source distributions|building from source) is disabled", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class BuildPlan:
    """What to build: uv, the interpreter, the requirements and where they are read and installed."""

    uv: Path
    interpreter: Path
    requirements: str
    root: Path
    target: Path
    key: str
    offline: bool
    # from pyproject.toml with `uv sync` (as locked when `frozen`), else `uv pip install -r`
    synced: bool = False
    frozen: bool = False
    # a uv.lock in the folder that the package leaves out: removed from the build's copy, so that
    # `uv sync` resolves afresh as the daemon, which never sees it, does
    drop_lock: bool = False


def build_uid(key: str) -> int:
    """The unprivileged uid that builds the environment with this key."""
    return BUILD_UID_BASE + int(key[:6], 16)


@dataclass(frozen=True, slots=True)
class Built:
    """How a build went: why it failed ("" when it did not), and whether a source distribution's
    build script may have run in it (then it adds nothing to the shared store, see `share.py`)."""

    problem: str = ""
    from_source: bool = True


def build(plan: BuildPlan, isolated: bool) -> Built:
    """Build into a fresh folder. With isolation and a lock (`uv sync --frozen`), from wheels alone
    first (`--no-build`: no stranger's build script runs), and only when uv says a locked package
    needs building, again with source distributions built. Without a lock, `--no-build` would
    change what is installed (uv takes the newest version that has a wheel where Dify's install
    builds a newer source distribution), so the build allows source distributions at once."""
    if not isolated:
        return Built(_attempt(plan, _wheels_only), from_source=False)
    if not (plan.synced and plan.frozen):
        return Built(_attempt(plan, _isolated))
    problem = _attempt(plan, _isolated, NO_BUILD)
    if not NEEDS_BUILD.search(problem):
        return Built(problem, from_source=False)
    return Built(_attempt(plan, _isolated))


def _attempt(plan: BuildPlan, how: Callable[..., str], *extra: str) -> str:
    """One build into a fresh folder; "" on success, else why it failed (one line)."""
    shutil.rmtree(plan.target, ignore_errors=True)
    plan.target.mkdir(parents=True)
    try:
        problem = how(plan, *extra)
    except subprocess.TimeoutExpired:
        problem = f"the build took longer than {BUILD_TIMEOUT} s"
    except OSError as failure:  # a plugin folder that cannot be copied (unreadable files, FIFOs)
        problem = readable(f"the plugin folder could not be prepared for the build: {failure}", plan.root)
    if problem:
        shutil.rmtree(plan.target, ignore_errors=True)
    return problem


def _steps(plan: BuildPlan, *extra: str) -> list[list[str]]:
    uv, target = str(plan.uv), str(plan.target)
    python = ["--python", str(plan.target / "bin" / "python")]
    offline = ["--offline"] if plan.offline else []
    # the sandbox cannot write bytecode into the environment; compile it once here
    if plan.synced:  # as the daemon: `uv sync --no-dev [--frozen]` in the plugin's folder
        install = [uv, "sync", "--quiet", "--no-dev", *(["--frozen"] if plan.frozen else []), *python]
        install += ["--compile-bytecode", *extra, *offline]
    else:  # the requirements on stdin, so that relative paths in them are read from the working folder
        install = [uv, "pip", "install", "--quiet", *python, "--compile-bytecode", *extra, "-r", "-"]
        install += offline
    return [[uv, "venv", "--quiet", "--allow-existing", "--python", str(plan.interpreter), target], install]


def uv_environment() -> dict[str, str]:
    """The caller's environment for uv run as the caller (no stranger's code runs then)."""
    return {**os.environ, "UV_PYTHON_DOWNLOADS": "never", "UV_NO_PROGRESS": "1", "NO_COLOR": "1"}


def _uv_variables(plan: BuildPlan) -> dict[str, str]:
    """`uv sync` installs into the project's environment (the one being built). With
    SOURCE_DATE_EPOCH set, bytecode is checked against its source's hash, not its modification
    time, so one package compiles to the same bytes in every environment (see `share.py`)."""
    synced = {"UV_PROJECT_ENVIRONMENT": str(plan.target)} if plan.synced else {}
    return {**synced, "SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH}


def _wheels_only(plan: BuildPlan, *_extra: str) -> str:
    # building a source distribution runs its code, and here it would run as the caller
    folder = plan.root
    if plan.synced:  # uv sync may write uv.lock: into a copy, never into the plugin
        folder = plan.target / WORKSPACE / "plugin"
        _copy(plan, folder)
    try:
        for step in _steps(plan, NO_BUILD):
            done = subprocess.run(
                step,
                input=plan.requirements,
                cwd=folder,
                capture_output=True,
                text=True,
                timeout=BUILD_TIMEOUT,
                env={**uv_environment(), **_uv_variables(plan)},
                check=False,
            )
            if done.returncode != 0:
                return readable(done.stderr or done.stdout, folder)
    finally:
        shutil.rmtree(plan.target / WORKSPACE, ignore_errors=True)
    return ""


def _copy(plan: BuildPlan, folder: Path) -> None:
    """The plugin folder as the build reads it (without a lock the package leaves out)."""
    shutil.copytree(plan.root, folder, symlinks=True, ignore=COPY_IGNORED)
    if plan.drop_lock:
        (folder / LOCK_FILE).unlink(missing_ok=True)


def _isolated(plan: BuildPlan, *extra: str) -> str:
    workspace = plan.target / WORKSPACE
    copy = workspace / "plugin"
    # a private copy: a build backend may write into its source tree (as it would in Dify's folder)
    _copy(plan, copy)
    uid = build_uid(plan.key)
    _own(plan.target, lambda _info: True, uid)
    passed = {name: os.environ[name] for name in PASSED if os.environ.get(name)}
    reads = [plan.interpreter.resolve().parent.parent, plan.uv.resolve().parent]
    config = {
        "uid": uid,
        "target": str(plan.target),
        "readable": [str(path) for path in reads] + [p for p in passed.values() if Path(p).exists()],
        "limits": BUILD_LIMITS,
        "cwd": str(copy),
        "env": {
            "PATH": CLEAN_PATH,
            "LANG": "C.UTF-8",
            "HOME": "/tmp/home",
            "TMPDIR": "/tmp",
            "UV_CACHE_DIR": str(workspace / "uv-cache"),
            "UV_PYTHON_DOWNLOADS": "never",
            "UV_NO_PROGRESS": "1",
            "NO_COLOR": "1",
            **_uv_variables(plan),
            **passed,
        },
        "steps": _steps(plan, *extra),
        "stall_seconds": BUILD_STALL,
    }
    builder = [sys.executable, "-I", "-B", "-m", "generator.run.builder", json.dumps(config)]
    # Files, not pipes: a process the build leaves behind holds nothing this side waits on.
    with tempfile.TemporaryFile() as given, tempfile.TemporaryFile() as output:
        given.write(plan.requirements.encode())
        given.seek(0)
        try:
            code = subprocess.run(
                [*unshare(network=True), *builder],
                stdin=given,
                stdout=output,
                stderr=subprocess.STDOUT,
                timeout=BUILD_TIMEOUT,
                env={"PATH": CLEAN_PATH, "LANG": "C.UTF-8"},
                check=False,
            ).returncode
        finally:
            # every process of the build is gone with its PID namespace: nothing changes the tree now
            shutil.rmtree(workspace, ignore_errors=True)
            _own(plan.target, lambda info: info.st_uid == uid, 0)
        output.seek(0)
        said = output.read(MAX_OUTPUT).decode("utf-8", errors="replace")
    if code != 0:
        return readable(said or f"exit status {code}", copy)
    return ""


def _own(tree: Path, which: Callable[[os.stat_result], bool], uid: int) -> None:
    """Give `tree` to `uid`; for root, also take away group and other write and set-id bits.
    Links are never followed; `which(lstat)` picks the entries to change."""
    for folder, dirs, files in os.walk(tree):
        for name in [".", *dirs, *files]:
            path = Path(folder, name)
            info = path.lstat()
            if not which(info):
                continue
            os.chown(path, uid, uid, follow_symlinks=False)
            if uid == 0 and not stat.S_ISLNK(info.st_mode):
                path.chmod(stat.S_IMODE(info.st_mode) & NOT_WRITABLE)


# How much of uv's message is kept: its start, which names the package that failed, and its end,
# which names the cause (a build's own output, often pages of it, lies between).
PROBLEM_HEAD = 300
PROBLEM_TAIL = 1200


def readable(text: str, folder: Path) -> str:
    """uv's message on one line, paths of the plugin's copy shown relative to the plugin; a long one
    keeps its start and its end."""
    shown = " ".join(text.replace(f"file://{folder}/", "").replace(f"{folder}/", "").split())
    if len(shown) <= PROBLEM_HEAD + PROBLEM_TAIL:
        return shown
    return f"{shown[:PROBLEM_HEAD]} … {shown[-PROBLEM_TAIL:]}"
