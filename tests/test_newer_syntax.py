"""Plugin code is parsed with the grammar of Dify's Python, even by an older validator."""

from __future__ import annotations

import ast
import sys

import pytest

from generator.interpreters import find_interpreters
from generator.load.syntax import parse_python

PEP_701 = 'names = ["a", "b"]\nshown = f"{", ".join(names)}"\n'
TYPE_ALIAS = "type Pair = tuple[int, int]\nx: Pair = (1, 2)\n"


def _python_312_here() -> bool:
    return sys.version_info >= (3, 12) or any(i.version >= (3, 12) for i in find_interpreters())


needs_312 = pytest.mark.skipif(not _python_312_here(), reason="no Python 3.12 on this machine")


@needs_312
def test_pep_701_fstring_gets_a_tree_with_positions() -> None:
    """An f-string reusing its quotes inside the braces parses, with every node where it was."""
    parsed = parse_python(PEP_701)
    assert parsed.tree is not None
    joined = next(n for n in ast.walk(parsed.tree) if isinstance(n, ast.JoinedStr))
    assert (joined.lineno, joined.col_offset) == (2, 8)
    assert any(isinstance(n, ast.Attribute) and n.attr == "join" for n in ast.walk(parsed.tree))


@needs_312
def test_a_statement_this_python_lacks_keeps_the_rest() -> None:
    """A `type` statement becomes `pass` here (nothing for the checks in it); the next line stays."""
    parsed = parse_python(TYPE_ALIAS)
    assert parsed.tree is not None
    assert isinstance(parsed.tree.body[1], ast.AnnAssign)
    assert parsed.tree.body[1].lineno == 2


def test_a_real_syntax_error_says_where_and_with_which_grammar() -> None:
    """Code no Python accepts has no tree, and the answer names the line and the grammar used."""
    parsed = parse_python("x = 1\ndef broken(:\n    pass\n")
    assert parsed.tree is None
    assert parsed.line == 2
    assert parsed.grammar
    assert parsed.problem
