"""The child's side of recorded examples: every HTTP exchange of the tool recorded, or answered
from a recording, with vcrpy, in memory.

Loaded by path in the sandboxed child like the harness, so it imports only the standard library at
load time (and `wire/`); vcrpy comes from the registry's own folder of packages (the overlay), appended to
`sys.path` when a job asks for it, so a plugin's own versions of vcrpy's dependencies win.

The task's `Http` says what to do (`mode`: record or replay), which interactions to answer from, and the
credential values of the example with their markers. Every value is replaced by its marker in each
request before it is matched or recorded, and in each response before it is recorded, so neither a
recording nor a comparison ever holds a secret. In replay a request with no recorded answer goes on
to the network, which the sandbox does not have: the tool sees the connection error an offline
tool sees, and the parent is told which request it was.
"""

from __future__ import annotations

import base64
import contextlib
import sys
import urllib.parse
from collections.abc import Callable, Iterator
from typing import Any

from ..wire import Event, Exchange, Http, Recorded, Unmatched

# Headers whose value is a credential whatever the example's credentials are.
SECRET_HEADERS = frozenset(
    {
        "authorization",
        "proxy-authorization",
        "cookie",
        "set-cookie",
        "x-api-key",
        "api-key",
        "apikey",
        "x-auth-token",
        "x-access-token",
        "x-goog-api-key",
        "x-subscription-token",
        "ocp-apim-subscription-key",
    }
)
REDACTED = "dify-registry-redacted"
MATCH_ON = ("method", "scheme", "host", "port", "path", "query", "body")


def _forms(value: str) -> list[str]:
    """The spellings a value takes in requests: as is, percent-encoded, form-encoded."""
    found = [value, urllib.parse.quote(value, safe=""), urllib.parse.quote_plus(value)]
    return sorted({form for form in found if form}, key=len, reverse=True)


class Scrubber:
    """Replaces every credential value of the example, in any of its spellings, by its marker."""

    def __init__(self, secrets: list[tuple[str, str]]) -> None:
        # longer values first, so a value that contains another is replaced whole
        pairs = [(form, marker) for value, marker in secrets if value for form in _forms(value)]
        self.pairs = sorted(pairs, key=lambda pair: len(pair[0]), reverse=True)

    def text(self, text: str) -> str:
        for value, replacement in self.pairs:
            text = text.replace(value, replacement)
        return text

    def data(self, data: bytes) -> bytes:
        for value, replacement in self.pairs:
            data = data.replace(value.encode(), replacement.encode())
        return data

    def headers(self, headers: dict[str, Any]) -> dict[str, Any]:
        cleaned: dict[str, Any] = {}
        for key, value in headers.items():
            values = value if isinstance(value, list) else [value]
            if str(key).lower() in SECRET_HEADERS:
                cleaned[key] = [REDACTED for _ in values]
            else:
                cleaned[key] = [self.text(str(item)) for item in values]
        return cleaned


def _body_bytes(body: Any) -> bytes:
    if body is None:
        return b""
    if isinstance(body, str):
        return body.encode("utf-8")
    if isinstance(body, bytes):
        return body
    return bytes(body)


def encode_body(data: bytes) -> dict[str, str]:
    """A body as the recording stores it: text when it is UTF-8, else base64."""
    try:
        return {"text": data.decode("utf-8")}
    except UnicodeDecodeError:
        return {"base64": base64.b64encode(data).decode("ascii")}


def decode_body(body: dict[str, str]) -> bytes:
    """The bytes of a stored body."""
    if "base64" in body:
        return base64.b64decode(body["base64"])
    return str(body.get("text", "")).encode("utf-8")


def _to_vcr(interaction: dict[str, Any], request_class: Any) -> tuple[Any, dict[str, Any]]:
    request = interaction["request"]
    response = interaction["response"]
    vcr_request = request_class(
        request["method"],
        request["url"],
        decode_body(request.get("body") or {}),
        request.get("headers") or {},
    )
    vcr_response = {
        "status": {"code": int(response["status"]), "message": str(response.get("reason", ""))},
        "headers": response.get("headers") or {},
        "body": {"string": decode_body(response.get("body") or {})},
    }
    return vcr_request, vcr_response


