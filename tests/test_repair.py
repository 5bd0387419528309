"""A tool YAML that does not parse is read again with its broken text lines quoted (load/repair.py)."""

from __future__ import annotations

from generator.findings import Finding, Severity
from generator.load.repair import repaired, told_on_repaired
from generator.load.yamlload import read_yaml


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
