"""The signatures of the SDK helpers a plugin's `self` reaches, read from the wheels per release
(`generator/check/sdk_signatures.py`), and which releases a version's call is bound to."""

from __future__ import annotations

import zipfile
from pathlib import Path

from packaging.version import Version

from generator.check.sdk_api_index import signatures
from generator.check.sdk_signatures import derive_signatures

RUNTIME = """
import requests


class Invocations:
    def __init__(self, session):
        from dify_plugin.invocations.storage import StorageInvocation  # inside, as the SDK does

        self.storage = StorageInvocation(session)


class Hook:
    def __call__(self, event): ...


class Http(requests.Session):  # a base outside the wheel: its instances may be callable
    pass


class Session:
    def __init__(self):
        self.invocations = Invocations(self)
        self.hook = Hook()
        self.http = Http()
"""
STORAGE = """
from typing import overload


class Base:
    def set(self, key, val): ...


class StorageInvocation(Base):
    @overload
    def get(self, key: str) -> bytes: ...
    @overload
    def get(self, key: int) -> bytes: ...
    def get(self, key, /, default=None, *, timeout=1.0, **extra): ...

    @staticmethod
    def plain(a, b=2): ...

    @retried
    def wrapped(self, key): ...

    def _private(self): ...
"""
TOOL = """
from dify_plugin.core.runtime import Session


class Tool:
    session: Session

    def create_blob_message(self, blob, meta=None): ...

    @classmethod
    def from_credentials(cls, credentials, *args): ...
"""


def test_derive_reads_methods_and_what_attributes_hold(tmp_path: Path) -> None:
    """Paths through an annotation and what a method stores on `self` (a class imported inside a
    function); bases; the implementation after `@overload`s; positional-only, keyword-only, `*` and
    `**`; a static method keeps its first parameter; an unknown decorator and private names left out;
    the objects the attributes hold marked with "!" when they have no `__call__` (not one with a
    `__call__`, nor one whose base is outside the wheel)."""
    wheel = tmp_path / "dify_plugin-9.9.9-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("dify_plugin/interfaces/tool.py", TOOL)
        archive.writestr("dify_plugin/core/runtime.py", RUNTIME)
        archive.writestr("dify_plugin/invocations/storage.py", STORAGE)
        archive.writestr("dify_plugin/entities/event.py", "class Event:\n    def on(self, x): ...\n")
    with zipfile.ZipFile(wheel) as archive:
        members = set(archive.namelist())
        found = derive_signatures(members, lambda m: archive.read(m).decode() if m in members else None)
    assert found == {
        "Tool": {
            "create_blob_message": "blob, meta=",
            "from_credentials": "credentials, *args",
            "session": "!Session",
            "session.invocations": "!Invocations",
            "session.invocations.storage": "!StorageInvocation",
            "session.invocations.storage.get": "key, /, default=, *, timeout=, **extra",
            "session.invocations.storage.plain": "a, b=",
            "session.invocations.storage.set": "key, val",
        }
    }


def test_a_call_is_bound_to_the_releases_the_version_may_have() -> None:
    """`session.app.workflow.invoke` takes `user` from 0.8.0 on: 0.7.4 (read) has one signature,
    0.9.0 (between 0.8.0 and 0.9.1, both read) two, an unknown version every release's (0.0.1b15
    required `response_mode` and `files`)."""
    path = "session.app.workflow.invoke"
    old = signatures("Tool", path, Version("0.7.4"))
    assert old == [("0.7.4", ["app_id", "inputs", "response_mode="])]
    between = signatures("Tool", path, Version("0.9.0"))
    assert between is not None
    assert [release for release, _signature in between] == ["0.8.0", "0.9.1"]
    assert all("user=" in signature for _release, signature in between)
    every = signatures("Tool", path, None)
    assert every is not None
    assert len(every) == 17
    assert every[0] == ("0.0.1b15", ["app_id", "inputs", "response_mode", "files"])


def test_create_blob_message_takes_blob_and_meta_in_every_release() -> None:
    found = signatures("Tool", "create_blob_message", None)
    assert found is not None
    assert {tuple(signature) for _release, signature in found} == {("blob", "meta=")}


def test_a_version_older_than_every_release_read_is_not_judged() -> None:
    """0.0.1b10 was published before 0.0.1b15, the oldest release read: its helpers are unknown."""
    assert signatures("Tool", "create_blob_message", Version("0.0.1b10")) is None
    assert signatures("Tool", "create_blob_message", Version("0.0.1b15")) == [("0.0.1b15", ["blob", "meta="])]
