"""`dify-registry run` prints messages, outputs and findings, with validate's exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from generator.cli import main
from tests.conftest import REPO

CASES = REPO / "tests" / "cases" / "run"

pytestmark = pytest.mark.xdist_group("runner")


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One environment for the module's runs."""
    return tmp_path_factory.mktemp("cache")


def test_run_text_and_exit_codes(cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A good plugin exits 0 and shows its outputs; a crashing one exits 1 with its finding."""
    where = ["--cache-dir", str(cache)]
    assert main(["run", str(CASES / "good_basic"), *where]) == 0
    shown = capsys.readouterr().out
    assert "good_basic/basic/echo hello: passed" in shown
    assert '"story": "once upon"' in shown
    assert main(["run", str(CASES / "import_crash"), *where]) == 1
    assert "R001" in capsys.readouterr().out


def test_run_json(cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`--format json` holds the runs next to the findings and summary."""
    code = main(["run", str(CASES / "reserved_name"), "--format", "json", "--cache-dir", str(cache)])
    document = json.loads(capsys.readouterr().out)
    assert code == 1
    assert [d["rule"] for d in document["diagnostics"]] == ["R010"]
    assert document["runs"][0]["messages"][0]["type"] == "variable"


def test_validate_run_adds_run_findings(cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`validate --run` reports the runner's findings too."""
    code = main(["validate", "--run", str(CASES / "prints_stdout"), "--cache-dir", str(cache)])
    assert code == 0
    assert "R008" in capsys.readouterr().out


REFUSED = REPO / "tests" / "cases" / "run_refused"


@pytest.mark.parametrize("name", sorted(p.name for p in REFUSED.iterdir() if (p / "expected.yaml").is_file()))
def test_run_on_a_refused_plugin_says_so(cache: Path, capsys: pytest.CaptureFixture[str], name: str) -> None:
    """`run` on a plugin Dify refuses, or on which nothing can run, says why and exits 1."""
    expected = yaml.safe_load((REFUSED / name / "expected.yaml").read_text())
    code = main(["run", str(REFUSED / name), "--cache-dir", str(cache)])
    assert expected["says"] in capsys.readouterr().out
    assert code == expected["exit"]


def test_run_prints_the_inputs_it_invented(cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A smoke run's invented inputs are printed, its input files too, and it is never "passed"."""
    main(["run", str(CASES / "file_blob_called"), "--cache-dir", str(cache)])
    shown = capsys.readouterr().out
    assert "(smoke run on invented inputs): crashed in the plugin's code" in shown
    assert "input file document: sample.txt (text/plain, " in shown
    main(["run", str(CASES / "answers_error"), "--cache-dir", str(cache), "--format", "json"])
    document = json.loads(capsys.readouterr().out)
    run = document["runs"][0]
    assert (run["result"], run["detail"], run["passed"]) == (
        "tool-error",
        "Invalid expression: example",
        False,
    )
    assert run["inputs"] == {"expression": "example"}
