"""Trigger events run on example deliveries with the real SDK: every case under
tests/cases/trigger_run/ ends in the results and findings its expected.yaml names, within the
limits, and nothing hangs.

`github_like` is a trigger plugin whose deliveries follow the fields GitHub documents; every other
case is that plugin with its own files laid over it (and, for the hostile ones, a delivery written
here: a body of 50 MB, a JSON body nested 100,000 deep), run together in one session.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
import yaml

from generator.findings import Finding
from generator.load.crawl import LoadedPlugin, load_plugin
from generator.load.event_examples import MAX_BODY_BYTES, Delivery, load_event_examples, plugin_events
from generator.report import write_json
from generator.run import Limits, RunOptions, run_plugins
from generator.run.runtypes import EventRun, RunReport
from generator.schemas import load_schemas
from tests.conftest import REPO

CASES = REPO / "tests" / "cases" / "trigger_run"
BASE = CASES / "github_like"
DELIVERY = Path("events/issues/deliveries/issue-opened.json")
LIMITS = Limits(timeout=10, cpu_seconds=9, memory_bytes=1024**3)
NAMES = sorted(p.name for p in CASES.iterdir() if (p / "expected.yaml").is_file())
# the hostile cases run only the first example of the issues event
ONE_EXAMPLE = {
    "examples": [
        {
            "name": "issue-opened",
            "request": {
                "headers": {"X-GitHub-Event": "issues"},
                "body_file": "deliveries/issue-opened.json",
            },
        }
    ]
}

pytestmark = pytest.mark.xdist_group("runner")


@dataclass
class Outcome:
    plugins: dict[str, LoadedPlugin]
    report: RunReport
    cache: Path


def lay_out(name: str, work: Path) -> Path:
    """The case's plugin under `work`: github_like, the case's files over it, its own name."""
    root = work / name
    shutil.copytree(BASE, root, ignore=shutil.ignore_patterns("expected.yaml"))
    if name != BASE.name:
        for path in sorted((CASES / name).rglob("*")):
            relative = path.relative_to(CASES / name)
            if path.is_file() and relative.as_posix() != "expected.yaml":
                shutil.copyfile(path, root / relative)
        manifest = root / "manifest.yaml"
        manifest.write_text(manifest.read_text().replace("name: github_like", f"name: {name}", 1))
    if name in ("dispatch_hangs", "deep_json", "huge_delivery"):
        (root / "events/push/push.examples.yaml").unlink()
        (root / "events/issues/issues.examples.yaml").write_text(yaml.safe_dump(ONE_EXAMPLE))
    if name == "deep_json":
        (root / DELIVERY).write_text("[" * 100_000 + "]" * 100_000)
    if name == "huge_delivery":
        with (root / DELIVERY).open("r+b") as body:
            body.truncate(50 * 1024 * 1024)  # sparse: the test writes no 50 MB
    return root


def expected(name: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((CASES / name / "expected.yaml").read_text())
    return data


@pytest.fixture(scope="session")
def outcome(tmp_path_factory: pytest.TempPathFactory) -> Outcome:
    """Every case run once, together, sharing one environment."""
    work = tmp_path_factory.mktemp("trigger-cases")
    plugins = {name: load_plugin(lay_out(name, work), name) for name in NAMES}
    cache = tmp_path_factory.mktemp("cache")
    options = RunOptions(cache_dir=cache, limits=LIMITS, jobs=2)
    report = run_plugins(list(plugins.values()), options, load_schemas(REPO / "schemas"))
    return Outcome(plugins, report, cache)


def runs_of(outcome: Outcome, name: str) -> dict[str, EventRun]:
    return {f"{r.event.event}/{r.example}": r for r in outcome.report.event_runs if r.plugin == name}


def rules(findings: tuple[Finding, ...] | list[Finding]) -> set[str]:
    return {finding.rule for finding in findings}


@pytest.mark.parametrize("name", NAMES)
def test_case_results_and_findings(outcome: Outcome, name: str) -> None:
    """Each example's run has its expected result and exactly its expected findings."""
    wanted = expected(name)
    runs = runs_of(outcome, name)
    assert set(runs) == set(wanted["examples"]), runs
    for example, said in wanted["examples"].items():
        run = runs[example]
        assert run.result.value == said["result"], (example, run.findings)
        assert rules(run.findings) == set(said["rules"]), (example, run.findings)
    every = rules(outcome.report.findings[name])
    assert set(wanted.get("plugin_rules", ())) <= every, outcome.report.findings[name]


def test_nothing_hangs(outcome: Outcome) -> None:
    """A dispatch that never returns is stopped at the wall clock, named as a time-out."""
    for run in outcome.report.event_runs:
        assert run.duration < LIMITS.timeout + 3, run
    (hung,) = runs_of(outcome, "dispatch_hangs").values()
    assert "10 s" in hung.findings[0].message


