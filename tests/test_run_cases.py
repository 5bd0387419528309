"""Bad and hostile tools under tests/cases/run/<case>/ each end in their finding, within the limits,
with no process left behind, no connection made, nothing written outside and no secret read."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from generator.check import CheckContext, undeclared, unyielded, variables_in_code
from generator.findings import Finding
from generator.load.crawl import load_plugin
from generator.run import ExampleRun, Limits, RunOptions, all_findings, run_plugins
from generator.run.verdict import told_without_running
from generator.schemas import SchemaSet, load_schemas
from tests.conftest import REPO, SHARED, shared
from tests.hostile import listener, processes_mentioning

CASES = REPO / "tests" / "cases" / "run"
LIMITS = Limits(
    timeout=10, cpu_seconds=9, memory_bytes=1024**3, max_messages=2000, max_output_bytes=8 * 1024**2
)
SECRET = "dify-registry-test-secret-value"
ESCAPES = [Path(folder) / "dify-registry-escape-marker" for folder in ("/tmp", "/var/tmp", "/root")]
MARKER = b"dify-registry-outliving-child-marker"
# This session's own marker (the case's, made unique): another test run on the machine, whose
# children live while it runs, is not taken for this one's survivors.
OWN_MARKER = f"{MARKER.decode()}-{os.getpid()}"

pytestmark = pytest.mark.xdist_group("runner")


def reference_schemas() -> SchemaSet:
    """The registry's own hosted schemas (proved equal to Dify's copies by the fidelity tests)."""
    return load_schemas(REPO / "schemas")


@dataclass
class Outcome:
    runs: dict[str, list[ExampleRun]]
    findings: dict[str, list[Finding]]
    connections: list[str]


@pytest.fixture(scope="session")
def outcome(tmp_path_factory: pytest.TempPathFactory) -> Outcome:
    """Every case run once, together, in parallel, sharing one environment."""
    folder = tmp_path_factory.mktemp("cases")
    names = sorted(p.name for p in CASES.iterdir() if (p / "manifest.yaml").is_file())
    with listener() as (port, accepted):
        plugins = []
        for name in names:
            root = CASES / name
            if name == "socket_connect":
                root = folder / name
                shutil.copytree(CASES / name, root)
                examples = root / "tools" / "case.examples.yaml"
                examples.write_text(yaml.safe_dump({"examples": [{"name": "run", "inputs": {"port": port}}]}))
            if name == "outliving_children":
                root = folder / name
                shutil.copytree(CASES / name, root)
                tool = root / "tools" / "case.py"
                tool.write_text(tool.read_text().replace(MARKER.decode(), OWN_MARKER))
            if (CASES / name / "tools" / "reserve.c").is_file():  # a real library, built, not kept in binary
                root = folder / name
                shutil.copytree(CASES / name, root)
                tools = root / "tools"
                subprocess.run(
                    ["gcc", "-shared", "-fPIC", "-o", tools / "reserve.so", tools / "reserve.c"], check=True
                )
            plugins.append(load_plugin(root, name))
        os.environ["DIFY_REGISTRY_TEST_SECRET"] = SECRET
        try:
            options = RunOptions(cache_dir=tmp_path_factory.mktemp("cache"), limits=LIMITS, jobs=2)
            report = run_plugins(plugins, options, reference_schemas())
        finally:
            del os.environ["DIFY_REGISTRY_TEST_SECRET"]
    findings: dict[str, list[Finding]] = {name: [] for name in names}
    # What `run` reports: the run's findings and its check stage's (the static checks of the code).
    static = [
        finding
        for loaded in plugins
        for check in (unyielded.check, undeclared.check, variables_in_code.check)
        for finding in check(loaded, CheckContext())
    ]
    # ... one cause, one finding: a crash the static checks name at its line is not told again
    for finding in [*told_without_running(all_findings(report), static), *static]:
        findings[finding.file.split("/", 1)[0]].append(finding)
    runs = {name: [r for r in report.runs if r.tool.plugin == name] for name in names}
    return Outcome(runs, findings, accepted)


def _expected(name: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((CASES / name / "expected.yaml").read_text())
    return data


CASE_NAMES = sorted(p.name for p in CASES.iterdir() if (p / "expected.yaml").is_file())


@pytest.mark.parametrize("name", CASE_NAMES)
def test_case_finding(outcome: Outcome, name: str) -> None:
    """Each case produces its expected findings (and only error findings it expects)."""
    expected = _expected(name)
    rules = {f.rule for f in outcome.findings[name]}
    if "rules" in expected:
        assert set(expected["rules"]) <= rules, outcome.findings[name]
        unexpected_errors = {f.rule for f in outcome.findings[name] if f.severity.rank == 2} - set(
            expected["rules"]
        )
        assert not unexpected_errors, outcome.findings[name]
    else:
        assert rules & set(expected["rules_any"]), outcome.findings[name]
    assert not rules & set(expected.get("absent", ())), outcome.findings[name]
    count = expected.get("runs", 1)  # a case of several tools: each of its runs shows the same
    assert [run.passed for run in outcome.runs[name]] == [expected["passed"]] * count
    # what the run shows, in the run-result vocabulary (a smoke run is never "passed")
    assert [run.result.value for run in outcome.runs[name]] == [expected.get("result", "passed")] * count
    if "detail" in expected:
        assert [run.detail for run in outcome.runs[name]] == [expected["detail"]] * count
    if "hint_says" in expected:
        assert any(expected["hint_says"] in f.hint for f in outcome.findings[name]), outcome.findings[name]
    assert outcome.runs[name][0].smoke is expected.get("smoke", False)
    if "says" in expected:
        assert any(expected["says"] in f.message for f in outcome.findings[name]), outcome.findings[name]
    if "line" in expected:
        crash = next(f for f in outcome.findings[name] if f.rule == "R001")
        assert (crash.file, crash.line) == (f"{name}/tools/case.py", expected["line"])
    if "findings" in expected:  # every finding of the case, exactly: "RULE severity file:line"
        exact = sorted(
            f"{f.rule} {f.severity} {f.file.split('/', 1)[1]}:{f.line}" for f in outcome.findings[name]
        )
        assert exact == sorted(expected["findings"]), outcome.findings[name]
    if "at" in expected:  # a finding at the plugin's line that caused it, not at the tool's YAML
        found = [(f.file, f.line) for f in outcome.findings[name] if f.rule == expected["at"]["rule"]]
        assert (f"{name}/tools/case.py", expected["at"]["line"]) in found, outcome.findings[name]


def test_limits_hold(outcome: Outcome) -> None:
    """No run took much longer than its wall-clock limit."""
    for runs in outcome.runs.values():
        for run in runs:
            assert run.duration < LIMITS.timeout + 3, run


def test_no_process_survives(outcome: Outcome) -> None:
    """Children started with setsid or double fork are gone when the run ends."""
    survivors = processes_mentioning(OWN_MARKER)
    assert outcome.runs["outliving_children"][0].passed
    assert survivors == []


def test_no_connection_arrives(outcome: Outcome) -> None:
    """A tool connecting to a listener of the machine never reaches it."""
    assert outcome.connections == []
    assert "refused" in outcome.runs["socket_connect"][0].outputs["text"]


def test_runs_record_the_hosts_they_tried(outcome: Outcome) -> None:
    """The host a tool looked up is kept with its run, for the plugin page's observed domains."""
    assert outcome.runs["looks_up_host"][0].contacted == ("weather.example.invalid",)
    assert outcome.runs["good_basic"][0].contacted == ()


