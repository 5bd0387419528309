"""Runs without namespaces (not root, as on CI runners) get a writable view of the plugin's
environment that is thrown away: a library that writes a new file beside its code and one that
rewrites a file of its own in place both load, every example starts from the cached environment,
and the cached environment is byte for byte what it was.

The unprivileged run is the runner itself started as `nobody` with `setpriv` when the suite runs as
root. That process keeps one capability, reading and searching any folder (CAP_DAC_READ_SEARCH), so
it can read the project and the caches; writes are checked as for any other user, which is what the
view has to withstand. Both runs use only interpreters outside root's private home (which
`os.access` does not let `nobody` start), with a requirement that fits the one found."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from generator.interpreters import find_interpreters
from generator.load.crawl import load_plugin
from generator.run import RunOptions, all_findings, run_plugins
from tests.conftest import REPO

CASE = REPO / "tests" / "cases" / "run" / "writes_environment"
NOBODY = 65534
# On import, as some libraries do: data unpacked beside the SDK's code, and certifi's bundle
# rewritten in place (a file the library owns); each example reports whether it saw an earlier one's.
TOOL = """from collections.abc import Generator
from pathlib import Path
from typing import Any

import certifi
import dify_plugin
from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

unpacked = Path(dify_plugin.__file__).parent / "unpacked-data.txt"
earlier = unpacked.exists() or Path(certifi.where()).read_text().endswith("# rewritten\\n")
unpacked.write_text("cache")
with open(certifi.where(), "a") as bundle:
    bundle.write("# rewritten\\n")


class CaseTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        yield self.create_text_message("seen" if earlier else "fresh")
"""
EXAMPLES = "examples:\n" + "".join(f"- name: run{n}\n  inputs: {{}}\n" for n in range(3))
# What the unprivileged runner prints: each run's text, and the rules of its findings.
RUNNER = """
import json, sys
from pathlib import Path
from generator.interpreters import find_interpreters
from generator.load.crawl import load_plugin
from generator.run import RunOptions, all_findings, run_plugins
root, cache = Path(sys.argv[1]), Path(sys.argv[2])
report = run_plugins([load_plugin(root, "case")], RunOptions(cache_dir=cache, jobs=1, use_cache=False))
print(json.dumps({"texts": [r.outputs.get("text") for r in report.runs],
                  "rules": sorted({f.rule for f in all_findings(report)})}))
"""

pytestmark = [
    pytest.mark.xdist_group("runner"),
    pytest.mark.skipif(sys.platform != "linux", reason="the view is made for Linux workers"),
]


def _digest(tree: Path) -> dict[str, str]:
    """Every file and link of a tree by its relative path: the bytes' digest, or the link's target."""
    found = {}
    for path in sorted(tree.rglob("*")):
        relative = str(path.relative_to(tree))
        if path.is_symlink():
            found[relative] = "-> " + str(path.readlink())
        elif path.is_file():
            found[relative] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def _plugin(folder: Path) -> Path:
    shutil.copytree(CASE, folder)
    (folder / "requirements.txt").write_text("dify_plugin>=0.7,<0.11\n")  # 0.7.4 for Python 3.11
    (folder / "tools" / "case.py").write_text(TOOL)
    (folder / "tools" / "case.examples.yaml").write_text(EXAMPLES)
    return folder


def _unprivileged(command: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return command
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv to become an unprivileged user")
    keep = ["--inh-caps=+dac_read_search", "--ambient-caps=+dac_read_search"]
    return ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", *keep, *command]


def _give(tree: Path) -> None:
    """The tree to `nobody` (links are not followed)."""
    if os.geteuid() != 0:
        return
    for folder, dirs, files in os.walk(tree):
        for name in [".", *dirs, *files]:
            os.chown(Path(folder, name), NOBODY, NOBODY, follow_symlinks=False)


def test_unprivileged_runs_write_into_a_private_view(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """As an unprivileged user, three examples of a tool whose libraries write on import each load
    fresh, with no finding, and the cached environment is unchanged."""
    # The environment's own files, not links into uv's cache: this test hands them to `nobody`.
    monkeypatch.setenv("UV_LINK_MODE", "copy")
    if os.geteuid() == 0:  # interpreters `nobody` can start too
        monkeypatch.setenv("PYENV_ROOT", str(tmp_path / "no-pyenv"))
        paths = os.environ.get("PATH", "/usr/bin:/bin").split(os.pathsep)
        monkeypatch.setenv("PATH", os.pathsep.join(p for p in paths if not p.startswith("/root")))
        if not find_interpreters():
            pytest.skip("no Python 3 interpreter outside root's home for the unprivileged run")
    folder = tmp_path / "common"
    folder.mkdir()
    folder.chmod(0o755)
    root, cache, home = _plugin(folder / "plugin"), folder / "cache", folder / "home"
    home.mkdir()
    # the environment built (and once run) without namespaces by this process
    built = run_plugins([load_plugin(root, "case")], RunOptions(cache_dir=cache, jobs=1, isolate=False))
    assert [r.outputs.get("text") for r in built.runs] == ["fresh"] * 3, all_findings(built)
    (environment,) = [p for p in (cache / "envs").iterdir() if p.is_dir()]
    before = _digest(environment)
    assert not [name for name in before if name.endswith("unpacked-data.txt")]
    _give(folder)
    command = _unprivileged([sys.executable, "-c", RUNNER, str(root), str(cache)])
    environ = {"PATH": os.environ["PATH"], "HOME": str(home), "TMPDIR": str(home)}
    environ["PYENV_ROOT"] = os.environ.get("PYENV_ROOT", str(home / ".pyenv"))
    done = subprocess.run(
        command, capture_output=True, text=True, cwd=REPO, env=environ, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    # R032 is the note that the interpreter found is not the daemon's 3.12
    assert seen["texts"] == ["fresh"] * 3, (seen, done.stderr[-3000:])
    assert set(seen["rules"]) <= {"R032"}, seen
    assert _digest(environment) == before
