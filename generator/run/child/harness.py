"""One example in its freshly forked child: a private copy of the plugin, the network guard, the
recorder when the task asks for it, then the tool loaded the way Dify loads it and invoked, every
message and failure reported to the generator as an event of `wire/events.py`."""

from __future__ import annotations

import ast
import copy
import importlib.metadata
import inspect
import os
import sys
import textwrap
import traceback
import types
from pathlib import Path
from typing import Any

from ..wire import (
    CredentialUnset,
    Done,
    EventWriter,
    Exited,
    File,
    Frame,
    OverLimit,
    Raised,
    Started,
    Task,
)
from . import recorder
from .daemon import Daemon
from .guard import guard_network
from .isolation import copy_plugin
from .origin import Origin
from .refusals import earlier_refusal, watch
from .session import Sdk, build_session, send_message

MAX_TRACE = 8000
# What `random.randrange` (and so `randint`) says of a float since Python 3.12.
_INTEGER_ONLY = "'float' object cannot be interpreted as an integer"
FRAMES = 3  # the plugin's own frames a crash report keeps, innermost last


class _Credentials(dict[str, Any]):
    """The runtime's credentials, telling the generator which ones the tool read without a value:
    a tool that reads its key with `.get()` and fails later names the credential it missed."""

    def __init__(self, values: dict[str, Any], events: EventWriter) -> None:
        super().__init__(values)
        self._events = events
        self._told: set[str] = set()

    def _unset(self, key: object) -> None:
        if isinstance(key, str) and key not in self._told and not dict.get(self, key):
            self._told.add(key)
            self._events.send(CredentialUnset(name=key[:200]))

    def get(self, key: str, default: Any = None) -> Any:
        self._unset(key)
        return super().get(key, default)

    def __getitem__(self, key: str) -> Any:
        self._unset(key)
        return super().__getitem__(key)

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        # The SDK's `ToolRuntime.credentials` is a plain dict (`credentials: dict[str, Any]`, a
        # pydantic field, in dify_plugin/entities/tool.py), which a tool may deep-copy; the event
        # writer this one holds (its lock) cannot be: the copy is the plain dict Dify's would give.
        return {copy.deepcopy(k, memo): copy.deepcopy(v, memo) for k, v in self.items()}

    def __reduce__(self) -> tuple[type[dict[str, Any]], tuple[dict[str, Any]]]:
        # pickled (or `copy.copy`), it is the plain dict Dify's would be, without the event writer
        return dict, (dict(self),)


def run_example(
    events: EventWriter, task: Task, workdir: Path, source: str, namespaces: bool, sdk: Sdk
) -> int:
    """Private working copy of the plugin, network guard, the tool; returns the exit status the
    child ends with."""
    events.send(Started(python=sys.version.split()[0], sdk=sdk.version))
    watch()
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
    from .trigger import run_event  # here: it reports errors with this module's `report_error`

    run = run_tool if task.delivery is None else run_event
    if task.http is None:
        run(events, task, plugin_root, allowed, sdk)
        return 0
    try:
        tape = recorder.tape(task.http, events.send)
        tape.__enter__()
    except BaseException as problem:
        report_error(events, "tape", problem, plugin_root)
        return 0
    try:
        run(events, task, plugin_root, allowed, sdk)
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
        runtime.credentials = _Credentials(runtime.credentials, events)
        tool = tool_class(runtime=runtime, session=build_session(sdk, daemon.url))
    except BaseException as problem:  # as Dify builds it: whatever the inputs, this fails
        report_error(events, "init", problem, plugin_root)
        return
    try:
        parameters = {**task.inputs, **file_inputs(daemon, task.files)}
        origin = Origin(plugin_root)
        with origin.watching(inspect.getattr_static(type(tool), "_invoke", None)):
            origin.produced = tool.invoke(dict(parameters))
        for message in origin.produced:
            if not send_message(events, daemon, message, sdk, origin.line):
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
    """Report an exception with the innermost frames that lie in the plugin's own files."""
    own = [
        frame
        for frame in traceback.extract_tb(problem.__traceback__)
        if plugin_root and frame.filename.startswith(plugin_root + "/")
    ][-FRAMES:]
    frames = [
        Frame(file=f.filename[len(plugin_root) + 1 :], line=f.lineno or 0, code=(f.line or "")[:300])
        for f in own
    ]
    where: dict[str, Any] = {}
    if frames:
        where = {"file": frames[-1].file, "line": frames[-1].line, "code": frames[-1].code}
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
            frames=frames,
            misuse=_misuse(problem, plugin_root),
            refused=earlier_refusal(problem),
            **where,
        )
    )


def _misuse(problem: BaseException, plugin_root: str) -> str | None:
    """What the plugin's own line did wrong with an object of an installed library or of the SDK,
    when the exception arose right there (the innermost frame is the plugin's): an attribute the
    object's class does not have, or an attribute that is not a method called as one. Such a line
    fails the same way whatever the inputs."""
    if isinstance(problem, TypeError) and _INTEGER_ONLY in str(problem) and plugin_root:
        return _own_float(problem, plugin_root)
    innermost = problem.__traceback__
    while innermost is not None and innermost.tb_next is not None:
        innermost = innermost.tb_next
    if innermost is None or not plugin_root:
        return None
    frame = innermost.tb_frame
    if not frame.f_code.co_filename.startswith(plugin_root + "/"):
        return None
    try:  # the objects are the tool's: nothing about them may stop the report
        if isinstance(problem, AttributeError) and isinstance(problem.name, str):
            if _looks_up_data(problem.obj):
                return None
            owner = _library_owner(problem.obj, plugin_root)
            return f"{owner} has no attribute `{problem.name}`" if owner else None
        if isinstance(problem, TypeError) and "object is not callable" in str(problem):
            return _called_attribute(frame, innermost.tb_lineno, plugin_root)
    except Exception:
        return None
    return None