def test_passing_run_shows_delivery_dispatch_and_variables(outcome: Outcome) -> None:
    """The good delivery went through _dispatch_event (its payload reached _on_event) and its
    variables are what the plugin returned, as the SDK sends them to Dify."""
    run = runs_of(outcome, "github_like")["issues/issue-opened"]
    assert run.dispatched == ("issues",)
    assert run.variables["number"] == 7
    assert run.variables["kind"] == "issues"  # from the dispatch's payload
    assert run.variables["user"] == {"login": "octo-reader"}
    assert run.request.method == "POST"
    assert ("Content-Type", "application/json") in run.request.headers
    assert run.request.body_file == "events/issues/deliveries/issue-opened.json"
    assert run.python.startswith("3.12")


def test_findings_name_the_places(outcome: Outcome) -> None:
    """A schema mismatch is at the event's output_schema with its JSON path; a crash at the
    plugin's line; an undeclared event at the provider's `events`; the rest at the example."""
    found = {(f.rule, f.file, f.line) for f in outcome.report.findings["github_like"]}
    assert ("R015", "github_like/events/issues/issues.yaml", 17) in found
    assert ("R001", "github_like/events/push/push.py", 13) in found
    assert ("R102", "github_like/provider/github_like.yaml", 16) in found
    assert ("R103", "github_like/events/issues/issues.examples.yaml", 45) in found
    mismatch = next(f for f in outcome.report.findings["github_like"] if f.rule == "R015")
    assert "$.body: None is not of type 'string'" in mismatch.message
    assert "issue-without-body" in mismatch.message
    ignored = runs_of(outcome, "github_like")["issues/issue-edited-filtered"]
    assert ignored.detail == "action opened is not one of ['closed']"
    assert ignored.variables == {}


def test_bad_examples_are_findings_at_their_lines(outcome: Outcome) -> None:
    """Every broken example of a file is one finding at its line; the good ones still run."""
    places = sorted(
        [f.line, f.column]
        for f in outcome.report.findings["bad_examples"]
        if f.rule == "R101" and f.file.endswith("issues.examples.yaml")
    )
    assert places == sorted(expected("bad_examples")["r101_lines"])


def test_hostile_deliveries(outcome: Outcome) -> None:
    """The 50 MB body is refused unread; the deep JSON body fails in the plugin's dispatch, at its
    line (`get_json(silent=True)` silences only a ValueError)."""
    huge = [f for f in outcome.report.findings["huge_delivery"] if f.rule == "R101"]
    assert len(huge) == 1
    assert "it was not read" in huge[0].message
    assert f"more than the {MAX_BODY_BYTES}" in huge[0].message
    (deep,) = runs_of(outcome, "deep_json").values()
    crash = next(f for f in deep.findings if f.rule == "R001")
    assert (crash.file, crash.line) == ("deep_json/provider/github_like.py", 11)
    assert "_dispatch_event failed with RecursionError" in crash.message


def test_events_without_examples_are_never_run(outcome: Outcome) -> None:
    """An event without examples runs on no invented delivery; a note says it was checked statically."""
    assert not [r for r in outcome.report.event_runs if r.event.event == "ping"]
    notes = [f for f in outcome.report.findings["github_like"] if f.rule == "R104"]
    assert [f.file for f in notes] == ["github_like/events/ping/ping.yaml"]


def test_runs_are_cached(outcome: Outcome) -> None:
    """Unchanged, every delivery's run comes from the cache, with the same result."""
    options = RunOptions(cache_dir=outcome.cache, limits=LIMITS, jobs=1)
    again = run_plugins([outcome.plugins["github_like"]], options, load_schemas(REPO / "schemas"))
    first = [r for r in outcome.report.event_runs if r.plugin == "github_like"]
    assert [r.cached for r in again.event_runs] == [True] * len(first)
    assert [(r.example, r.result, r.variables) for r in again.event_runs] == [
        (r.example, r.result, r.variables) for r in first
    ]


def test_json_output_holds_event_runs(outcome: Outcome) -> None:
    """`--format json` lists each event run with its delivery, dispatch and variables."""
    from generator.report import Summary

    out = StringIO()
    runs = [r for r in outcome.report.event_runs if r.plugin == "github_like"]
    write_json([], Summary.of([], 1, 0), out, runs)
    document = json.loads(out.getvalue())
    shown = {run["example"]: run for run in document["event_runs"]}
    assert shown["issue-opened"]["dispatched"] == ["issues"]
    assert shown["issue-opened"]["result"] == "passed"
    assert shown["issue-edited-filtered"]["result"] == "ignored"
    assert document["runs"] == []


def test_overlay_examples_run_for_a_plugin_without_its_own(tmp_path: Path) -> None:
    """The registry's examples file (overlays/<author>/<plugin>/events/...) is read for an event
    whose plugin has none, its findings naming the overlay's file."""
    from generator.load.registry_examples import find_registry_examples

    root = lay_out("github_like", tmp_path / "plugins")
    shutil.move(root / "events/push/push.examples.yaml", tmp_path / "push.examples.yaml")
    overlay = tmp_path / "overlays" / "registry" / "github_like" / "events" / "push"
    overlay.mkdir(parents=True)
    shutil.move(tmp_path / "push.examples.yaml", overlay / "push.examples.yaml")
    loaded = find_registry_examples(tmp_path / "overlays", "overlays", load_plugin(root, "github_like"))
    assert loaded.plugin is not None
    push = next(e for e in plugin_events(loaded.plugin) if e.name == "push")
    examples, findings = load_event_examples(loaded, push)
    assert [e.name for e in examples] == ["branch-deleted"]
    assert [f.file for f in findings] == ["overlays/registry/github_like/events/push/push.examples.yaml"]


