"""The YAML reader: values, positions, and findings instead of exceptions."""

from __future__ import annotations

import pytest

from generator.load.yamlload import read_yaml


def codes(raw: bytes) -> list[str]:
    return [d.rule for d in read_yaml(raw, "x.yaml").findings]


def test_values_and_positions_are_kept() -> None:
    """Every value has a 1-based line and column under its JSON pointer."""
    doc = read_yaml(b"a: 1\nb:\n  - x\n  - {c: 2}\n", "x.yaml")
    assert doc.data == {"a": 1, "b": ["x", {"c": 2}]}
    assert doc.positions["/a"] == (1, 4)
    assert doc.positions["/b/1/c"] == (4, 9)
    assert doc.key_positions["/b"] == (2, 1)


def test_duplicate_key_is_reported_where_the_second_one_is() -> None:
    """PyYAML keeps the last value silently; the reader says so."""
    doc = read_yaml(b"name: a\nlabel: x\nname: b\n", "x.yaml")
    [finding] = doc.findings
    assert (finding.rule, finding.line, finding.column) == ("Y002", 3, 1)
    assert doc.data["name"] == "b"


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        (b"a: !!python/object:os.system x\n", "Y003"),
        (b"[" * 5000 + b"]" * 5000, "Y004"),
        (b"- " * 300 + b"x\n", "Y004"),
        (b"a: [1\n", "Y001"),
        (b"\xff\xfe: x\n", "Y007"),
        (b"a: \x00\n", "Y007"),
        (b"\xef\xbb\xbfa: 1\n", "Y008"),
        (b"a: 1\r\nb: 2\r\n", "Y009"),
        (b"# nothing\n", "Y010"),
    ],
)
def test_bad_input_becomes_a_finding(raw: bytes, code: str) -> None:
    """Hostile or broken YAML never raises: it yields the matching rule."""
    assert code in codes(raw)


def test_alias_bomb_is_stopped() -> None:
    """Nested aliases that would expand to billions of values stop at the node budget."""
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 10)]
    assert "Y006" in codes("\n".join(lines).encode())


def test_timestamps_stay_text() -> None:
    """Dates are kept as written so manifests stay JSON data."""
    assert read_yaml(b"created_at: 2024-09-20T00:13:50Z\n", "x.yaml").data == {
        "created_at": "2024-09-20T00:13:50Z"
    }
