"""The variable names a module's variable messages can use (run/code_variables.py)."""

from __future__ import annotations

import ast

import pytest

from generator.run.code_variables import tree_variables


def names(code: str) -> frozenset[str] | None:
    return tree_variables(ast.parse(code))


def test_literal_names() -> None:
    assert names("def f(self):\n    yield self.create_variable_message('a', 1)\n") == frozenset({"a"})


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("m = {'a': 1, 'b': 2}\nfor k in m:\n    yield self.create_variable_message(k, m[k])", {"a", "b"}),
        ("m = {'a': 1}\nfor k in m.keys():\n    yield self.create_variable_message(k, m.get(k))", {"a"}),
        ("for k, v in {'a': 1, 'c': 2}.items():\n    yield self.create_variable_message(k, v)", {"a", "c"}),
        ("m = {'a': 1}\nfor k, v in m.items():\n    yield self.create_variable_message(k, v)", {"a"}),
        ("for k in ('x', 'y'):\n    yield self.create_variable_message(k, 1)", {"x", "y"}),
    ],
)
def test_loops_over_literal_names(code: str, expected: set[str]) -> None:
    body = "\n".join("    " + line for line in code.splitlines())
    assert names(f"def f(self, d):\n{body}\n") == frozenset(expected)


@pytest.mark.parametrize(
    "code",
    [
        "m = {'a': 1}\nm['b'] = 2\nfor k in m:\n    yield self.create_variable_message(k, 1)",
        "m = {'a': 1}\nm.update(d)\nfor k in m:\n    yield self.create_variable_message(k, 1)",
        "m = {'a': 1}\nfill(m)\nfor k in m:\n    yield self.create_variable_message(k, 1)",
        "m = {'a': 1, **d}\nfor k in m:\n    yield self.create_variable_message(k, 1)",
        "for k in d:\n    yield self.create_variable_message(k, 1)",
        "for k in ['a']:\n    k = k.upper()\n    yield self.create_variable_message(k, 1)",
        "for k in ('a',):\n    pass\nyield self.create_variable_message(k, 1)",
        "for v, k in {'a': 1}.items():\n    yield self.create_variable_message(k, v)",
        "for k in {'a': 1}.values():\n    yield self.create_variable_message(k, 1)",
    ],
)
def test_other_names_can_be_anything(code: str) -> None:
    body = "\n".join("    " + line for line in code.splitlines())
    assert names(f"def f(self, d):\n{body}\n") is None
