"""The kept walks of a syntax tree (`every_node`, `children`, `own_nodes`) give what a fresh walk
gives, on real code: the generator's own modules."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest

from generator.check.common import children, every_node, kept_on
from generator.check.sdk_file import own_nodes

SOURCES = sorted((Path(__file__).parent.parent / "generator" / "check").glob("*.py"))


def _fresh_own_nodes(function: ast.FunctionDef | ast.AsyncFunctionDef) -> Counter[int]:
    """The nodes `own_nodes` lists (by identity, any order), found by recursion with
    `ast.iter_child_nodes`: the body and arguments, and below them all but inner scopes' insides."""
    found: Counter[int] = Counter()

    def visit(node: ast.AST) -> None:
        found[id(node)] += 1
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            for child in ast.iter_child_nodes(node):
                visit(child)

    for top in [*function.body, function.args]:
        visit(top)
    return found


@pytest.mark.parametrize("source", SOURCES[::5], ids=lambda p: p.name)
def test_kept_walks_equal_fresh_ones(source: Path) -> None:
    tree = ast.parse(source.read_text(encoding="utf-8"))
    walked = list(ast.walk(tree))
    assert list(every_node(tree)) == walked
    assert list(every_node(tree)) == walked  # asked again: the kept list, the same order
    for node in walked:
        assert list(children(node)) == list(ast.iter_child_nodes(node))
    for function in (n for n in walked if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)):
        assert list(every_node(function)) == list(ast.walk(function))
        assert Counter(map(id, own_nodes(function))) == _fresh_own_nodes(function)


def test_callers_get_lists_of_their_own() -> None:
    function = ast.parse("def f(x):\n    y = x + 1\n    return y\n").body[0]
    assert isinstance(function, ast.FunctionDef)
    first = own_nodes(function)
    listed = list(first)
    first.clear()
    assert own_nodes(function) == listed != []


def test_a_kept_fact_is_made_once_per_node() -> None:
    one, two = ast.parse("a = 1"), ast.parse("b = 2")
    made: list[ast.AST] = []

    def make(tree: ast.AST) -> int:
        made.append(tree)
        return len(made)

    assert kept_on(one, "count", lambda: make(one)) == 1
    assert kept_on(one, "count", lambda: make(one)) == 1
    assert kept_on(two, "count", lambda: make(two)) == 2
    assert made == [one, two]