def test_nothing_written_outside(outcome: Outcome) -> None:
    """Writes to /tmp, above the plugin and to the repository's parent land nowhere real."""
    assert outcome.runs["write_outside"][0].passed
    assert [p for p in ESCAPES if p.exists()] == []


def test_no_secret_from_the_environment(outcome: Outcome) -> None:
    """The child's environment holds none of the caller's variables."""
    seen = json.dumps(dict(outcome.runs["env_secrets"][0].outputs))
    assert SECRET not in seen
    assert "PATH" in seen


def test_good_plugin_passes_with_uploads_and_input_files(outcome: Outcome) -> None:
    """Every message kind, input files, file.upload and storage work through the real SDK."""
    run = outcome.runs["good_basic"][0]
    assert run.passed, outcome.findings["good_basic"]
    assert run.outputs["story"] == "once upon"
    assert "https://dify.ai/files/good_basic/basic/echo/hello/1.txt" in run.outputs["text"]
    assert [f.path.read_bytes() for f in run.files] == [b"\x89PNG fake", b"hello"]
    assert run.python.startswith("3.12")


def test_seed_bug_is_the_case(outcome: Outcome) -> None:
    """The unyielded case is the seed documents' Complex Structure Example, flagged once per call."""
    seed = "\n".join(p.read_text() for p in shared(SHARED / "seeds").glob("*.txt"))
    assert 'self.create_variable_message("name", user_data["name"])' in seed
    static = [f for f in outcome.findings["unyielded"] if f.rule == "R020"]
    assert [f.line for f in static] == [12, 13, 14]


def test_cached_runs_are_not_repeated(outcome: Outcome, tmp_path: Path) -> None:
    """An unchanged tool is served from the cache; a changed one runs again."""
    root = tmp_path / "plugin"
    shutil.copytree(CASES / "prints_stdout", root)
    options = RunOptions(cache_dir=tmp_path / "cache", limits=LIMITS, jobs=1)
    first = run_plugins([load_plugin(root, "p")], options)
    again = run_plugins([load_plugin(root, "p")], options)
    assert [r.cached for r in first.runs + again.runs] == [False, True]
    described = {
        "en_US": "Prints to standard output and returns a text",
        "ja_JP": "標準出力に書き、テキストを返す",
    }
    assert [dict(r.description.texts) for r in first.runs + again.runs] == [described, described]
    source = root / "tools" / "case.py"
    source.write_text(source.read_text().replace("printed", "changed"))
    changed = run_plugins([load_plugin(root, "p")], options)
    assert not changed.runs[0].cached
    assert changed.runs[0].outputs["text"] == "changed"


def test_one_finding_per_example_and_rule(outcome: Outcome) -> None:
    """An error path that sets every declared variable to None is one schema finding listing every
    path, and the undeclared variables one more, not a finding per output."""
    findings = outcome.findings["error_path_nones"]
    mismatches = [f for f in findings if f.rule == "R015"]
    assert len(mismatches) == 1, findings
    assert "14 outputs do not match" in mismatches[0].message
    assert all(f"$.field_{n:02d}" in mismatches[0].message for n in range(1, 15)), mismatches[0].message
    undeclared = [f for f in findings if f.rule == "R017"]
    assert len(undeclared) == 1
    assert "extra_a" in undeclared[0].message
    assert "extra_b" in undeclared[0].message
    for name, found in outcome.findings.items():
        keys = [(f.rule, f.file, f.line, f.severity, f.message.split(":")[0]) for f in found]
        assert len(keys) == len(set(keys)), (name, found)
