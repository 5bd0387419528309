"""The local stand-in for Dify during a run: serves the example's input files, and the calls the
SDK's session makes back into Dify (file upload, storage), on the child's loopback interface."""

from __future__ import annotations

import http.server
import json
import mimetypes
import re
import socketserver
import threading
import uuid
from pathlib import Path
from typing import Any

from ..wire import EventWriter, StorageUnset, Unserved, Uploaded


class LoopbackServer(http.server.HTTPServer):
    """An HTTP server on loopback that does not ask the resolver for its own name.

    `HTTPServer.server_bind` looks up the host's fully qualified name (`socket.getfqdn`), which
    costs about 2 ms of every example in the sandbox, and nothing here reads it."""

    def server_bind(self) -> None:
        socketserver.TCPServer.server_bind(self)
        self.server_name, self.server_port = str(self.server_address[0]), int(self.server_address[1])


class Daemon:
    """Serves what a tool may ask of Dify during a run: input files, file upload, storage.

    The SDK's own backwards-invocation code talks to it over HTTP on loopback, exactly as it talks
    to Dify's plugin daemon in serverless mode; every other call gets an error naming the call.
    """

    def __init__(self, events: EventWriter, upload_base: str, allowed_ports: list[int]) -> None:
        self.events = events
        self.inputs: dict[str, tuple[str, bytes]] = {}
        self.uploads: dict[str, tuple[str, str]] = {}
        self.storage: dict[str, str] = {}
        self.upload_base = upload_base
        self.file_count = 0
        self.server = LoopbackServer(("127.0.0.1", 0), self._handler())
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        allowed_ports.append(self.server.server_port)

    def start(self) -> None:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def next_file(self, filename: str, mime_type: str) -> str:
        """The name the next file of the run (blob or upload) is stored under: its number and suffix."""
        number = self.file_count
        self.file_count += 1
        suffix = Path(filename).suffix.lower()
        if not re.fullmatch(r"\.[a-z0-9]{1,8}", suffix):
            suffix = mimetypes.guess_extension(mime_type) or ".bin"
        return f"{number}{suffix}"

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
        self.events.send(Unserved(call=str(kind)))
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
                self.events.send(StorageUnset(key=key[:200]))
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
        stored = self.next_file(filename, mime_type)
        self.events.send(Uploaded(filename=filename, mime_type=mime_type, stored=stored, blob=content))
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
