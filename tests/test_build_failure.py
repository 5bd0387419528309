"""What a failed build's uv output says, in few words: the package that failed and the line that
names the cause, which uv prints last (uv's real output in tests/cases/build_failures/)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from generator.findings import Location, Severity
from generator.interpreters import Interpreter
from generator.run.build_failure import PART, Missing, missing_library, out_of_space, summary
from generator.run.envbuild import PROBLEM_HEAD, PROBLEM_TAIL, readable
from generator.run.environment import Environment
from generator.run.runner import _environment_findings

CASES = Path(__file__).resolve().parent / "cases" / "build_failures"


def _problem(name: str) -> str:
    """The case's uv output as the runner keeps it (one line, start and end)."""
    return readable((CASES / name).read_text(encoding="utf-8"), Path("/nonexistent"))


def test_a_long_build_output_keeps_the_package_that_failed() -> None:
    problem = _problem("pycairo.txt")
    assert len(problem) <= PROBLEM_HEAD + PROBLEM_TAIL + 3
    failed, cause = summary(problem).split("; ")
    assert failed == "Failed to build `pycairo==1.29.2`"
    assert cause == 'ERROR: Dependency "cairo" not found (tried pkg-config and cmake)'


def test_the_cause_uv_prints_last_is_kept() -> None:
    said = summary(_problem("requires_python.txt"))
    assert said.startswith("No solution found when resolving dependencies")
    assert "The `requires-python` value (>=3.11) includes Python versions that are not supported" in said
    assert "While the active Python version" not in said  # the earlier, less specific hint


def test_the_missing_system_library_is_named_with_its_package() -> None:
    assert missing_library(_problem("pycairo.txt")) == Missing("cairo", "pycairo")
    assert missing_library(_problem("requires_python.txt")) is None


def test_build_tools_words_for_a_missing_library() -> None:
    said = {
        "Package 'libxml-2.0', required by 'virtual:world', not found in the pkg-config": "libxml-2.0",
        "Package cairo was not found in the pkg-config search path.": "cairo",
        "No package 'gobject-introspection-1.0' found": "gobject-introspection-1.0",
        "src/x.c:1:10: fatal error: mysql.h: No such file or directory": "mysql.h",
        "Error: pg_config executable not found.": "pg_config",
    }
    for text, library in said.items():
        found = missing_library(text)
        assert found is not None, text
        assert found.library == library, text


def test_a_text_without_uv_marks_is_shown_as_it_is() -> None:
    assert summary("the build made no progress for 4 s and was stopped") == (
        "the build made no progress for 4 s and was stopped"
    )
    assert summary("") == ""


@given(
    st.lists(st.sampled_from(["a", "b c", "ERROR: x", "\n", "×", "error: ", "cause: ", "hint: ", "[stdout]"]))
)
def test_any_text_gives_a_bounded_summary(pieces: list[str]) -> None:
    """uv's output is a stranger's text (a build script prints what it likes): never a crash."""
    text = "".join(pieces)
    said = summary(readable(text, Path("/nonexistent")))
    assert len(said) <= 2 * PART + 2
    missing_library(text)


def test_a_full_disk_is_the_machines() -> None:
    """uv's words for a full disk while it unpacks a wheel are found anywhere in its message; a
    failure for another reason has none."""
    full = (
        "error: Failed to download `nvidia-cusolver==12.2.0.11` caused by: failed to write to file "
        "`/cache/uv/nvidia_cusolver.whl`: No space left on device (os error 28)"
    )
    assert out_of_space(full) == "No space left on device"
    assert out_of_space("error: Failed to build `pycairo==1.29.2` cause: Dependency 'cairo' not found") == ""


def test_a_full_disk_is_a_warning_not_the_plugins_error() -> None:
    """R132 (a warning) where the plugin would otherwise get R009 (an error) for a full disk."""
    full = "error: Failed to download `torch==2.15.0` caused by: No space left on device (os error 28)"
    environment = Environment("key", Path("python"), Interpreter(Path("python"), (3, 12)), "3.12", full)
    (finding,) = _environment_findings(environment, Location("plugin/requirements.txt", 2))
    assert (finding.rule, finding.severity, finding.line) == ("R132", Severity.WARNING, 2)
    assert "No space left on device" in finding.message
