"""The SDK in the child: imported once in the worker, the session a tool gets, and each message it
yields sent on as the SDK's own writer puts it on the wire to Dify."""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from ..wire import EventWriter, Frame, Unsendable, Yielded
from .daemon import Daemon

SESSION_ID = "registry-run"


@dataclass(frozen=True, slots=True)
class Sdk:
    """The parts of `dify_plugin` a run needs, and its serialisation of a message for Dify."""

    tool: type
    runtime: ModuleType
    entities: ModuleType
    loader: ModuleType
    reader: type
    writer: type
    install: ModuleType
    version: str
    frame: Callable[[Any], str]
    gevent: ModuleType | None


def import_sdk() -> Sdk:
    """The SDK parts a run needs (importing `dify_plugin` monkey-patches the process with gevent)."""
    tool = importlib.import_module("dify_plugin").Tool  # first: it patches the process
    runtime = importlib.import_module("dify_plugin.core.runtime")
    entities = importlib.import_module("dify_plugin.entities.tool")
    loader = importlib.import_module("dify_plugin.core.utils.class_loader")
    reader = importlib.import_module("dify_plugin.core.server.__base.request_reader").RequestReader
    writer = importlib.import_module("dify_plugin.core.server.__base.response_writer").ResponseWriter
    install = importlib.import_module("dify_plugin.config.config")
    version = importlib.import_module("importlib.metadata").version("dify_plugin")
    gevent = None
    with contextlib.suppress(ImportError):
        gevent = importlib.import_module("gevent")
    sdk = Sdk(tool, runtime, entities, loader, reader, writer, install, version, framer(writer), gevent)
    # What runs reach for later, imported once here too: a session imports its invocations when
    # built, and the HTTP client behind file.upload and storage loads its transport lazily.
    build_session(sdk, "http://127.0.0.1:9")
    for optional in ("httpcore", "anyio", "netrc", "gevent.resolver.thread", "socksio"):
        with contextlib.suppress(ImportError):
            importlib.import_module(optional)
    return sdk


def framer(writer_base: type) -> Callable[[Any], str]:
    """The SDK's own serialisation of a message for Dify: `ResponseWriter.session_message` of
    `stream_object(message)`, captured instead of written to a daemon."""

    class Capture(writer_base):  # type: ignore[misc]
        def __init__(self) -> None:
            self.written: list[str] = []

        def write(self, data: str) -> None:
            self.written.append(data)

        def done(self) -> None:
            """Nothing to finish: each frame is taken as soon as it is written."""

    capture = Capture()

    def frame(message: Any) -> str:
        capture.written.clear()
        capture.session_message(session_id=SESSION_ID, data=capture.stream_object(data=message))
        return "".join(capture.written).strip()

    return frame


def build_session(sdk: Sdk, daemon_url: str) -> Any:
    """A session whose calls back into Dify go to the local stand-in, through the SDK's own code."""

    class NoReader(sdk.reader):  # type: ignore[misc, name-defined]
        def _read_stream(self) -> Iterator[Any]:
            return iter(())

    class NoWriter(sdk.writer):  # type: ignore[misc, name-defined]
        def write(self, data: str) -> None:
            """Nothing is written back: serverless mode posts each call over HTTP."""

        def done(self) -> None:
            """See write."""

    from concurrent.futures import ThreadPoolExecutor

    return sdk.runtime.Session(
        session_id=SESSION_ID,
        executor=ThreadPoolExecutor(max_workers=2),
        reader=NoReader(),
        writer=NoWriter(),
        install_method=http_install_method(sdk.install.InstallMethod),
        dify_plugin_daemon_url=daemon_url,
    )


def http_install_method(methods: Any) -> Any:
    """The SDK's install method whose calls back into Dify go over HTTP: `Serverless` since SDK 0.1,
    `AWSLambda` in the 0.0.1 betas (the SDK sends every method but `Local` and `Remote` over HTTP)."""
    return next(method for method in methods if method.value not in ("local", "remote"))


def send_message(
    events: EventWriter, daemon: Daemon, message: Any, sdk: Sdk, origin: Callable[[], Frame | None]
) -> bool:
    """One yielded message as the SDK's writer puts it on the wire to Dify (a JSON frame of
    `message.model_dump()`); blob bytes travel apart, as the SDK sends them in chunks apart from
    the message. False when the SDK could not serialise it: there the SDK ends the invocation with
    an error, so the run ends too; `origin` names the plugin's line the message came from."""
    events.messages += 1
    payload_object: Any = getattr(message, "message", None)
    payload_kind = type(payload_object).__name__ if payload_object is not None else type(message).__name__
    found = getattr(payload_object, "blob", None)
    blob = found if isinstance(found, bytes) and payload_kind == "BlobMessage" else None
    if blob is not None and events.bytes + len(blob) > events.max_bytes:
        events.bytes += len(blob)
        return True
    if blob is not None:  # the SDK, too, swaps the bytes for an id before it serialises the message
        payload_object.blob = b"blob"
    try:
        framed = sdk.frame(message)
    except Exception as problem:  # what the SDK's writer raises, Dify receives as the tool's error
        variable = getattr(payload_object, "variable_name", None)
        line = origin()
        events.send(
            Unsendable(
                index=events.messages - 1,
                kind=payload_kind,
                variable=variable if isinstance(variable, str) else None,
                problem=f"{type(problem).__name__}: {problem}"[:1000],
                file=line.file if line else None,
                line=line.line if line else None,
                code=line.code if line else None,
            )
        )
        return False
    if blob is None:
        events.send(Yielded(kind=payload_kind, frame=framed))
        return True
    meta = getattr(message, "meta", None)
    meta_dict = meta if isinstance(meta, dict) else {}
    filename = str(meta_dict.get("filename") or "")
    mime_type = str(meta_dict.get("mime_type") or "")
    stored = daemon.next_file(filename or "blob", mime_type)
    events.send(
        Yielded(
            kind=payload_kind, frame=framed, blob=blob, filename=filename, mime_type=mime_type, stored=stored
        )
    )
    return True
