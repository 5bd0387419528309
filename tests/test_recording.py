"""Recording examples against an API once and replaying them offline, end to end: every HTTP client
library (requests, httpx sync and async, urllib3, urllib.request, aiohttp), several requests in one
run, the registry's own API plugins (a binary cover image, a streamed response), no secret in any
recording or log, no connection during replay, and the findings of a replay that does not match."""

from __future__ import annotations

import os
import shutil
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from generator.cli import main
from generator.load.crawl import load_plugin
from generator.run import RunOptions, all_findings, run_plugins
from generator.run.runtypes import RunReport
from tests.conftest import REPO
from tests.fake_api import BOOK_KEY, CASE_KEY, PORT, RATES_TOKEN, serving

CLIENTS = REPO / "tests" / "cases" / "recording" / "clients"
API_PLUGINS = ("book_finder", "rate_converter")
VARIABLES = {"CASE_API_KEY": CASE_KEY, "BOOK_FINDER_API_KEY": BOOK_KEY, "RATE_CONVERTER_TOKEN": RATES_TOKEN}

pytestmark = pytest.mark.xdist_group("runner")


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("recording-cache")


@pytest.fixture(scope="module")
def variables() -> Iterator[None]:
    """The credentials' environment variables, set as an author sets them to record."""
    before = {name: os.environ.get(name) for name in VARIABLES}
    os.environ.update(VARIABLES)
    yield
    for name, value in before.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


def _run(root: Path, cache: Path, record: bool = False) -> RunReport:
    options = RunOptions(cache_dir=cache, jobs=2, use_cache=False, record=record)
    return run_plugins([load_plugin(root)], options)


@pytest.fixture(scope="module")
def recorded(
    tmp_path_factory: pytest.TempPathFactory, cache: Path, variables: None
) -> tuple[Path, RunReport]:
    """The client-library case plugin, recorded against the stand-in API."""
    root = tmp_path_factory.mktemp("record") / "clients"
    shutil.copytree(CLIENTS, root)
    with serving():
        report = _run(root, cache, record=True)
    return root, report


@pytest.fixture(scope="module")
def replayed(recorded: tuple[Path, RunReport], cache: Path) -> tuple[RunReport, list[str]]:
    """The same plugin run again, with the stand-in serving on its port: a replay must not ask it."""
    root, _ = recorded
    with serving() as server:
        report = _run(root, cache)
    return report, list(server.seen)  # type: ignore[attr-defined]


def _spellings(value: str) -> list[str]:
    return [value, urllib.parse.quote(value, safe=""), urllib.parse.quote_plus(value)]


def test_every_client_library_is_recorded(recorded: tuple[Path, RunReport]) -> None:
    root, report = recorded
    assert len(report.runs) == 8
    assert all(run.passed for run in report.runs), all_findings(report)
    for run in report.runs:
        assert run.replay is not None
        assert run.replay.recorded
        assert (root / "tools" / f"{run.tool.tool}.recordings" / "call.yaml").is_file()
    several = next(run for run in report.runs if run.tool.tool == "several")
    assert several.replay is not None
    assert len(several.replay.requests) == 3


def test_a_recording_states_its_date_version_and_hashes(recorded: tuple[Path, RunReport]) -> None:
    root, _ = recorded
    data = yaml.safe_load((root / "tools" / "requests_post.recordings" / "call.yaml").read_text())
    assert data["format"] == 1
    assert data["tool"] == "requests_post"
    assert data["plugin_version"] == "0.0.1"
    assert len(data["inputs_sha256"]) == len(data["code_sha256"]) == 64
    request = data["interactions"][0]["request"]
    assert request["method"] == "POST"
    assert "dify-registry-credential-api_key" in request["body"]["text"]
    assert request["headers"]["X-Api-Key"] == ["dify-registry-redacted"]


def test_no_secret_in_any_recording_or_log(recorded: tuple[Path, RunReport], cache: Path) -> None:
    root, report = recorded
    texts = [path.read_bytes().decode("utf-8", "replace") for path in root.rglob("*.yaml")]
    texts += [path.read_text(errors="replace") for path in cache.rglob("run.json")]
    texts += [run.stdout + run.stderr for run in report.runs]
    texts += [d.message + d.hint for d in all_findings(report)]
    for spelling in _spellings(CASE_KEY):
        assert not [text for text in texts if spelling in text]


