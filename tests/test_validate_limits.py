"""Limits that need large inputs, built in a temporary folder instead of committed."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.validate_cases import CASES, findings_of


@pytest.fixture
def plugin(tmp_path: Path) -> Path:
    """A copy of the minimal good plugin to break."""
    target = tmp_path / "plugin"
    shutil.copytree(CASES / "good" / "minimal", target)
    return target


def rules(folder: Path, submission: bool = False) -> set[str]:
    return {d.rule for d in findings_of(folder, submission)}


def test_oversized_yaml_file(plugin: Path) -> None:
    """A tool YAML over the reader's size limit is reported, not read."""
    with (plugin / "tools" / "echo.yaml").open("ab") as grow:
        grow.write(b"# padding\n" * 900_000)
    found = findings_of(plugin)
    assert [(d.rule, d.file, d.line) for d in found] == [("Y005", "tools/echo.yaml", 1)]


def test_too_many_yaml_files(plugin: Path) -> None:
    """A provider listing thousands of tool YAMLs stops at the loader's limit."""
    listed = [f"  - tools/t{i}.yaml\n" for i in range(5001)]
    for i in range(5001):
        (plugin / "tools" / f"t{i}.yaml").write_text("a: 1\n")
    provider = plugin / "provider" / "demo.yaml"
    provider.write_text(provider.read_text().replace("  - tools/echo.yaml\n", "".join(listed)))
    assert "F007" in rules(plugin)


def test_plugin_over_50_mb(plugin: Path) -> None:
    """More than 50 MB of packaged files is an error; ignored files do not count."""
    with (plugin / "data.bin").open("wb") as big:
        big.truncate(51 * 1024 * 1024)  # sparse: costs no disk
    assert "M014" in rules(plugin)
    (plugin / ".difyignore").write_text("*.bin\n")
    assert "M014" not in rules(plugin)


def test_more_than_5000_files(plugin: Path) -> None:
    """The marketplace's 5000-file limit applies with --submission only."""
    extra = plugin / "data"
    extra.mkdir()
    for i in range(5001):
        (extra / f"{i}.txt").touch()
    assert "U007" in rules(plugin, submission=True)
    assert "U007" not in rules(plugin)


def test_examples_file_with_thousands_of_examples_and_stray_inputs(plugin: Path) -> None:
    """A stranger's examples file is read only up to its limit, and its input problems are listed
    up to theirs, the rest summed up in one finding each."""
    from generator.load.examples import MAX_EXAMPLES, MAX_INPUT_FINDINGS

    stray = "".join(f"      stray{k}: {k}\n" for k in range(5))
    entries = [f"  - name: e{i}\n    inputs:\n      text: x\n{stray}" for i in range(2000)]
    (plugin / "tools" / "echo.examples.yaml").write_text("examples:\n" + "".join(entries))
    found = findings_of(plugin)
    assert len([d for d in found if d.rule == "R033"]) == MAX_INPUT_FINDINGS
    summaries = sorted(d.message for d in found if d.rule == "R030")
    assert len(summaries) == 2
    assert f"the file holds 2000 examples; only the first {MAX_EXAMPLES} are read" in summaries[1]
    assert f"than the {MAX_INPUT_FINDINGS} listed" in summaries[0]


def test_example_with_many_unknown_keys(plugin: Path) -> None:
    """Unknown keys of one example are listed up to a limit, then counted in one finding."""
    from generator.load.examples import MAX_UNKNOWN_KEYS

    keys = "".join(f"    extra{k}: {k}\n" for k in range(MAX_UNKNOWN_KEYS + 30))
    examples = f"examples:\n  - name: e\n    inputs: {{text: x}}\n{keys}"
    (plugin / "tools" / "echo.examples.yaml").write_text(examples)
    messages = [d.message for d in findings_of(plugin) if d.rule == "R030"]
    assert len(messages) == MAX_UNKNOWN_KEYS + 1
    assert messages.count("examples file: example e: 30 more unknown keys are not listed") == 1
