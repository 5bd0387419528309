"""A tool YAML that does not parse is read again with its broken text lines quoted (load/repair.py)."""

from __future__ import annotations

from generator.findings import Finding, Severity
from generator.load.crawl import load_plugin
from generator.load.repair import repaired, told_on_repaired
from generator.load.yamlload import read_yaml
from generator.run.verdict import nothing_ran
from tests.validate_cases import CASES


def test_a_colon_in_a_help_text_is_quoted() -> None:
    """The value becomes the same text, its comment cut off, and the line is remembered."""
    raw = b'help:\n  en_US: e.g. {"id": 1} # note\n  zh_Hans: ok\nname: x\n'
    first = read_yaml(raw, "t.yaml")
    assert not first.ok
    fixed = repaired(raw, first)
    assert fixed is not None
    assert fixed.data == {"help": {"en_US": 'e.g. {"id": 1}', "zh_Hans": "ok"}, "name": "x"}
    assert fixed.repaired == (2,)
    assert fixed.findings == first.findings  # the Y001 is kept


def test_a_continuation_line_is_folded_in() -> None:
    raw = b"a:\n  llm: one: two\n    three\nb: 1\n"
    fixed = repaired(raw, read_yaml(raw, "t.yaml"))
    assert fixed is not None
    assert fixed.data == {"a": {"llm": "one: two three"}, "b": 1}
    assert fixed.repaired == (2, 3)


def test_an_error_outside_a_text_field_is_not_repaired() -> None:
    for raw in (b"type: [string\nname: x\n", b"name: a: b\n", b"a:\n  en_US: |\n  x: y\n  - z\n"):
        assert repaired(raw, read_yaml(raw, "t.yaml")) is None


def test_findings_on_repaired_lines_are_dropped_and_the_others_told() -> None:
    raw = b"a:\n  en_US: x: y\nb: 1\n"
    fixed = repaired(raw, read_yaml(raw, "t.yaml"))
    assert fixed is not None
    on_line = Finding("t.yaml", 2, 3, "", "T001", Severity.ERROR, "m", "h")
    elsewhere = Finding("t.yaml", 3, 1, "", "T001", Severity.ERROR, "m", "h")
    other_file = Finding("u.yaml", 2, 3, "", "T001", Severity.ERROR, "m", "h")
    told = told_on_repaired([fixed], [*fixed.findings, on_line, elsewhere, other_file])
    assert told[: len(fixed.findings)] == list(fixed.findings)
    assert on_line not in told
    assert other_file in told
    assert any(f.line == 3 and "read as quoted text" in f.hint for f in told)


def test_a_repaired_tool_is_checked_but_never_run() -> None:
    """The case's notes tool joins the plugin (its code is checked) but counts as a tool Dify
    cannot load: no run, and R052 says that no tool loads."""
    loaded = load_plugin(CASES / "bad" / "tool-yaml-syntax-error-still-checked", "")
    assert loaded.plugin is not None
    (tool,) = loaded.plugin.tools
    assert tool.name == "notes"
    assert not loaded.loads(tool)
    (told,) = nothing_ran(loaded)
    assert "no tool that loads" in told.message
