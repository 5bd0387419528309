"""`dify-registry run` prints messages, outputs and findings, with validate's exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

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
