"""The hostile-input suite's cases: where they are, how each is built, what it must produce.

A case is a folder under `tests/cases/hostile/<area>/<case>/`. Its files are laid over a copy of
the small good plugin `tests/cases/validate/good/minimal` (so a case holds only what it breaks);
an optional `recipe.py` with `build(plugin, work, port) -> Path` then makes what cannot be
committed (huge, binary or linked files, packages) and returns the path to validate. `expect.yaml`
holds `about`, the exact `findings`, optional `bounds` (seconds, rss_mb) and `outputs` (an output
instance to check against the tool's `output_schema`). The index `tests/cases/hostile/index.yaml`
maps every kind of attack to the cases that cover it, including cases of other suites.
"""

from __future__ import annotations

import contextlib
import importlib.util
import shutil
import socket
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from generator.findings import Finding
from tests.conftest import REPO

CASES = REPO / "tests" / "cases"
HOSTILE = CASES / "hostile"
BASE = CASES / "validate" / "good" / "minimal"
GOOD = CASES / "run" / "good_basic"
CASE_FILES = ("expect.yaml", "recipe.py")
# Keys of cases the runner suites run (tools' in test_run_cases.py, trigger events' deliveries in
# test_trigger_runs.py): each has an expected.yaml of its own suite, and is not validated here.
RUNNER_SUITES = ("run/", "trigger_run/")


@dataclass(frozen=True)
class Case:
    """One case folder, as listed by the index (`area/name`, or a path under tests/cases)."""

    key: str
    folder: Path

    @property
    def own(self) -> bool:
        """True for this suite's cases; False for cases of the validator or runner suites."""
        return HOSTILE in self.folder.parents

    @property
    def expect(self) -> dict[str, Any]:
        """The case's expectations; another suite's `expect.yaml` (a list) gives its findings."""
        data = yaml.safe_load((self.folder / "expect.yaml").read_text(encoding="utf-8"))
        return data if isinstance(data, dict) else {"findings": data}

    def build(self, work: Path, port: int) -> Path:
        """Lay the case out under `work` and return the path to validate."""
        plugin = work / self.folder.name
        if self.own:
            shutil.copytree(BASE, plugin)
            for path in sorted(self.folder.rglob("*")):
                relative = path.relative_to(self.folder)
                if path.is_file() and relative.as_posix() not in CASE_FILES:
                    (plugin / relative).parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(path, plugin / relative)
        else:
            shutil.copytree(self.folder, plugin)
            (plugin / "expect.yaml").unlink()
        recipe = self.folder / "recipe.py"
        if not recipe.is_file():
            return plugin
        spec = importlib.util.spec_from_file_location(f"recipe_{self.folder.name}", recipe)
        assert spec is not None
        assert spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        # a recipe may import the helpers of its area (a module beside the case folders)
        sys.path.insert(0, str(self.folder.parent))
        try:
            spec.loader.exec_module(module)
            built: Path = module.build(plugin, work, port)
        finally:
            sys.path.remove(str(self.folder.parent))
        return built


def plugin_name(key: str) -> str:
    """A plugin name of the case's own: cases share the base plugin's name, and runs and pages are
    keyed by it."""
    return key.replace("/", "_").replace("-", "_")


def build_named(key: str, work: Path, port: int) -> Path:
    """Lay the case out under `work` (as `Case.build`) with the plugin renamed to `plugin_name(key)`."""
    root = case_of(key).build(work, port)
    manifest = root / "manifest.yaml"
    manifest.write_text(manifest.read_text().replace("name: demo", f"name: {plugin_name(key)}", 1))
    return root


def index() -> dict[str, list[str]]:
    """Kinds of attack (as the suite's brief lists them) -> case keys."""
    data: dict[str, list[str]] = yaml.safe_load((HOSTILE / "index.yaml").read_text(encoding="utf-8"))
    return data


def case_of(key: str) -> Case:
    """A case key of the index: `area/name` under hostile/, or `validate/...`/`run/...` elsewhere."""
    own = HOSTILE / key
    return Case(key, own if own.is_dir() else CASES / key)


def own_case_folders() -> list[Path]:
    """Every folder of this suite that is a case (holds expect.yaml)."""
    return sorted(p.parent for p in HOSTILE.glob("*/*/expect.yaml"))


def validation_cases() -> list[Case]:
    """Cases the validator runs on (every indexed case except the runner suites' cases)."""
    keys = sorted({key for keys in index().values() for key in keys if not key.startswith(RUNNER_SUITES)})
    return [case_of(key) for key in keys]


def rows(findings: list[Finding] | tuple[Finding, ...], shown: str) -> list[dict[str, Any]]:
    """Findings as `expect.yaml` lists them, files relative to the input (`.` for the input itself)."""
    result = []
    for d in findings:
        file = "." if d.file == shown else d.file.removeprefix(shown + "/")
        result.append(
            {"rule": d.rule, "severity": d.severity.value, "file": file, "line": d.line, "column": d.column}
        )
    return result


@contextlib.contextmanager
def listener() -> Iterator[tuple[int, list[str]]]:
    """A TCP listener on localhost: (its port, the peers that connected while it was open)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    server.settimeout(0.05)
    accepted: list[str] = []
    open_ = threading.Event()
    open_.set()

    def accept() -> None:
        while open_.is_set():
            try:
                connection, peer = server.accept()
            except (TimeoutError, OSError):
                continue
            accepted.append(str(peer))
            connection.close()

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield server.getsockname()[1], accepted
    finally:
        open_.clear()
        thread.join()
        server.close()


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` with its content (canary folders are small)."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def processes_mentioning(text: str) -> list[str]:
    """Pids of processes whose command line contains `text`."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if text.encode() in (entry / "cmdline").read_bytes():
                    found.append(entry.name)
    return found
