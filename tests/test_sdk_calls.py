"""How R083 binds a call's arguments to an SDK helper's signature, as Python does."""

from __future__ import annotations

import ast

import pytest

from generator.check.sdk_calls import _parameters, _problem

SIGNATURE = ["key", "/", "val", "default=", "*", "timeout=", "**extra"]
CLOSED = ["blob", "meta="]


def _call(text: str) -> ast.Call:
    node = ast.parse(text, mode="eval").body
    assert isinstance(node, ast.Call)
    return node


@pytest.mark.parametrize(
    ("text", "signature", "problem"),
    [
        ("f(b)", CLOSED, None),
        ("f(b, {})", CLOSED, None),
        ("f(blob=b, meta={})", CLOSED, None),
        ("f(b, {}, 1)", CLOSED, "it takes 2 positional arguments, the call gives 3"),
        ("f(b, filename='x')", CLOSED, "it has no parameter `filename`"),
        ("f(b, blob=b)", CLOSED, "`blob` is given twice, by position and by keyword"),
        ("f(meta={})", CLOSED, "the required `blob` is left out"),
        ("f('k', 'v', timeout=2, anything=1)", SIGNATURE, None),  # `**extra` takes any keyword
        ("f('k', val='v')", SIGNATURE, None),
        ("f(val='v')", SIGNATURE, "the required `key` is left out"),
        ("f('k', 'v', None, 3)", SIGNATURE, "it takes 3 positional arguments, the call gives 4"),
    ],
)
def test_binding(text: str, signature: list[str], problem: str | None) -> None:
    found = _problem(_call(text), _parameters(signature))
    assert (found[0] if found else None) == problem


def test_positional_only_by_keyword() -> None:
    found = _problem(_call("f('k', key='k')"), _parameters(["key", "/", "val="]))
    assert found == ("`key` is positional-only", "key")
