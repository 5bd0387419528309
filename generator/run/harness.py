"""What runs inside the sandbox: setting it up, the local stand-in for Dify, and one tool example.

Loaded by the sandboxed worker (`zygote.py`, run with the plugin environment's interpreter), never
imported by the generator: it drives the real `dify_plugin` SDK, which patches the whole process
with gevent. Events go to the parent as frames on a pipe of their own, so a tool printing to stdout
cannot corrupt them.
"""

from __future__ import annotations

import base64
import contextlib
import ctypes
import fcntl
import http.server
import importlib
import importlib.util
import json
import mimetypes
import os
import re
import resource
import shutil
import socket
import struct
import sys
import threading
import traceback
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

MAX_TRACE = 8000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REMOUNT, MS_BIND, MS_REC = 1, 2, 4, 8, 32, 4096, 16384
PR_SET_NO_NEW_PRIVS = 38
SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 0x1
HIDDEN = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock", "/root", "/home")
# the folders anyone may write to: emptied again after every example
WRITABLE = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock")
# the IPC namespace's POSIX message queues as files, in the hidden /root (root's, read-only to tools)
MESSAGE_QUEUES = "/root/.message-queues"


class Wire:
    """Framed events to the parent: 1-byte kind (J json, B bytes), 4-byte length, body."""

    def __init__(self, fd: int, max_messages: int, max_bytes: int) -> None:
        self.fd = fd
        self.lock = threading.Lock()
        self.messages = 0
        self.bytes = 0
        self.max_messages = max_messages
        self.max_bytes = max_bytes

    def _frame(self, kind: bytes, body: bytes) -> None:
        data = kind + struct.pack(">I", len(body)) + body
        view = memoryview(data)
        while view:
            view = view[os.write(self.fd, view) :]

    def event(self, name: str, blob: bytes | None = None, **fields: Any) -> None:
        body = json.dumps({"event": name, **fields}, ensure_ascii=False, allow_nan=False).encode()
        with self.lock:
            self.bytes += len(body) + (len(blob) if blob is not None else 0)
            self._frame(b"J", body)
            if blob is not None:
                self._frame(b"B", blob)

    def over_limit(self) -> str:
        if self.messages > self.max_messages:
            return f"more than {self.max_messages} messages"
        if self.bytes > self.max_bytes:
            return f"more than {self.max_bytes} bytes of output"
        return ""


# ---------------------------------------------------------------- sandbox set-up (as root)


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _mount(
    libc: ctypes.CDLL, source: str | None, target: str, fstype: str | None, flags: int, data: str
) -> None:
    code = libc.mount(
        source.encode() if source else None,
        target.encode(),
        fstype.encode() if fstype else None,
        ctypes.c_ulong(flags),
        data.encode() if data else None,
    )
    if code != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"mount {target}: {os.strerror(errno)}")


def hide_private_folders(needed: list[str], tmp_size: int) -> None:
    """Cover shared and private folders with empty tmpfs; re-expose, read-only, what the run needs."""
    libc = _libc()
    for hidden in HIDDEN:
        if not Path(hidden).is_dir():
            continue
        inside = [p for p in needed if p == hidden or p.startswith(hidden + "/")]
        handles = [(p, os.open(p, os.O_PATH | os.O_DIRECTORY)) for p in inside]
        mode = "1777" if hidden in WRITABLE else "0755"
        _mount(libc, "tmpfs", hidden, "tmpfs", MS_NOSUID | MS_NODEV, f"size={tmp_size},mode={mode}")
        for path, handle in handles:
            Path(path).mkdir(parents=True, exist_ok=True)
            _mount(libc, f"/proc/self/fd/{handle}", path, None, MS_BIND | MS_REC, "")
            _mount(libc, None, path, None, MS_REMOUNT | MS_BIND | MS_RDONLY, "")
            os.close(handle)


def show_message_queues() -> str | None:
    """Mount the namespace's POSIX message queues (which have no other listing) so the worker can
    remove them between examples; None where /root is not hidden behind a tmpfs of our own."""
    if not Path("/root").is_dir():
        return None
    try:  # /root itself bound back read-only (an environment at /root) leaves nowhere to mount
        Path(MESSAGE_QUEUES).mkdir(mode=0o755, exist_ok=True)
        _mount(_libc(), "mqueue", MESSAGE_QUEUES, "mqueue", MS_NOSUID | MS_NODEV | MS_NOEXEC, "")
    except OSError:
        return None
    return MESSAGE_QUEUES


