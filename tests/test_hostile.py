"""Hostile and broken input: every case ends in its findings, and nothing else is touched.

For every case: exactly the expected findings, each naming a file, a place and what to do; no
exception; no connection to a listener on this machine; nothing written into a canary folder
beside the input; a known-good plugin validated in the same run gets exactly the findings and the
model it gets alone. A sample runs through the command line as a subprocess (exit code, JSON,
no traceback, no process left, nothing left in its temporary folder); the bombs and big files are
validated in a subprocess whose peak memory and time are measured.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml

from generator.check import CheckContext
from generator.findings import Finding, Severity
from generator.schemas import shipped_schemas, validate_output
from tests.conftest import REPO
from tests.hostile import (
    GOOD,
    RUNNER_SUITES,
    Case,
    case_of,
    index,
    listener,
    own_case_folders,
    processes_mentioning,
    rows,
    snapshot,
    validation_cases,
)
from tests.validating import validate_paths

CASES = validation_cases()
IDS = [case.key for case in CASES]
# One case per area through the real command line, plus every case with bounds.
CLI_SAMPLE = [
    "yaml/python-tags",
    "paths/symlinks-out",
    "packages/escaping-entries",
    "packages/corrupt-zip",
    "schemas/remote-ref",
    "pages/readme-injection",
    "validate/bad/manifest-is-list",
]
BOUNDED = [case.key for case in CASES if "bounds" in case.expect]
AREAS = ("yaml", "paths", "packages", "schemas", "code", "pages", "recordings", "triggers")


def build(case: Case, work: Path, port: int) -> tuple[Path, Path]:
    """The case's input under `work/input`, and a canary folder beside it."""
    canary = work / "canary"
    canary.mkdir(parents=True)
    (canary / "keep.txt").write_text("untouched\n")
    (work / "input").mkdir()
    return case.build(work / "input", port), canary


def validate(path: Path) -> Any:
    return validate_paths([path], CheckContext())