def _from_vcr(request: Any, response: dict[str, Any]) -> dict[str, Any]:
    status = response.get("status") or {}
    return {
        "request": {
            "method": str(request.method),
            "url": str(request.uri),
            "headers": {
                str(k): list(v) if isinstance(v, list) else [str(v)] for k, v in request.headers.items()
            },
            "body": encode_body(_body_bytes(request.body)),
        },
        "response": {
            "status": int(status.get("code", 0)),
            "reason": str(status.get("message", "")),
            "headers": {
                str(k): [str(item) for item in (v if isinstance(v, list) else [v])]
                for k, v in (response.get("headers") or {}).items()
            },
            "body": encode_body(_body_bytes((response.get("body") or {}).get("string"))),
        },
    }


@contextlib.contextmanager
def tape(http: Http, send: Callable[[Event], None]) -> Iterator[None]:
    """Record or replay the HTTP exchanges of the code run inside, as `http` says.

    `send` reports to the parent: `Exchange` for each request answered or made, `Unmatched` for a
    replayed request without a recorded answer, `Recorded` (record mode) with every interaction at
    the end."""
    sys.path.append(http.overlay)
    import vcr
    from vcr.request import Request

    scrub = Scrubber(list(http.secrets))
    recording = http.mode == "record"
    loaded = [_to_vcr(interaction, Request) for interaction in http.interactions]
    saved: list[dict[str, Any]] = []

    def clean_request(request: Any) -> Any:
        request.uri = scrub.text(str(request.uri))
        request.body = scrub.data(_body_bytes(request.body)) or None
        request.headers = {k: v[0] for k, v in scrub.headers(dict(request.headers)).items()}
        return request

    def clean_response(response: dict[str, Any]) -> dict[str, Any]:
        response["headers"] = scrub.headers(response.get("headers") or {})
        body = response.get("body") or {}
        body["string"] = scrub.data(_body_bytes(body.get("string")))
        response["body"] = body
        return response

    class Memory:
        """vcrpy's persister, in memory: loads the job's interactions, keeps what was recorded."""

        @classmethod
        def load_cassette(cls, path: str, serializer: Any) -> tuple[list[Any], list[Any]]:
            if not loaded:
                from vcr.persisters.filesystem import CassetteNotFoundError

                raise CassetteNotFoundError  # vcrpy then starts an empty cassette
            return [r for r, _ in loaded], [dict(s) for _, s in loaded]

        @staticmethod
        def save_cassette(path: str, data: dict[str, Any], serializer: Any) -> None:
            saved[:] = [_from_vcr(r, s) for r, s in zip(data["requests"], data["responses"], strict=False)]

    recorder = vcr.VCR(
        record_mode="all" if recording else "new_episodes",
        match_on=MATCH_ON,
        before_record_request=clean_request,
        before_record_response=clean_response,
        decode_compressed_response=False,
    )
    recorder.register_persister(Memory)
    with recorder.use_cassette("dify-registry-recording") as cassette:
        original = cassette.play_response
        can_play = cassette.can_play_response_for

        def answered(request: Any) -> Any:
            send(Exchange(method=str(request.method), url=scrub.text(str(request.uri))[:2000]))
            return original(request)

        def checked(request: Any) -> bool:
            found = bool(can_play(request))
            if not found and not recording:
                body = scrub.data(_body_bytes(request.body))
                send(
                    Unmatched(
                        method=str(request.method),
                        url=scrub.text(str(request.uri))[:2000],
                        body=body[:4000].decode("utf-8", errors="replace"),
                    )
                )
            return found

        cassette.play_response = answered
        cassette.can_play_response_for = checked
        try:
            yield
        finally:
            if recording:
                cassette._save(force=True)
                for interaction in saved:
                    request = interaction["request"]
                    send(Exchange(method=request["method"], url=request["url"]))
                send(Recorded(interactions=saved))