def bring_up_loopback() -> None:
    """A new network namespace has a loopback interface that is down; the file server needs it."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        request = struct.pack("16sH", b"lo", 0)
        flags = struct.unpack("16sH", fcntl.ioctl(probe, SIOCGIFFLAGS, request)[:18])[1]
        fcntl.ioctl(probe, SIOCSIFFLAGS, struct.pack("16sH", b"lo", flags | IFF_UP))


def set_limits(limits: dict[str, int], unprivileged: bool) -> None:
    """Resource limits of the run (the kernel enforces them; the parent adds a wall clock)."""
    seconds = limits["cpu_seconds"]
    pairs = {
        resource.RLIMIT_AS: (limits["memory_bytes"],) * 2,
        # At a hard CPU limit equal to the soft one the kernel sends SIGKILL, which reads as a crash;
        # a second more makes it SIGXCPU (the CPU-time limit), then SIGKILL only if that is caught.
        resource.RLIMIT_CPU: (seconds, seconds + 1),
        resource.RLIMIT_FSIZE: (limits["max_file_bytes"],) * 2,
        resource.RLIMIT_CORE: (0, 0),
        resource.RLIMIT_NOFILE: (256, 256),
    }
    if unprivileged:  # the kernel ignores RLIMIT_NPROC for root
        pairs[resource.RLIMIT_NPROC] = (limits["max_processes"],) * 2
    for which, pair in pairs.items():
        resource.setrlimit(which, pair)


def drop_privileges(uid: int) -> None:
    """Become an unprivileged user with no way back (no setuid binaries either)."""
    os.setgroups([])
    os.setgid(uid)
    os.setuid(uid)
    _libc().prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)


def copy_plugin(source: str, target: str) -> None:
    """The tool runs in a private copy of its plugin folder: what it writes there is thrown away."""
    shutil.copytree(source, target, symlinks=True, ignore=shutil.ignore_patterns(".git", "__pycache__"))


def open_to_all(target: str) -> None:
    """Let the sandbox uid read a copy made as root; it still cannot change anything in it."""
    for folder, _dirs, files in os.walk(target):
        Path(folder).chmod(0o755)
        for name in files:
            path = Path(folder) / name
            if not path.is_symlink():  # chmod follows links: their targets are not ours to change
                path.chmod(path.stat().st_mode | 0o444)


# ---------------------------------------------------------------- network guard


def guard_network(wire: Wire, allowed_port: list[int], refuse: bool, report: bool = True) -> None:
    """Report (and without a network namespace, refuse) connections other than to the file server;
    a run that records its example has the network and reports nothing."""
    if not report and not refuse:
        return

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if event == "socket.getaddrinfo":
            # Inside the network namespace a lookup fails before any connection is tried, so the
            # name looked up is the only trace of the host the tool wanted.
            host = args[0].decode(errors="replace") if isinstance(args[0], bytes) else args[0]
            if host in (None, "127.0.0.1", "localhost", "::1"):
                return
            wire.event("network", address=repr((host, args[1]))[:200])
            if refuse:
                raise PermissionError("network access is disabled while running examples")
            return
        if event not in ("socket.connect", "socket.sendto"):
            return
        address = args[1]
        own = (
            isinstance(address, tuple)
            and address[:1] in (("127.0.0.1",), ("localhost",))
            and address[1:2] == tuple(allowed_port[:1])
        )
        if own:
            return
        wire.event("network", address=repr(address)[:200])
        if refuse:
            raise PermissionError("network access is disabled while running examples")

    sys.addaudithook(hook)


# ---------------------------------------------------------------- the local stand-in for Dify


class Daemon:
    """Serves what a tool may ask of Dify during a run: input files, file upload, storage.

    The SDK's own backwards-invocation code talks to it over HTTP on loopback, exactly as it talks
    to Dify's plugin daemon in serverless mode; every other call gets an error naming the call.
    """

    def __init__(self, wire: Wire, job: dict[str, Any], allowed_ports: list[int]) -> None:
        self.wire = wire
        self.inputs: dict[str, tuple[str, bytes]] = {}
        self.uploads: dict[str, tuple[str, str]] = {}
        self.storage: dict[str, str] = {}
        self.upload_base = str(job["upload_base"])
        self.file_count = 0
        self.server = http.server.HTTPServer(("127.0.0.1", 0), self._handler())
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        allowed_ports.append(self.server.server_port)

    def start(self) -> None:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def next_file(self, filename: str, mime_type: str) -> tuple[int, str]:
        number = self.file_count
        self.file_count += 1
        suffix = Path(filename).suffix.lower()
        if not re.fullmatch(r"\.[a-z0-9]{1,8}", suffix):
            suffix = mimetypes.guess_extension(mime_type) or ".bin"
        return number, f"{number}{suffix}"

    def serve_input(self, name: str, mime_type: str, data: bytes) -> str:
        key = uuid.uuid4().hex
        self.inputs[key] = (mime_type, data)
        return f"{self.url}/files/{key}/{name}"

    def backwards(self, request: dict[str, Any]) -> tuple[str, Any]:
        kind = request.get("type")
        body = request.get("request") or {}
        if kind == "upload_file":
            ticket = uuid.uuid4().hex
            self.uploads[ticket] = (str(body.get("filename")), str(body.get("mimetype")))
            return "response", {"url": f"{self.url}/upload/{ticket}"}
        if kind == "storage":
            return self._storage(body)
        self.wire.event("unserved", call=str(kind))
        return "error", (
            f"the registry's runner does not serve `{kind}` calls back into Dify; "
            "only file.upload and storage work while running examples"
        )

    def _storage(self, body: dict[str, Any]) -> tuple[str, Any]:
        key, operation = str(body.get("key")), body.get("opt")
        if operation == "set":
            self.storage[key] = str(body.get("value"))
            return "response", {"data": "ok"}
        if operation == "get":
            if key not in self.storage:
                return "error", f"storage key {key!r} does not exist"
            return "response", {"data": self.storage[key]}
        if operation == "del":
            self.storage.pop(key, None)
            return "response", {"data": "ok"}
        if operation == "exist":
            return "response", {"data": key in self.storage}
        return "error", f"unknown storage operation {operation!r}"

    def receive_upload(self, ticket: str, content: bytes) -> dict[str, Any]:
        filename, mime_type = self.uploads.pop(ticket)
        number, stored = self.next_file(filename, mime_type)
        self.wire.event(
            "upload", blob=content, file=number, filename=filename, mime_type=mime_type, stored=stored
        )
        return {
            "id": uuid.uuid4().hex,
            "name": filename,
            "size": len(content),
            "extension": Path(filename).suffix,
            "mime_type": mime_type,
            "preview_url": self.upload_base + stored,
        }

    def _handler(self) -> type[http.server.BaseHTTPRequestHandler]:
        daemon = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                """Requests are not logged: stderr belongs to the tool."""

            def do_GET(self) -> None:
                parts = self.path.split("/")
                found = daemon.inputs.get(parts[2]) if len(parts) > 2 and parts[1] == "files" else None
                if found is None:
                    self._send(404, "text/plain", b"not found")
                else:
                    self._send(200, found[0], found[1])

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                if self.path.endswith("/backwards-invocation/transaction"):
                    self._answer_backwards(body)
                elif self.path.startswith("/upload/") and self.path[8:] in daemon.uploads:
                    content = _multipart_file(self.headers.get("Content-Type", ""), body)
                    answer = daemon.receive_upload(self.path[8:], content)
                    self._send(201, "application/json", json.dumps(answer).encode())
                else:
                    self._send(404, "text/plain", b"not found")

            def _answer_backwards(self, body: bytes) -> None:
                message = json.loads(body)
                invoke = message["data"]["data"]
                request_id = invoke.get("backwards_request_id")
                outcome, data = daemon.backwards(invoke)
                lines = []
                event = {"backwards_request_id": request_id, "event": outcome, "message": "", "data": None}
                if outcome == "error":
                    event["message"] = data
                else:
                    event["data"] = data
                lines.append(event)
                lines.append(
                    {"backwards_request_id": request_id, "event": "end", "message": "", "data": None}
                )
                text = "".join(
                    json.dumps(
                        {"session_id": message.get("session_id"), "event": "backwards_response", "data": e}
                    )
                    + "\n"
                    for e in lines
                )
                self._send(200, "application/x-ndjson", text.encode())

            def _send(self, status: int, content_type: str, data: bytes) -> None:
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        return Handler


def _multipart_file(content_type: str, body: bytes) -> bytes:
    """The single file part of the multipart form the SDK's upload posts."""
    match = re.search(r'boundary="?([^";]+)"?', content_type)
    if not match:
        return body
    for part in body.split(b"--" + match.group(1).encode()):
        head, _, rest = part.partition(b"\r\n\r\n")
        if b"filename=" in head:
            return rest[:-2] if rest.endswith(b"\r\n") else rest
    return b""