def _own_float(problem: TypeError, plugin_root: str) -> str | None:
    """`random.randint` (or `randrange`) refusing a float that the plugin's own line made with
    `float(...)`: the innermost frame of the plugin calls into `random` and nothing else runs between."""
    entries: list[types.TracebackType] = []
    entry = problem.__traceback__
    while entry is not None:
        entries.append(entry)
        entry = entry.tb_next
    own = [i for i, e in enumerate(entries) if e.tb_frame.f_code.co_filename.startswith(plugin_root + "/")]
    if not own or own[-1] == len(entries) - 1:
        return None
    below = entries[own[-1] + 1 :]
    if any(Path(e.tb_frame.f_code.co_filename).name != "random.py" for e in below):
        return None  # the float reached `random` through other code: the plugin's line may not be at fault
    try:  # the tool's source and frame: nothing about them may stop the report
        frame, line = entries[own[-1]].tb_frame, entries[own[-1]].tb_lineno
        lines, first = inspect.getsourcelines(frame.f_code)
        made = _float_bound(ast.parse(textwrap.dedent("".join(lines))))
        text = lines[line - max(first, 1)].strip() if 0 <= line - max(first, 1) < len(lines) else ""
        tree = ast.parse(text)
    except Exception:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _call_name(node.func) in ("randint", "randrange"):
            for argument in node.args:
                direct = isinstance(argument, ast.Call) and _call_name(argument.func) == "float"
                if direct or (isinstance(argument, ast.Name) and argument.id in made):
                    shown = ast.unparse(argument)[:60]
                    return (
                        f"`{_call_name(node.func)}` received `{shown}`, a float the plugin made with "
                        "`float(...)`; it takes only integers on Python 3.12"
                    )
    return None


def _float_bound(tree: ast.Module) -> set[str]:
    """Names the function assigns `float(...)` to."""
    return {
        target.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Call)
        and _call_name(node.value.func) == "float"
        for target in node.targets
        if isinstance(target, ast.Name)
    }


def _call_name(function: ast.expr) -> str:
    if isinstance(function, ast.Attribute):
        return function.attr
    return function.id if isinstance(function, ast.Name) else ""


def _called_attribute(frame: types.FrameType, line: int, plugin_root: str) -> str | None:
    """`name.attribute(...)` on the failing line where `attribute` of a library's object is not callable."""
    source = inspect.getsourcelines(frame.f_code)
    lines, first = source[0], max(source[1], 1)
    text = lines[line - first].strip() if 0 <= line - first < len(lines) else ""
    try:
        tree = ast.parse(text + ("\n pass" if text.endswith(":") else ""))
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        call = node.func if isinstance(node, ast.Call) else None
        if not isinstance(call, ast.Attribute):
            continue
        target = _looked_up(call.value, frame)
        if target is None:
            continue
        owner = _library_owner(target, plugin_root)
        found = inspect.getattr_static(target, call.attr, None)
        if owner is None or found is None:
            continue
        if isinstance(found, property):
            return f"`{call.attr}` of {owner} is a property, not a method, and is called as one"
        if not callable(found):
            return f"`{call.attr}` of {owner} is a {type(found).__name__}, not a method, and is called as one"
    return None


def _looks_up_data(target: object) -> bool:
    """True for an object whose attributes come from its data (a `__getattr__` of its own: a data
    frame's columns, a parsed document's tags, a model's extra fields): a missing one may depend
    on the input."""
    if isinstance(target, types.ModuleType):
        return "__getattr__" in vars(target)
    cls = target if isinstance(target, type) else type(target)
    return getattr(cls, "__getattr__", None) is not None


def _looked_up(node: ast.expr, frame: types.FrameType) -> object | None:
    """The value of `name` or `name["key"]` in the frame, without running any of the tool's code."""
    key: object = None
    if isinstance(node, ast.Subscript):
        index = node.slice
        if not isinstance(index, ast.Constant) or not isinstance(index.value, str):
            return None
        key, node = index.value, node.value
    if not isinstance(node, ast.Name):
        return None
    scope = frame.f_locals if node.id in frame.f_locals else frame.f_globals
    value = scope.get(node.id)
    if key is None:
        return value
    return dict.get(value, key) if isinstance(value, dict) and isinstance(key, str) else None


def _library_owner(target: object, plugin_root: str) -> str | None:
    """How to name an object that belongs to the SDK or to an installed library (its class, with
    the distribution and version), or None for the plugin's own objects and Python's built-ins."""
    if isinstance(target, types.ModuleType):
        named, module = target.__name__, target
    else:
        cls = target if isinstance(target, type) else type(target)
        named, module = cls.__qualname__, sys.modules.get(cls.__module__)  # type: ignore[assignment]
    path = str(getattr(module, "__file__", "") or "")
    if not path or path.startswith(plugin_root + "/") or "-packages/" not in path:
        return None
    top = str(getattr(module, "__name__", "")).partition(".")[0]
    try:
        version = " " + importlib.metadata.version(top)
    except Exception:
        version = ""
    if top == "dify_plugin":
        return f"the SDK's `{named}` (dify_plugin{version})"
    return f"`{named}` of the installed {top}{version}"


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
