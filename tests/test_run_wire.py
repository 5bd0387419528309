"""The runner's parent/child contract: every message is declared in `wire/`, round-trips through
its encoder and decoder, and what a hostile child sends becomes a problem, never an exception."""

from __future__ import annotations

import ast
import dataclasses
import json
import os
import socket
import struct
import subprocess
import sys
import tempfile
import time
import types
import typing
from pathlib import Path
from typing import Any

import pytest

from generator.run import wire
from generator.run.sandbox import WORKER

WIRE = Path(wire.__file__).parent
CHILD = WIRE.with_name("child")
CHILD_SIDE = [*sorted(CHILD.glob("*.py")), *sorted(WIRE.glob("*.py"))]


def sample(annotation: Any) -> Any:
    """A value of the declared type, different from the field's default."""
    if annotation is Any:
        return {"any": [1, "two", None]}
    if annotation in (str, int, bool, bytes):
        return {str: "text é", int: 7, bool: True, bytes: b"\x00\xffdata"}[annotation]
    if dataclasses.is_dataclass(annotation) and isinstance(annotation, type):
        return annotation(**{f.name: sample(f.type) for f in dataclasses.fields(annotation)})
    origin, arguments = typing.get_origin(annotation), typing.get_args(annotation)
    if origin in (types.UnionType, typing.Union):
        return sample(next(a for a in arguments if a is not type(None)))
    if origin is list:
        return [sample(arguments[0])]
    if origin is tuple:
        return tuple(sample(a) for a in arguments if a is not Ellipsis)
    if origin is dict:
        return {"key": sample(arguments[1])}
    raise AssertionError(f"no sample for {annotation!r}")


def filled(cls: type[wire.Message]) -> wire.Message:
    return cls(**{f.name: sample(f.type) for f in dataclasses.fields(cls)})  # type: ignore[arg-type]


def frames(*events: wire.Event) -> bytes:
    with tempfile.TemporaryFile() as written:
        writer = wire.EventWriter(written.fileno(), 100, 1 << 20)
        for event in events:
            writer.send(event)
        written.seek(0)
        return written.read()


def decoded(data: bytes, max_frame: int = 1 << 20) -> wire.Decoder:
    decoder = wire.Decoder(max_frame=max_frame)
    decoder.feed(data)
    decoder.finish()
    return decoder


def event_frame(data: Any) -> bytes:
    return wire.frame(wire.EVENT, json.dumps(data).encode())


def test_every_event_class_is_declared_once() -> None:
    """Each Event subclass of wire/ is in the table of kinds the decoder accepts, under its own kind."""
    classes = [c for c in vars(wire).values() if isinstance(c, type) and issubclass(c, wire.Event)]
    declared = [c for c in classes if c is not wire.Event]
    assert sorted(wire.EVENTS) == sorted(c.KIND for c in declared)
    assert all(wire.EVENTS[c.KIND] is c for c in declared)


def test_the_child_sends_only_declared_events() -> None:
    """The child side constructs every event wire/ declares, and sends nothing else (the writer
    takes only declared messages)."""
    sent: set[str] = set()
    for path in CHILD_SIDE:
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            named = isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            called = getattr(wire, node.func.id, None) if named else None  # type: ignore[attr-defined]
            if isinstance(called, type) and issubclass(called, wire.Message):
                sent.add(called.__name__)
    kinds = {getattr(wire, name).KIND for name in sent}
    assert set(wire.EVENTS) <= kinds | {"done"}, "an event is declared that the child never sends"
    assert kinds <= set(wire.EVENTS) | set(wire.TO_GENERATOR) | set(wire.TO_WORKER)


@pytest.mark.parametrize("kind", sorted(wire.EVENTS))
def test_event_round_trip(kind: str) -> None:
    """Each event, every field set, comes out of the decoder as it went into the writer."""
    event = typing.cast(wire.Event, filled(wire.EVENTS[kind]))
    decoder = decoded(frames(event, wire.Done()))
    assert decoder.problem == ""
    assert decoder.events == [event, wire.Done()]


def test_event_defaults_round_trip() -> None:
    """Optional fields left out (no blob, no place of an error) stay out."""
    events = [
        wire.Yielded(kind="TextMessage", frame="{}"),
        wire.Raised(stage="load", type="E", message="m", traceback="t"),
    ]
    assert decoded(frames(*events)).events == events


@pytest.mark.parametrize("cls", [*wire.TO_WORKER.values(), *wire.TO_GENERATOR.values()])
def test_control_round_trip(cls: type[wire.Message]) -> None:
    """Setup, Task, Ready and Ended cross the control socket intact, descriptors with them."""
    message = filled(cls)
    ours, theirs = socket.socketpair()
    read_end, write_end = os.pipe()
    with ours, theirs:
        assert wire.send(ours, message, [write_end], timeout=5)
        received = wire.receive(theirs, {cls.KIND: cls}, wire.MAX_TASK, descriptors=wire.DESCRIPTORS)
    assert received is not None
    assert received[0] == message
    assert len(received[1]) == 1
    for fd in (read_end, write_end, *received[1]):
        os.close(fd)