# ---------------------------------------------------------------- running the tool


def error_event(wire: Wire, stage: str, problem: BaseException, plugin_root: str) -> None:
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
    wire.event(
        "error",
        stage=stage,
        type=type(problem).__name__,
        message=str(problem)[:2000],
        traceback=text,
        key=key if isinstance(key, str) else None,
        sdk_api=_missing_sdk_api(problem),
        **where,
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


def file_inputs(daemon: Daemon, files: dict[str, Any]) -> dict[str, Any]:
    """Dify's file dicts for the example's input files, served by the local stand-in."""
    result: dict[str, Any] = {}
    for name, entries in files.items():
        converted = []
        for entry in entries if isinstance(entries, list) else [entries]:
            data = base64.b64decode(entry["data"])
            mime_type = str(entry["mime_type"])
            converted.append(
                {
                    "dify_model_identity": "__dify__file__",
                    "url": daemon.serve_input(str(entry["filename"]), mime_type, data),
                    "mime_type": mime_type,
                    "type": _file_type(mime_type),
                    "filename": entry["filename"],
                    "extension": Path(str(entry["filename"])).suffix,
                    "size": len(data),
                }
            )
        result[name] = converted if isinstance(entries, list) else converted[0]
    return result


def _file_type(mime_type: str) -> str:
    for kind in ("image", "video", "audio"):
        if mime_type.startswith(kind + "/"):
            return kind
    return "document"


def build_session(sdk: dict[str, Any], daemon_url: str) -> Any:
    """A session whose calls back into Dify go to the local stand-in, through the SDK's own code."""
    runtime, reader_base, writer_base, install = sdk["runtime"], sdk["reader"], sdk["writer"], sdk["install"]

    class NoReader(reader_base):  # type: ignore[misc, valid-type]
        def _read_stream(self) -> Iterator[Any]:
            return iter(())

    class NoWriter(writer_base):  # type: ignore[misc, valid-type]
        def write(self, data: str) -> None:
            """Nothing is written back: serverless mode posts each call over HTTP."""

        def done(self) -> None:
            """See write."""

    from concurrent.futures import ThreadPoolExecutor

    return runtime.Session(
        session_id="registry-run",
        executor=ThreadPoolExecutor(max_workers=2),
        reader=NoReader(),
        writer=NoWriter(),
        install_method=install.InstallMethod.Serverless,
        dify_plugin_daemon_url=daemon_url,
    )


def send_message(wire: Wire, daemon: Daemon, message: Any, sdk: dict[str, Any]) -> bool:
    """One yielded message as the SDK's writer puts it on the wire to Dify (a JSON frame of
    `message.model_dump()`); blob bytes travel as a separate frame, as the SDK sends them in chunks
    apart from the message. False when the SDK could not serialise it: there the SDK ends the
    invocation with an error, so the run ends too."""
    wire.messages += 1
    payload_object: Any = getattr(message, "message", None)
    payload_kind = type(payload_object).__name__ if payload_object is not None else type(message).__name__
    found = getattr(payload_object, "blob", None)
    blob = found if isinstance(found, bytes) and payload_kind == "BlobMessage" else None
    is_blob = blob is not None
    if blob is not None and wire.bytes + len(blob) > wire.max_bytes:
        wire.bytes += len(blob)
        return True
    if is_blob:  # the SDK, too, swaps the bytes for an id before it serialises the message
        payload_object.blob = b"blob"
    try:
        framed = sdk["frame"](message)
    except Exception as problem:  # what the SDK's writer raises, Dify receives as the tool's error
        variable = getattr(payload_object, "variable_name", None)
        wire.event(
            "unsendable",
            index=wire.messages - 1,
            kind=payload_kind,
            variable=variable if isinstance(variable, str) else None,
            problem=f"{type(problem).__name__}: {problem}"[:1000],
        )
        return False
    if not is_blob:
        wire.event("message", kind=payload_kind, wire=framed)
        return True
    meta = getattr(message, "meta", None)
    meta_dict = meta if isinstance(meta, dict) else {}
    filename = str(meta_dict.get("filename") or "")
    mime_type = str(meta_dict.get("mime_type") or "")
    number, stored = daemon.next_file(filename or "blob", mime_type)
    wire.event(
        "message",
        blob=blob,
        kind=payload_kind,
        wire=framed,
        file=number,
        filename=filename,
        mime_type=mime_type,
        stored=stored,
    )
    return True


def wire_framer(writer_base: type) -> Any:
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
        capture.session_message(session_id="registry-run", data=capture.stream_object(data=message))
        return "".join(capture.written).strip()

    return frame


def import_sdk() -> dict[str, Any]:
    """The SDK parts a run needs (importing `dify_plugin` monkey-patches the process with gevent)."""
    sdk = {
        "tool": importlib.import_module("dify_plugin").Tool,
        "runtime": importlib.import_module("dify_plugin.core.runtime"),
        "entities": importlib.import_module("dify_plugin.entities.tool"),
        "loader": importlib.import_module("dify_plugin.core.utils.class_loader"),
        "reader": importlib.import_module("dify_plugin.core.server.__base.request_reader").RequestReader,
        "writer": importlib.import_module("dify_plugin.core.server.__base.response_writer").ResponseWriter,
        "install": importlib.import_module("dify_plugin.config.config"),
        "version": importlib.import_module("importlib.metadata").version("dify_plugin"),
        "gevent": None,
    }
    sdk["frame"] = wire_framer(sdk["writer"])
    with contextlib.suppress(ImportError):
        sdk["gevent"] = importlib.import_module("gevent")
    # What runs reach for later, imported once here too: a session imports its invocations when
    # built, and the HTTP client behind file.upload and storage loads its transport lazily.
    build_session(sdk, "http://127.0.0.1:9")
    for optional in ("httpcore", "anyio", "netrc", "gevent.resolver.thread", "socksio"):
        with contextlib.suppress(ImportError):
            importlib.import_module(optional)
    return sdk


def run_tool(
    wire: Wire, job: dict[str, Any], plugin_root: str, allowed_ports: list[int], sdk: dict[str, Any]
) -> None:
    """Load the tool the way Dify does, then drive `invoke` and forward messages."""
    daemon = Daemon(wire, job, allowed_ports)
    daemon.start()
    source = str(job["source"])
    try:
        tool_class = sdk["loader"].load_single_subclass_from_source(
            module_name=Path(source).with_suffix("").as_posix().replace("/", "."),
            script_path=str(Path.cwd() / source),
            parent_type=sdk["tool"],
        )
    except BaseException as problem:
        error_event(wire, "load", problem, plugin_root)
        return
    try:
        runtime = sdk["entities"].ToolRuntime(
            credentials=dict(job.get("credentials") or {}), user_id="registry-runner", session_id=None
        )
        tool = tool_class(runtime=runtime, session=build_session(sdk, daemon.url))
    except BaseException as problem:  # as Dify builds it: whatever the inputs, this fails
        error_event(wire, "init", problem, plugin_root)
        return
    try:
        parameters = {**job.get("inputs", {}), **file_inputs(daemon, job.get("files", {}))}
        for message in tool.invoke(dict(parameters)):
            if not send_message(wire, daemon, message, sdk):
                return
            problem_text = wire.over_limit()
            if problem_text:
                wire.event("limit", what=problem_text)
                return
    except SystemExit as stop:
        wire.event("exit", code=str(stop.code))
        return
    except BaseException as problem:
        error_event(wire, "invoke", problem, plugin_root)
        return
    wire.event("done")


def run_example(
    wire: Wire, job: dict[str, Any], workdir: Path, source: str, namespaces: bool, sdk: dict[str, Any]
) -> int:
    """One example in a freshly forked child: private working copy of the plugin, network guard,
    the tool; returns the exit status the child ends with."""
    wire.event("started", python=sys.version.split()[0], sdk=sdk["version"])
    plugin_root = str(workdir / "plugin")
    try:
        workdir.mkdir(parents=True, exist_ok=True)
        copy_plugin(source, plugin_root)
        os.environ.update({"HOME": str(workdir), "TMPDIR": str(workdir)})
        os.chdir(plugin_root)
        sys.path.insert(0, plugin_root)
    except BaseException as problem:
        error_event(wire, "setup", problem, "")
        return 70
    allowed: list[int] = []
    http = job.get("http")
    recording = isinstance(http, dict) and http.get("mode") == "record"
    guard_network(wire, allowed, refuse=not namespaces and not recording, report=not recording)
    if not isinstance(http, dict):
        run_tool(wire, job, plugin_root, allowed, sdk)
        return 0
    try:
        tape = load_sibling("recorder").tape(http, wire.event)
        tape.__enter__()
    except BaseException as problem:
        error_event(wire, "tape", problem, plugin_root)
        return 0
    try:
        run_tool(wire, job, plugin_root, allowed, sdk)
    finally:
        tape.__exit__(None, None, None)
    return 0


def load_sibling(name: str) -> Any:
    """A module beside this file, loaded by path as this one is (the child has no project on sys.path)."""
    spec = importlib.util.spec_from_file_location(
        f"dify_registry_{name}", Path(__file__).with_name(f"{name}.py")
    )
    if spec is None or spec.loader is None:
        raise ImportError(f"{name}.py is missing beside the harness")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
