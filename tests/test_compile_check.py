"""U013 and U027: code is compiled with the Python the runner picks for `meta.runner.version`, and a
machine without that Python says it could not check instead of reporting a false syntax error."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from generator.check import CheckContext
from generator.check.all_checks import check_plugin
from generator.findings import Finding
from generator.interpreters import Interpreter, find_interpreters
from generator.load.crawl import load_plugin
from tests.validate_cases import CASES

NESTED_QUOTES = 'greeting = f"{"hello"}"\n'  # valid from Python 3.12 on
BROKEN = "def broken(:\n"


def plugin_with(tmp_path: Path, runner: str, code: str) -> Path:
    """The submission-ready case with `meta.runner.version: runner` and one more module."""
    target = tmp_path / "plugin"
    shutil.copytree(CASES / "good" / "submission-ready", target)
    manifest = target / "manifest.yaml"
    manifest.write_text(manifest.read_text().replace("version: '3.12'", f"version: '{runner}'"))
    (target / "tools" / "extra.py").write_text(code)
    return target


def compile_findings(folder: Path, interpreters: list[Interpreter] | None = None) -> list[Finding]:
    """U013 and U027 findings, with the machine's interpreters or the ones given."""
    memo = {} if interpreters is None else {"generator.check.python": interpreters}
    found = check_plugin(load_plugin(folder, ""), CheckContext(submission=True, memo=memo))
    return [d for d in found if d.rule in ("U013", "U027")]


def test_newer_syntax_compiles_with_the_plugins_python(tmp_path: Path) -> None:
    """Nested quotes in an f-string are valid on 3.12: compiled by 3.12, they are no finding."""
    if not any(i.version == (3, 12) for i in find_interpreters()):
        pytest.skip("Python 3.12 is not installed on this machine (PATH or pyenv)")
    assert compile_findings(plugin_with(tmp_path, "3.12", NESTED_QUOTES)) == []


def test_the_plugins_python_reports_real_errors(tmp_path: Path) -> None:
    """The runner's interpreter (here this one, presented as 3.99) finds the error: U013, an error."""
    fake = Interpreter(Path(sys.executable), (3, 99))
    found = compile_findings(plugin_with(tmp_path, "3.99", BROKEN), [fake])
    assert [(d.rule, d.severity.value, d.file, d.line) for d in found] == [
        ("U013", "error", "tools/extra.py", 1)
    ]
    assert "python3.99 -m py_compile tools/extra.py" in found[0].hint


def test_a_missing_python_is_a_note_not_an_error(tmp_path: Path) -> None:
    """Without the plugin's Python, a file this Python cannot compile is U027, a note."""
    found = compile_findings(plugin_with(tmp_path, "3.99", BROKEN), [])
    assert [(d.rule, d.severity.value, d.file) for d in found] == [("U027", "info", "tools/extra.py")]
    assert "Python 3.99" in found[0].message


def test_an_interpreter_that_cannot_run_falls_back(tmp_path: Path) -> None:
    """A listed interpreter that does not start is not trusted: the note says what was not checked."""
    gone = Interpreter(tmp_path / "no-such-python", (3, 99))
    found = compile_findings(plugin_with(tmp_path, "3.99", BROKEN), [gone])
    assert [d.rule for d in found] == ["U027"]