def test_control_refuses_what_is_not_declared() -> None:
    """Garbage, an unknown kind, a wrong field or an answer over the limit read as None."""
    bodies = [
        b"not json",
        b"[1, 2]",
        json.dumps({"event": "ready", "python": 3, "sdk": None}).encode(),
        json.dumps({"event": "task"}).encode(),
        json.dumps({"event": "ended", "status": 0, "clean": True, "extra": 1}).encode(),
        b"[" * 100_000,
    ]
    for body in bodies:
        ours, theirs = socket.socketpair()
        with ours, theirs:
            ours.sendall(wire.HEADER.pack(len(body)) + body)
            assert wire.receive(theirs, wire.TO_GENERATOR, wire.MAX_TASK, deadline=_soon()) is None
    ours, theirs = socket.socketpair()
    with ours, theirs:
        ours.sendall(wire.HEADER.pack(wire.MAX_ANSWER + 1))
        assert wire.receive(theirs, wire.TO_GENERATOR, wire.MAX_ANSWER, deadline=_soon()) is None
    ours, theirs = socket.socketpair()
    with ours, theirs:
        assert wire.receive(theirs, wire.TO_GENERATOR, wire.MAX_ANSWER, deadline=_soon(0.1)) is None


def _soon(seconds: float = 5.0) -> float:
    return time.monotonic() + seconds


GOOD = {"event": "unserved", "call": "model"}
MALFORMED = {
    "not JSON": wire.frame(wire.EVENT, b"{not json"),
    "not UTF-8": wire.frame(wire.EVENT, b'{"event": "\xff"}'),
    "a list": event_frame([GOOD]),
    "no kind": event_frame({"call": "model"}),
    "a kind that is not text": event_frame({"event": 3}),
    "an unknown kind": event_frame({"event": "shell", "command": "rm"}),
    "a missing field": event_frame({"event": "unserved"}),
    "an unknown field": event_frame({**GOOD, "extra": 1}),
    "text for a number": event_frame(
        {"event": "unsendable", "index": "1", "kind": "k", "variable": None, "problem": "p"}
    ),
    "true for a number": event_frame(
        {"event": "unsendable", "index": True, "kind": "k", "variable": None, "problem": "p"}
    ),
    "a number for text": event_frame({"event": "network", "address": 80}),
    "null for text": event_frame({"event": "exit", "code": None}),
    "a list of the wrong items": event_frame({"event": "recording", "interactions": [1]}),
    "nesting 100,000 deep": wire.frame(wire.EVENT, b"[" * 100_000 + b"]" * 100_000),
    "an unknown frame kind": wire.frame(b"X", b"{}"),
    "bytes after an event without any": event_frame(GOOD) + wire.frame(wire.BLOB, b"data"),
    "bytes before any event": wire.frame(wire.BLOB, b"data"),
    "a second blob": frames(wire.Uploaded(filename="f", mime_type="m", stored="0.bin", blob=b"1"))
    + wire.frame(wire.BLOB, b"2"),
    "a frame over the limit": struct.pack(">cI", b"J", 1 << 30),
    "a cut frame": event_frame(GOOD)[:-3],
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_frames_become_a_problem(name: str) -> None:
    """A malformed frame or field stops decoding with a problem; what came before it is kept."""
    decoder = decoded(event_frame(GOOD) + MALFORMED[name])
    assert decoder.problem, name
    assert decoder.events[:1] == [wire.Unserved(call="model")]
    decoder.feed(event_frame(GOOD))  # nothing more is taken after a problem
    assert len(decoder.events) <= 2


def test_decoder_takes_bytes_in_any_pieces() -> None:
    """Frames split anywhere across reads decode the same."""
    data = frames(
        wire.Started(python="3.12", sdk="0.10.2"),
        wire.Yielded(kind="BlobMessage", frame="{}", blob=b"x" * 70_000, stored="0.png"),
        wire.Done(),
    )
    decoder = wire.Decoder(max_frame=1 << 20)
    for start in range(0, len(data), 999):
        decoder.feed(data[start : start + 999])
    decoder.finish()
    assert decoder.problem == ""
    assert [type(e) for e in decoder.events] == [wire.Started, wire.Yielded, wire.Done]


def test_child_side_imports_only_the_standard_library() -> None:
    """The child side has no project on its path: it loads with the standard library and its
    siblings (vcrpy and the SDK come later, from the sandbox's own paths)."""
    for path in CHILD_SIDE:
        for node in ast.parse(path.read_text()).body:  # deferred imports run inside the sandbox
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            for name in names:
                top = name.partition(".")[0]
                assert top in sys.stdlib_module_names or top == "__future__", f"{path.name} imports {name}"


def test_worker_loads_its_modules_by_path() -> None:
    """Isolated and without site-packages, the worker's start loads every child module."""
    names = sorted(p.stem for p in CHILD.glob("*.py") if p.stem not in ("__init__", "__main__"))
    code = (
        "import runpy, sys\n"
        f"start = runpy.run_path({str(WORKER)!r}, run_name='start')\n"
        f"for name in {names!r}:\n"
        "    start['load']('child.' + name)\n"
        "assert 'generator' not in sys.modules\n"
        "print(sorted(m for m in sys.modules if m.startswith('dify_registry_run')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-B", "-c", code], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "dify_registry_run.wire" in done.stdout