def good_findings(findings: Any) -> list[Finding]:
    return [d for d in findings if d.file.startswith("plugins/good/")]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_findings_exactly(case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The input produces exactly its findings; each names a file, a place and a hint."""
    monkeypatch.chdir(tmp_path)
    with listener() as (port, connections):
        target, canary = build(case, tmp_path, port)
        before = snapshot(canary)
        result = validate(target)
    assert connections == []
    assert snapshot(canary) == before
    assert not (tmp_path / "hostile-python-tag-ran").exists()
    shown = result.plugins[0].display if result.plugins else target.as_posix()
    found = rows(result.findings, shown)
    assert found == case.expect["findings"], "\n".join(map(str, found))
    for finding in result.findings:
        assert finding.file, finding
        assert finding.hint.strip(), finding
        assert finding.line > 0 or finding.file == shown, finding
        assert "Traceback" not in finding.message, finding


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_good_plugin_is_unaffected(case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A good plugin beside the bad one is validated exactly as when it is alone."""
    monkeypatch.chdir(tmp_path)
    target, _ = build(case, tmp_path, 9)
    alone_root = tmp_path / "alone" / "plugins" / "good"
    together_root = tmp_path / "together" / "plugins" / "good"
    for root in (alone_root, together_root):
        root.parent.mkdir(parents=True)
        shutil.copytree(GOOD, root)
    packages = [] if target.is_dir() else [target]  # a package is a second input of the same run
    if target.is_dir():
        target.rename(together_root.parent / "bad")
    # Each run from its own registry folder, so the good plugin is shown as plugins/good in both.
    monkeypatch.chdir(tmp_path / "together")
    together = validate_paths([Path(), *packages], CheckContext())
    monkeypatch.chdir(tmp_path / "alone")
    alone = validate(Path())
    assert good_findings(together.findings) == good_findings(alone.findings)
    good_together = next(p for p in together.plugins if p.display == "plugins/good")
    assert good_together.plugin is not None
    assert alone.plugins[0].plugin is not None
    assert good_together.plugin == alone.plugins[0].plugin
    assert good_together.plugin.name == alone.plugins[0].plugin.name == "good_basic"


@pytest.mark.parametrize("key", [key for key in IDS if "outputs" in case_of(key).expect])
def test_outputs_check_is_bounded(key: str, tmp_path: Path) -> None:
    """A tool output is checked against the hostile output_schema quickly, offline, with notes."""
    case = case_of(key)
    expected = case.expect["outputs"]
    with listener() as (port, connections):
        target, _ = build(case, tmp_path, port)
        schema = yaml.safe_load((target / "tools" / "echo.yaml").read_text(encoding="utf-8"))["output_schema"]
        started = time.monotonic()
        found = validate_output(schema, expected["instance"], shipped_schemas())
        elapsed = time.monotonic() - started
    assert connections == []
    assert elapsed < 3, elapsed
    notes = [m.message for m in found if m.note]
    mismatches = [m.message for m in found if not m.note]
    for text in expected.get("notes", []):
        assert any(text in note for note in notes), found
    for text in expected.get("mismatches", []):
        assert any(text in mismatch for mismatch in mismatches), found
    if not expected.get("mismatches"):
        assert mismatches == [], found


def run_cli(target: Path, work: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    """`dify-registry validate` as a plugin author runs it, with a private temporary folder."""
    private = work / "private-tmp"
    private.mkdir(exist_ok=True)
    environment = {**os.environ, "TMPDIR": str(private), "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "generator", "validate", str(target), *extra],
        cwd=work,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("key", CLI_SAMPLE)
def test_command_line(key: str, tmp_path: Path) -> None:
    """The command exits as documented, prints JSON findings, no traceback, leaves nothing behind."""
    case = case_of(key)
    with listener() as (port, connections):
        target, canary = build(case, tmp_path, port)
        before = snapshot(canary)
        done = run_cli(target, tmp_path, "--format", "json")
    assert connections == []
    assert "Traceback" not in done.stderr, done.stderr
    report = json.loads(done.stdout)
    errors = [f for f in case.expect["findings"] if f["severity"] == Severity.ERROR.value]
    assert done.returncode == (1 if errors else 0), done.stdout
    assert len(report["diagnostics"]) == len(case.expect["findings"])
    assert {d["rule"] for d in report["diagnostics"]} == {f["rule"] for f in case.expect["findings"]}
    assert snapshot(canary) == before
    assert list((tmp_path / "private-tmp").iterdir()) == []
    assert processes_mentioning(str(tmp_path)) == []


MEASURE = """
import resource, sys
from generator.cli import main
# CPU time, not wall time: the bound must hold however loaded the machine running the suite is.
code = main(["validate", sys.argv[1], "--format", "json"])
usage = resource.getrusage(resource.RUSAGE_SELF)
# Peak RSS of this process's own memory (VmHWM, in kB): ru_maxrss would also count the memory of
# the test worker that forked it, which Linux carries across exec.
with open("/proc/self/status") as status:
    peak = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
print("MEASURED", code, usage.ru_utime + usage.ru_stime, peak, file=sys.stderr)
"""


@pytest.mark.parametrize("key", BOUNDED)
def test_limits_hold(key: str, tmp_path: Path) -> None:
    """Bombs and huge files are refused within their CPU-time and memory bounds (peak RSS measured)."""
    case = case_of(key)
    target, _ = build(case, tmp_path, 9)
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, str(target)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    measured = re.search(r"MEASURED (\d+) ([\d.]+) (\d+)", done.stderr)
    assert measured, done.stderr
    seconds, rss_mb = float(measured.group(2)), int(measured.group(3)) / 1024
    bounds = case.expect["bounds"]
    assert seconds < bounds["seconds"], seconds
    assert rss_mb < bounds["rss_mb"], rss_mb


def test_index_covers_every_kind_of_attack() -> None:
    """Every kind of attack has a case, every own case is indexed, and every indexed case exists."""
    kinds = index()
    assert {kind.split()[0] for kind in kinds} == set(AREAS)
    assert all(kinds.values())
    keys = {key for keys in kinds.values() for key in keys}
    for key in keys:
        assert (
            case_of(key).folder / ("expect.yaml" if not key.startswith(RUNNER_SUITES) else "expected.yaml")
        ).is_file()
    indexed = {case_of(key).folder for key in keys}
    assert set(own_case_folders()) <= indexed


def suite_case_count() -> int:
    """Distinct case folders the suite runs: its own and those of other suites it points at."""
    return len({case_of(key).folder for keys in index().values() for key in keys})


def test_readme_states_the_case_count() -> None:
    """The README's security section states the number of cases the suite runs."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Security", 1)[1]
    assert f"{suite_case_count()} cases" in section