def test_replay_answers_every_request_offline(
    recorded: tuple[Path, RunReport], replayed: tuple[RunReport, list[str]]
) -> None:
    _, live = recorded
    report, connections = replayed
    assert connections == []
    assert all(run.passed for run in report.runs), all_findings(report)
    assert [d for d in all_findings(report) if d.severity.rank >= 1] == []
    for before, after in zip(live.runs, report.runs, strict=True):
        assert after.replay is not None
        assert not after.replay.recorded
        assert after.outputs["library"] == before.outputs["library"] == before.tool.tool
        assert after.replay.requests == before.replay.requests if before.replay else False
    posted = next(run for run in report.runs if run.tool.tool == "requests_post")
    assert "dify-registry-credential-api_key" in str(posted.outputs["posted"])


def test_a_request_without_answer_is_an_error_and_the_recording_stale(
    recorded: tuple[Path, RunReport], cache: Path, tmp_path: Path
) -> None:
    root = tmp_path / "clients"
    shutil.copytree(recorded[0], root)
    examples = root / "tools" / "requests_get.examples.yaml"
    examples.write_text(examples.read_text().replace("word: hello", "word: goodbye"))
    code = root / "tools" / "requests_get.py"
    code.write_text(code.read_text() + "# changed after recording\n")
    with serving() as server:
        report = run_plugins([load_plugin(root)], RunOptions(cache_dir=cache, tool="requests_get"))
    findings = {d.rule: d for d in all_findings(report)}
    assert server.seen == []  # type: ignore[attr-defined]
    assert "GET http://127.0.0.1:48371/case/requests_get?word=goodbye" in findings["R044"].message
    assert "closest recorded request is GET http://127.0.0.1:48371/case/requests_get?word=hello" in (
        findings["R044"].message
    )
    assert "the example's inputs changed since and the plugin's Python code changed since" in (
        findings["R045"].message
    )
    assert not report.runs[0].passed


def test_recording_needs_the_variables_before_anything_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "clients"
    shutil.copytree(CLIENTS, root)
    saved = os.environ.pop("CASE_API_KEY", None)
    try:
        assert main(["run", str(root), "--record", "--cache-dir", str(tmp_path / "cache")]) == 2
    finally:
        if saved is not None:
            os.environ["CASE_API_KEY"] = saved
    assert "CASE_API_KEY" in capsys.readouterr().err
    assert list(root.rglob("*.recordings")) == []


@pytest.mark.parametrize("name", API_PLUGINS)
def test_committed_recordings_replay_without_the_api(name: str, cache: Path) -> None:
    """The registry's API plugins run from their committed recordings; the stand-in, serving on the
    port the recordings name, is never asked."""
    with serving() as server:
        report = _run(REPO / "plugins" / name, cache)
    assert server.seen == []  # type: ignore[attr-defined]
    assert report.runs
    assert all(run.passed and run.replay is not None for run in report.runs), all_findings(report)
    assert [d.rule for d in all_findings(report) if d.severity.rank >= 1] == []
    if name == "book_finder":
        cover = next(run for run in report.runs if run.example == "small-garden")
        assert cover.files[0].mime_type == "image/png"
        assert cover.files[0].path.read_bytes().startswith(b"\x89PNG")
    else:
        history = next(run for run in report.runs if run.example == "euro-dollar-week")
        assert len(history.outputs["points"]) == 5


@pytest.mark.parametrize("name", API_PLUGINS)
def test_committed_recordings_are_what_recording_gives(
    name: str, cache: Path, tmp_path: Path, variables: None
) -> None:
    """Recorded again against the stand-in, each plugin gives the interactions it has committed."""
    root = tmp_path / name
    shutil.copytree(REPO / "plugins" / name, root)
    for old in root.rglob("*.recordings"):
        shutil.rmtree(old)
    with serving(PORT) as server:
        report = _run(root, cache, record=True)
    assert server.seen  # type: ignore[attr-defined]
    assert all(run.passed for run in report.runs), all_findings(report)

    def exchanges(path: Path) -> list[tuple[str, str, int, object]]:
        data = yaml.safe_load(path.read_text())
        return [
            (i["request"]["method"], i["request"]["url"], i["response"]["status"], i["response"]["body"])
            for i in data["interactions"]
        ]

    committed = sorted((REPO / "plugins" / name).rglob("*.recordings/*.yaml"))
    assert committed
    for path in committed:
        again = root / path.relative_to(REPO / "plugins" / name)
        assert exchanges(again) == exchanges(path)
