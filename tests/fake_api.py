"""A small stand-in for the web APIs of the registry's API plugins and of the recording cases, served
on loopback: there is no other network here. Recording runs talk to it; replays must not need it.

Run `python -m tests.fake_api` to serve it in the foreground (to record by hand)."""

from __future__ import annotations

import fcntl
import http.server
import json
import struct
import tempfile
import threading
import time
import urllib.parse
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

PORT = 48371  # the examples files of plugins/book_finder and plugins/rate_converter name it
BOOK_KEY = "bk_live_8f2c41d9e07a4b6c"  # what BOOK_FINDER_API_KEY holds while recording
RATES_TOKEN = "rt_live_5d93be2207c14f8a"  # what RATE_CONVERTER_TOKEN holds while recording
CASE_KEY = "case-secret-7730e1f2"

BOOKS = [
    {
        "id": "bk-101",
        "title": "The Small Garden",
        "author": "R. Meadows",
        "year": 2019,
        "pages": 212,
        "summary": "Beds, pots and paths for a garden of ten square metres.",
    },
    {
        "id": "bk-207",
        "title": "Gardening Through the Year",
        "author": "L. Okafor",
        "year": 2021,
        "pages": 340,
        "summary": "What to sow, plant and prune, month by month.",
    },
]
HISTORY = [
    ("2026-11-25", 1.087),
    ("2026-11-26", 1.081),
    ("2026-11-27", 1.09),
    ("2026-11-28", 1.094),
    ("2026-11-29", 1.088),
]


def png(width: int = 4, height: int = 6) -> bytes:
    """A small valid PNG image (solid blue), made here so the cover is real image data."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = b"".join(b"\x00" + b"\x3b\x6e\xa8" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the tests read what they need from the responses."""

    def _send(self, status: int, body: bytes, content_type: str = "application/json") -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _json(self, data: Any, status: int = 200) -> None:
        self._send(status, json.dumps(data).encode())

    def do_GET(self) -> None:
        self.server.seen.append(f"GET {self.path}")  # type: ignore[attr-defined]
        url = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(url.query))
        if url.path.startswith("/api/"):
            self._books(url.path[4:], query)
        elif url.path.startswith("/v1/"):
            self._rates(url.path, query)
        elif url.path.startswith("/case/"):
            self._case(url.path, query, b"")
        else:
            self._json({"error": "not found"}, 404)

    def do_POST(self) -> None:
        self.server.seen.append(f"POST {self.path}")  # type: ignore[attr-defined]
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length)
        self._case(urllib.parse.urlsplit(self.path).path, {}, body)

    def _books(self, path: str, query: dict[str, str]) -> None:
        if self.headers.get("X-Api-Key") != BOOK_KEY:
            self._json({"error": "invalid key"}, 401)
        elif path == "/v1/account":
            self._json({"plan": "free"})
        elif path == "/v1/search":
            words = query.get("q", "").lower()
            found = [b for b in BOOKS if words and words[:6] in f"{b['title']} {b['summary']}".lower()]
            limit = int(query.get("limit", "3"))
            self._json(
                {"results": [{k: b[k] for k in ("id", "title", "author", "year")} for b in found[:limit]]}
            )
        elif path.startswith("/v1/books/") and path.endswith("/cover"):
            self._send(200, png(), "image/png")
        elif path.startswith("/v1/books/"):
            book = next((b for b in BOOKS if b["id"] == path.rsplit("/", 1)[-1]), None)
            self._json(book if book else {"error": "no such book"}, 200 if book else 404)
        else:
            self._json({"error": "not found"}, 404)

    def _rates(self, path: str, query: dict[str, str]) -> None:
        if self.headers.get("Authorization") != f"Bearer {RATES_TOKEN}":
            self._json({"error": "invalid token"}, 401)
        elif path == "/v1/latest":
            self._json(
                {"base": query.get("base"), "date": "2026-12-01", "rates": {"JPY": 162.35, "USD": 1.088}}
            )
        elif path == "/v1/history":
            days = HISTORY[: int(query.get("days", "5"))]
            self.send_response(200)
            self.send_header("Content-Type", "application/x-ndjson")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for date, rate in days:  # one chunk per line, as a streaming service sends them
                line = json.dumps({"date": date, "rate": rate}).encode() + b"\n"
                self.wfile.write(f"{len(line):x}\r\n".encode() + line + b"\r\n")
                self.wfile.flush()
                time.sleep(0.01)
            self.wfile.write(b"0\r\n\r\n")
        else:
            self._json({"error": "not found"}, 404)

    def _case(self, path: str, query: dict[str, str], body: bytes) -> None:
        given = self.headers.get("X-Api-Key") or query.get("key")
        if given != CASE_KEY:
            self._json({"error": "invalid key"}, 401)
            return
        library = path.rsplit("/", 1)[-1]
        self._json({"library": library, "posted": body.decode("utf-8", errors="replace"), "n": len(body)})


@contextmanager
def serving(port: int = PORT) -> Iterator[http.server.ThreadingHTTPServer]:
    """The stand-in, on 127.0.0.1:`port`, for the time of the block; `server.seen` lists the
    requests it answered. The port is fixed (examples files name it), so test suites of several
    checkouts on one machine take turns through a lock file instead of failing to bind."""
    with (Path(tempfile.gettempdir()) / f"dify-registry-fake-api-{port}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield from _serve(port)


def _serve(port: int) -> Iterator[http.server.ThreadingHTTPServer]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    server.seen = []  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


if __name__ == "__main__":
    with serving():
        print(f"serving on http://127.0.0.1:{PORT} (Ctrl-C to stop)")
        threading.Event().wait()
