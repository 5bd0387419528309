"""The command-line contract of `dify-registry validate`: formats, colours and exit codes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from generator.cli import main
from tests.validate_cases import CASES, case_folders

M010_HINT = "List at least one provider YAML under `plugins:` (for a tool plugin: `plugins.tools`)."
M010_MESSAGE = "the manifest lists no tools, models, endpoints, agent strategies, datasources or triggers"


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working folder with `plugin/` (no plugin kind: one error) and `clean/` (no findings)."""
    shutil.copytree(CASES / "bad" / "no-plugin-kind", tmp_path / "plugin")
    shutil.copytree(CASES / "good" / "minimal", tmp_path / "clean")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    return tmp_path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(["validate", *argv])
    return code, capsys.readouterr().out


def test_text_format_is_exact(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`path:line:col: severity RULE message`, an indented hint, the count of each rule, then the
    summary line."""
    code, out = run(capsys, "plugin")
    assert out == (
        f"plugin/manifest.yaml:20:1: error M010 {M010_MESSAGE}\n"
        f"  hint: {M010_HINT}\n"
        "findings by rule:\n"
        "  1  M010  no-plugin-kind\n"
        "1 plugin, 0 tools, 1 file: 1 error, 0 warnings, 0 info\n"
    )
    assert code == 1


def test_json_format_keys(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The JSON document has stable keys for every finding and the summary."""
    _, out = run(capsys, "plugin", "--format", "json")
    document = json.loads(out)
    assert set(document) == {"version", "diagnostics", "summary"}
    [finding] = document["diagnostics"]
    assert finding == {
        "file": "plugin/manifest.yaml",
        "line": 20,
        "column": 1,
        "pointer": "/plugins",
        "rule": "M010",
        "severity": "error",
        "message": M010_MESSAGE,
        "hint": M010_HINT,
    }
    assert document["summary"] == {
        "plugins": 1,
        "tools": 0,
        "errors": 1,
        "warnings": 0,
        "infos": 0,
        "files": 1,
        "other_plugins": {},
    }


def test_sarif_structure(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """SARIF 2.1.0: one run, the rules used, results with physical locations."""
    _, out = run(capsys, "plugin", "--format", "sarif")
    document = json.loads(out)
    assert document["version"] == "2.1.0"
    assert document["$schema"].endswith("sarif-2.1.0.json")
    [sarif_run] = document["runs"]
    driver = sarif_run["tool"]["driver"]
    assert driver["name"] == "dify-registry"
    assert [r["id"] for r in driver["rules"]] == ["M010"]
    assert driver["rules"][0]["name"] == "no-plugin-kind"
    [result] = sarif_run["results"]
    assert result["ruleId"] == "M010"
    assert result["level"] == "error"
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "plugin/manifest.yaml"
    assert location["region"] == {"startLine": 20, "startColumn": 1}


def test_github_annotations(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """One workflow command per finding, then the summary."""
    _, out = run(capsys, "plugin", "--format", "github")
    first, summary = out.splitlines()
    assert first == (
        f"::error file=plugin/manifest.yaml,line=20,col=1,title=M010::{M010_MESSAGE}. Hint: {M010_HINT}"
    )
    assert summary.startswith("1 plugin, 0 tools, 1 file: 1 error")


def test_colour_is_forced_and_no_color_wins(
    workdir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Colours only when asked for (or on a terminal); NO_COLOR always turns them off."""
    assert "\033[" not in run(capsys, "plugin")[1]
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert "\033[1;31merror\033[0m" in run(capsys, "plugin")[1]
    monkeypatch.setenv("NO_COLOR", "1")
    assert "\033[" not in run(capsys, "plugin")[1]


def test_exit_codes(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """0 clean or warnings only, 1 errors or warnings with --strict."""
    assert run(capsys, "clean")[0] == 0
    tool = workdir / "clean" / "tools" / "echo.yaml"
    tool.write_text(tool.read_text().replace("  name: echo\n", "  name: echo\n  icon: gone.svg\n"))
    code, out = run(capsys, "clean")
    assert (code, "warning T006" in out) == (0, True)
    assert run(capsys, "clean", "--strict")[0] == 1
    assert run(capsys, "plugin")[0] == 1


@pytest.mark.parametrize(
    "argv",
    [["--format", "xml", "plugin"], ["missing-folder"], ["plugin/README.md"], []],
    ids=["bad-format", "missing-path", "not-a-package", "no-path"],
)
def test_usage_errors_exit_2(workdir: Path, capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    """Wrong options and paths that name nothing to validate are usage errors."""
    assert main(["validate", *argv]) == 2
    assert "dify-registry" in capsys.readouterr().err


def test_every_bad_case_reports_without_a_traceback(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Malformed input of every kind gives findings with a location and exit code 1."""
    for format_ in ("text", "json", "sarif", "github"):
        code, out = run(capsys, *map(str, case_folders("bad")), "--submission", "--format", format_)
        assert code == 1
        assert out
    _, out = run(capsys, *map(str, case_folders("bad")), "--format", "json")
    for finding in json.loads(out)["diagnostics"]:
        assert finding["file"]
        assert finding["line"] >= 1 or finding["rule"] == "F004"
