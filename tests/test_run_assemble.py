"""Outputs are assembled from message sequences exactly as Dify's tool node does (no child runs)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from generator.findings import Location
from generator.run.assemble import assemble
from generator.run.runtypes import OutputFile, RunMessage

HERE = Location("tool.yaml", 1, 1)
PNG = OutputFile("w.png", "image/png", 3, "0" * 64, Path("0.png"), "files/p/v/t/e/0.png")
NAMELESS = OutputFile("", "", 1, "0" * 64, Path("1.bin"), "files/p/v/t/e/1.bin")


def text(value: str) -> RunMessage:
    return RunMessage("text", {"text": value}, None, "TextMessage")


def variable(name: str, value: Any, stream: bool = False) -> RunMessage:
    payload = {"variable_name": name, "variable_value": value, "stream": stream}
    return RunMessage("variable", payload, None, "VariableMessage")


def json_message(value: Any) -> RunMessage:
    return RunMessage("json", {"json_object": value}, None, "JsonMessage")


EMPTY = {"text": "", "files": [], "json": [{"data": []}]}

CASES: list[tuple[str, list[RunMessage], dict[str, Any], list[str]]] = [
    ("nothing", [], EMPTY, []),
    ("texts concatenate", [text("a"), text("b")], {**EMPTY, "text": "ab"}, []),
    (
        "a link adds a line",
        [text("see "), RunMessage("link", {"text": "https://x.org"}, None, "TextMessage")],
        {**EMPTY, "text": "see Link: https://x.org\n"},
        [],
    ),
    ("json in order", [json_message({"a": 1}), json_message([2])], {**EMPTY, "json": [{"a": 1}, [2]]}, []),
    ("empty json skipped", [json_message({}), json_message([])], EMPTY, []),
    ("last write wins", [variable("v", 1), variable("v", 2)], {**EMPTY, "v": 2}, []),
    ("stream appends", [variable("s", "a", True), variable("s", "b", True)], {**EMPTY, "s": "ab"}, []),
    ("plain after stream replaces", [variable("s", "a", True), variable("s", 3)], {**EMPTY, "s": 3}, []),
    ("None is a value", [variable("n", None)], {**EMPTY, "n": None}, []),
    ("reserved name", [variable("json", 1)], EMPTY, ["R010"]),
    ("stream of a number", [variable("s", 1, True)], EMPTY, ["R012"]),
    ("stream into a number", [variable("s", 1), variable("s", "x", True)], {**EMPTY, "s": 1}, ["R012"]),
    (
        "type and payload disagree",
        [RunMessage("text", {"json_object": {}}, None, "JsonMessage")],
        EMPTY,
        ["R013"],
    ),
    ("unknown type", [RunMessage("carrier_pigeon", {}, None, "")], EMPTY, ["R013"]),
    ("logs are not outputs", [RunMessage("log", {"label": "l", "data": {}}, None, "LogMessage")], EMPTY, []),
]


@pytest.mark.parametrize(("messages", "outputs", "rules"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_assembly(messages: list[RunMessage], outputs: dict[str, Any], rules: list[str]) -> None:
    """Each message sequence gives Dify's outputs and exactly the expected findings."""
    assembly = assemble(messages, HERE)
    assert assembly.outputs == outputs
    assert sorted(d.rule for d in assembly.findings) == sorted(rules)


def test_files_from_blobs_and_images() -> None:
    """Blobs and image messages become files; a blob without MIME type is octet-stream."""
    messages = [
        RunMessage("blob", {"blob": {"file": 0}}, {"mime_type": "image/png"}, "BlobMessage"),
        RunMessage("image", {"text": "https://x.org/cat.png?s=1"}, None, "TextMessage"),
        RunMessage("blob", {"blob": {"file": 1}}, {}, "BlobMessage"),
    ]
    files = assemble(messages, HERE, [PNG, NAMELESS], "https://dify.ai/").outputs["files"]
    assert [f["type"] for f in files] == ["image", "image", "document"]
    assert files[0]["url"] == "https://dify.ai/files/p/v/t/e/0.png"
    assert files[1]["filename"] == "cat.png"
    assert files[2]["mime_type"] == "application/octet-stream"


def test_blob_reference_out_of_range() -> None:
    """A blob message pointing at no stored file is a payload mismatch, not a crash."""
    assembly = assemble([RunMessage("blob", {"blob": {"file": 5}}, None, "BlobMessage")], HERE)
    assert [d.rule for d in assembly.findings] == ["R013"]