def test_raw_request_is_what_the_sdk_reads() -> None:
    """The raw request carries the method, target, headers and body, with Host and Content-Length."""
    delivery = Delivery("POST", "/hook?a=1", (("X-GitHub-Event", "issues"),), b'{"a": 1}')
    head, _, body = delivery.raw().partition(b"\r\n\r\n")
    assert head.split(b"\r\n") == [
        b"POST /hook?a=1 HTTP/1.1",
        b"Host: registry.invalid",
        b"X-GitHub-Event: issues",
        b"Content-Length: 8",
    ]
    assert body == b'{"a": 1}'


def test_case_files_exist() -> None:
    """Every case folder has its expected.yaml (a folder without one would silently not run)."""
    assert {p.name for p in CASES.iterdir() if p.is_dir()} == set(NAMES)
    assert (BASE / DELIVERY).stat().st_size < 10_000


def test_examples_reader_knows_the_keys_the_schema_allows() -> None:
    """The reader flags keys outside trigger_event_examples.json: its key lists follow the schema."""
    from generator.load.event_examples import EXAMPLE_KEYS, EXPECT_KEYS, REQUEST_KEYS

    schema = json.loads((REPO / "schemas/v1/trigger_event_examples.json").read_text())
    definitions = schema["definitions"]
    assert set(EXAMPLE_KEYS) == set(definitions["example"]["properties"])
    assert set(REQUEST_KEYS) == set(definitions["request"]["properties"])
    assert set(EXPECT_KEYS) == set(definitions["expect"]["properties"])


@pytest.mark.parametrize("name", ["github_like", "bad_examples"])
def test_schema_agrees_with_the_reader(name: str) -> None:
    """The good example files fit the published schema; each example the reader refuses, the schema
    refuses too (a duplicate name, a body file that climbs out of the plugin and one that is missing
    are the reader's alone: a schema sees neither other examples' names nor the folders; `..` is
    allowed, since a body file is named relative to the examples file)."""
    import jsonschema

    schema = json.loads((REPO / "schemas/v1/trigger_event_examples.json").read_text())
    validator = jsonschema.Draft7Validator(schema)
    path = CASES / name / "events/issues/issues.examples.yaml"
    entries = yaml.safe_load(path.read_text())["examples"]
    refused = {
        index for index, entry in enumerate(entries) if list(validator.iter_errors({"examples": [entry]}))
    }
    # github_like's examples all fit; of bad_examples', all but the good ones, the duplicate name,
    # the escaping file and the missing one
    assert refused == (set() if name == "github_like" else set(range(len(entries))) - {0, 1, 5, 6})


def test_a_changed_delivery_runs_again(outcome: Outcome, tmp_path: Path) -> None:
    """The cache key holds the delivery's bytes: a registry's overlay file changes no plugin file."""
    root = lay_out("github_like", tmp_path)
    options = RunOptions(
        cache_dir=outcome.cache, limits=LIMITS, jobs=1, tool="issues", example="issue-opened"
    )
    schemas = load_schemas(REPO / "schemas")
    first = run_plugins([load_plugin(root, "github_like")], options, schemas)
    delivery = root / DELIVERY
    delivery.write_text(delivery.read_text().replace('"number": 7', '"number": 8'))
    again = run_plugins([load_plugin(root, "github_like")], options, schemas)
    assert [(r.cached, r.variables["number"]) for r in first.event_runs + again.event_runs] == [
        (True, 7),
        (False, 8),
    ]


def test_the_commands_show_event_runs(outcome: Outcome, capsys: pytest.CaptureFixture[str]) -> None:
    """`run` shows each delivery's run (text and JSON) and exits 1 on its errors; `validate --run`
    reports the runs' findings."""
    from generator.cli import main

    root = str(outcome.plugins["github_like"].root)
    where = ["--cache-dir", str(outcome.cache)]  # its environment; the default limits run anew
    assert main(["run", root, *where]) == 1
    shown = capsys.readouterr().out
    assert "== github_like/github_like/issues issue-opened: passed" in shown
    assert "  dispatched star" in shown
    assert main(["run", root, "--format", "json", *where]) == 1
    document = json.loads(capsys.readouterr().out)
    assert {run["example"] for run in document["event_runs"]} >= {"issue-opened", "branch-deleted"}
    assert main(["validate", "--run", root, "--format", "json", *where]) == 1
    rules = {finding["rule"] for finding in json.loads(capsys.readouterr().out)["diagnostics"]}
    assert {"R015", "R102", "R103", "R105"} <= rules
