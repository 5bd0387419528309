"""R091 and R092 on small `_invoke` bodies: which error answers that go on are told, and which
shapes stay silent (the case folders bad/error-answer-goes-on and good/error-answers-end hold a
whole plugin of each)."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest

from tests.validate_cases import CASES, findings_of

HEAD = """\
import requests
from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class Fetch(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        query = tool_parameters["query"]
"""
OFFSET = HEAD.count("\n")  # a body's line n is the file's line OFFSET + n

# (what the body shows, the body, the (rule, line in the body) pairs told)
BODIES = [
    (
        "a wrong status, then the answer's json",
        """
        resp = requests.get(query, timeout=5)
        if resp.status_code >= 400:
            yield self.create_text_message(resp.text)
        yield self.create_json_message(resp.json())
        """,
        [("R091", 3)],
    ),
    (
        "an error key, then another key of the same answer",
        """
        data = requests.get(query, timeout=5).json()
        if "error" in data:
            yield self.create_text_message(str(data["error"]))
        yield self.create_text_message(data["items"][0])
        """,
        [("R091", 3)],
    ),
    (
        "a copy of a missing key, used",
        """
        if not tool_parameters.get("query"):
            yield self.create_text_message("query is required")
        text = tool_parameters.get("query")
        yield self.create_text_message(text.strip())
        """,
        [("R091", 2)],
    ),
    (
        "an invalid value in an else branch",
        """
        if query in ("a", "b"):
            pass
        else:
            yield self.create_text_message("invalid query")
        requests.get("https://example.com/" + query, timeout=5)
        """,
        [("R091", 4)],
    ),
    (
        "a success test: the branch is no error answer",
        """
        image = tool_parameters.get("image")
        if image:
            yield self.create_image_message(image)
        requests.get(image, timeout=5)
        """,
        [],
    ),
    (
        "only shown after: a message, len, a loop",
        """
        items = requests.get(query, timeout=5).json()
        if not items:
            yield self.create_text_message("nothing found")
        yield self.create_text_message(f"{len(items)} found: {items}")
        for item in items:
            yield self.create_json_message(item)
        """,
        [],
    ),
    (
        "tested again, or a flag tested, before the use",
        """
        failed = False
        if not query:
            yield self.create_text_message("query is required")
            failed = True
        if not failed:
            requests.get(query, timeout=5)
        """,
        [],
    ),
    (
        "a branch that ends in a nested return",
        """
        if not query:
            yield self.create_text_message("query is required")
            if query is None:
                return
        requests.get(query, timeout=5)
        """,
        [],
    ),
    (
        "a name bound in a try whose handler answers and goes on, read in an if test",
        """
        try:
            resp = requests.get(query, timeout=5)
        except requests.RequestException as e:
            yield self.create_text_message(str(e))
        if resp.ok:
            yield self.create_json_message(resp.json())
        """,
        [("R092", 5)],
    ),
    (
        "the read in a branch, or after a return the flow may take",
        """
        ok = False
        try:
            resp = requests.get(query, timeout=5)
            ok = True
        except requests.RequestException as e:
            yield self.create_text_message(str(e))
        if ok:
            yield self.create_json_message(resp.json())
        try:
            other = requests.get(query, timeout=5)
        except requests.RequestException as e:
            yield self.create_text_message(str(e))
        if not ok:
            return
        yield self.create_json_message(other.json())
        """,
        [],
    ),
    (
        "bound in every handler, or before the try, or in a loop",
        """
        try:
            resp = requests.get(query, timeout=5)
        except requests.RequestException as e:
            yield self.create_text_message(str(e))
            resp = None
        yield self.create_text_message(str(resp))
        for word in query.split():
            try:
                page = requests.get(word, timeout=5)
            except requests.RequestException as e:
                yield self.create_text_message(str(e))
            yield self.create_text_message(page.text)
        """,
        [],
    ),
    (
        "a status message on either side of a test, then the work: no error answer",
        """
        is_video = query.endswith(".mp4")
        if is_video:
            yield self.create_text_message("Uploading a video, this may take a while")
        else:
            yield self.create_text_message("Uploading")
        yield self.create_text_message(str(is_video))
        """,
        [],
    ),
    (
        "a wrong status shown, then raise_for_status ends the call",
        """
        resp = requests.get(query, timeout=5)
        if resp.status_code != 200:
            yield self.create_text_message(f"status {resp.status_code}")
        resp.raise_for_status()
        yield self.create_json_message(resp.json())
        """,
        [],
    ),
]


@pytest.mark.parametrize(
    ("body", "told"), [(b, t) for _what, b, t in BODIES], ids=[w for w, _b, _t in BODIES]
)
def test_error_answers(tmp_path: Path, body: str, told: list[tuple[str, int]]) -> None:
    """The fixed twin's plugin with this `_invoke` body tells exactly `told`."""
    folder = tmp_path / "plugin"
    shutil.copytree(CASES / "good" / "error-answers-end", folder)
    code = HEAD + textwrap.indent(textwrap.dedent(body).strip("\n") + "\n", " " * 8)
    (folder / "tools" / "fetch.py").write_text(code, encoding="utf-8")
    found = [(f.rule, f.line - OFFSET) for f in findings_of(folder) if f.rule in ("R091", "R092")]
    assert found == told
