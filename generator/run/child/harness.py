"""One example in its freshly forked child: a private copy of the plugin, the network guard, the
recorder when the task asks for it, then the tool loaded the way Dify loads it and invoked, every
message and failure reported to the generator as an event of `wire.py`."""

from __future__ import annotations

import os
import sys
import traceback
from pathlib import Path
from typing import Any

from ..wire import Done, EventWriter, Exited, File, OverLimit, Raised, Started, Task
from . import recorder
from .daemon import Daemon
from .guard import guard_network
from .isolation import copy_plugin
from .session import Sdk, build_session, send_message

MAX_TRACE = 8000


def run_example(
    events: EventWriter, task: Task, workdir: Path, source: str, namespaces: bool, sdk: Sdk
) -> int:
    """Private working copy of the plugin, network guard, the tool; returns the exit status the
    child ends with."""
    events.send(Started(python=sys.version.split()[0], sdk=sdk.version))
    plugin_root = str(workdir / "plugin")
    try:
        workdir.mkdir(parents=True, exist_ok=True)
        # what the tool writes into its plugin folder is thrown away with the copy
        copy_plugin(source, plugin_root)
        os.environ.update({"HOME": str(workdir), "TMPDIR": str(workdir)})
        os.chdir(plugin_root)
        sys.path.insert(0, plugin_root)
    except BaseException as problem:
        report_error(events, "setup", problem, "")
        return 70
    allowed: list[int] = []
    recording = task.http is not None and task.http.mode == "record"
    guard_network(events, allowed, refuse=not namespaces and not recording, report=not recording)
    if task.http is None:
        run_tool(events, task, plugin_root, allowed, sdk)
        return 0
    try:
        tape = recorder.tape(task.http, events.send)
        tape.__enter__()
    except BaseException as problem:
        report_error(events, "tape", problem, plugin_root)
        return 0
    try:
        run_tool(events, task, plugin_root, allowed, sdk)
    finally:
        tape.__exit__(None, None, None)
    return 0


def run_tool(events: EventWriter, task: Task, plugin_root: str, allowed_ports: list[int], sdk: Sdk) -> None:
    """Load the tool the way Dify does, then drive `invoke` and forward messages."""
    daemon = Daemon(events, task.upload_base, allowed_ports)
    daemon.start()
    try:
        tool_class = sdk.loader.load_single_subclass_from_source(
            module_name=Path(task.source).with_suffix("").as_posix().replace("/", "."),
            script_path=str(Path.cwd() / task.source),
            parent_type=sdk.tool,
        )
    except BaseException as problem:
        report_error(events, "load", problem, plugin_root)
        return
    try:
        runtime = sdk.entities.ToolRuntime(
            credentials=dict(task.credentials), user_id="registry-runner", session_id=None
        )
        tool = tool_class(runtime=runtime, session=build_session(sdk, daemon.url))
    except BaseException as problem:  # as Dify builds it: whatever the inputs, this fails
        report_error(events, "init", problem, plugin_root)
        return
    try:
        parameters = {**task.inputs, **file_inputs(daemon, task.files)}
        for message in tool.invoke(dict(parameters)):
            if not send_message(events, daemon, message, sdk):
                return
            problem_text = events.over_limit()
            if problem_text:
                events.send(OverLimit(what=problem_text))
                return
    except SystemExit as stop:
        events.send(Exited(code=str(stop.code)))
        return
    except BaseException as problem:
        report_error(events, "invoke", problem, plugin_root)
        return
    events.send(Done())


def report_error(events: EventWriter, stage: str, problem: BaseException, plugin_root: str) -> None:
    """Report an exception with the innermost frame that lies in the plugin's own files."""
    where: dict[str, Any] = {}
    for frame in reversed(traceback.extract_tb(problem.__traceback__)):
        if plugin_root and frame.filename.startswith(plugin_root + "/"):
            where = {
                "file": frame.filename[len(plugin_root) + 1 :],
                "line": frame.lineno or 0,
                "code": (frame.line or "")[:300],
            }
            break
    named = problem.filename if isinstance(problem, SyntaxError) else None
    if plugin_root and named and named.startswith(plugin_root + "/"):
        where = {"file": named[len(plugin_root) + 1 :], "line": getattr(problem, "lineno", 0) or 0}
    text = "".join(traceback.format_exception(problem))[-MAX_TRACE:]
    key = problem.args[0] if isinstance(problem, KeyError) and problem.args else None
    events.send(
        Raised(
            stage=stage,
            type=type(problem).__name__,
            message=str(problem)[:2000],
            traceback=text,
            key=key if isinstance(key, str) else None,
            sdk_api=_missing_sdk_api(problem),
            **where,
        )
    )


def _missing_sdk_api(problem: BaseException) -> str | None:
    """`Class.name` when the error is a lookup of an attribute that an object of the SDK (or the
    tool class, which inherits the SDK's API) does not have: a call to an API that does not exist."""
    if not isinstance(problem, AttributeError) or not isinstance(problem.name, str):
        return None
    try:  # the object is the tool's: nothing about it may stop the report
        owner = problem.obj
        if isinstance(owner, type(sys)):
            named = str(getattr(owner, "__name__", ""))
            return f"{named}.{problem.name}" if named.partition(".")[0] == "dify_plugin" else None
        classes = owner.__mro__ if isinstance(owner, type) else type(owner).__mro__
        if any(str(c.__module__).partition(".")[0] == "dify_plugin" for c in classes):
            shown = owner.__name__ if isinstance(owner, type) else type(owner).__name__
            return f"{shown}.{problem.name}"
    except Exception:
        return None
    return None


def file_inputs(daemon: Daemon, files: dict[str, list[File] | File]) -> dict[str, Any]:
    """Dify's file dicts for the example's input files, served by the local stand-in."""
    result: dict[str, Any] = {}
    for name, entries in files.items():
        converted = [
            {
                "dify_model_identity": "__dify__file__",
                "url": daemon.serve_input(entry.filename, entry.mime_type, entry.data),
                "mime_type": entry.mime_type,
                "type": _file_type(entry.mime_type),
                "filename": entry.filename,
                "extension": Path(entry.filename).suffix,
                "size": len(entry.data),
            }
            for entry in (entries if isinstance(entries, list) else [entries])
        ]
        result[name] = converted if isinstance(entries, list) else converted[0]
    return result


def _file_type(mime_type: str) -> str:
    for kind in ("image", "video", "audio"):
        if mime_type.startswith(kind + "/"):
            return kind
    return "document"
