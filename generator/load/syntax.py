"""Python code parsed with the grammar of the Python the plugin runs on.

Dify runs every plugin with the one Python its daemon is configured with (3.12 in its images), and
the validator may run on an older one: a tool written with 3.12 syntax (PEP 701 f-strings, `type`
statements) does not parse here. Such a file is parsed again by a 3.12 interpreter of this machine
(found as the runner finds it, `generator.interpreters`), which sends its syntax tree back as JSON;
the tree is rebuilt with this Python's node classes, positions kept, so every code check reads it as
if it had parsed here. Nothing of the plugin is imported or run, only `ast.parse`.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from dataclasses import dataclass
from functools import cache
from typing import Any

from generator.interpreters import DAEMON_PYTHON, Interpreter, choose_interpreter, find_interpreters

PARSE_TIMEOUT = 60
# Run by the other interpreter: the source on stdin, the tree (or the syntax error) out as JSON.
# `-I -S` keeps the caller's environment and site packages out.
_PARSER = """
import ast, json, sys
sys.setrecursionlimit(10000)
def encode(node):
    if isinstance(node, ast.AST):
        out = {"_": type(node).__name__}
        for name in node._fields:
            out[name] = encode(getattr(node, name, None))
        for name in node._attributes:
            if hasattr(node, name):
                out[name] = getattr(node, name)
        return out
    if isinstance(node, list):
        return [encode(item) for item in node]
    if isinstance(node, bytes):
        return {"_bytes": node.decode("latin-1")}
    if isinstance(node, complex):
        return {"_complex": [node.real, node.imag]}
    if node is Ellipsis:
        return {"_ellipsis": True}
    return node
try:
    tree = ast.parse(sys.stdin.buffer.read())
except SyntaxError as problem:
    json.dump({"problem": str(problem.msg), "line": problem.lineno or 1}, sys.stdout)
except (ValueError, RecursionError, MemoryError) as problem:
    json.dump({"problem": str(problem) or type(problem).__name__, "line": 1}, sys.stdout)
else:
    json.dump({"tree": encode(tree)}, sys.stdout)
"""


@dataclass(frozen=True, slots=True)
class Parsed:
    """A syntax tree, or why there is none: the problem, its line and the grammar that refused."""

    tree: ast.Module | None
    problem: str = ""
    line: int = 1
    grammar: str = ""


def parse_python(text: str) -> Parsed:
    """`text` parsed here, else with Dify's Python when this one is older and refuses it."""
    try:
        return Parsed(ast.parse(text))
    except SyntaxError as problem:
        here = Parsed(None, str(problem.msg), problem.lineno or 1, _own())
    except (ValueError, RecursionError, MemoryError) as problem:
        return Parsed(None, str(problem) or type(problem).__name__, 1, _own())
    other = _dify_interpreter()
    if other is None:
        return here
    return _parse_with(other, text) or here


def _own() -> str:
    return f"{sys.version_info[0]}.{sys.version_info[1]}"


@cache  # PATH and pyenv's folders are globbed once per process
def _dify_interpreter() -> Interpreter | None:
    """The interpreter of Dify's Python when it is newer than this one (else parsing here decides)."""
    chosen = choose_interpreter(DAEMON_PYTHON, find_interpreters())
    return chosen if chosen is not None and chosen.version > sys.version_info[:2] else None


def _parse_with(interpreter: Interpreter, text: str) -> Parsed | None:
    """The tree as `interpreter` parses `text`, or None when it could not be asked."""
    try:
        done = subprocess.run(
            [str(interpreter.path), "-I", "-S", "-c", _PARSER],
            input=text.encode("utf-8", errors="surrogatepass"),
            capture_output=True,
            timeout=PARSE_TIMEOUT,
            check=False,
        )
        answer = json.loads(done.stdout) if done.returncode == 0 else None
    except (OSError, subprocess.TimeoutExpired, ValueError, RecursionError):
        return None
    if not isinstance(answer, dict):
        return None
    if "tree" in answer:
        try:
            tree = _decode(answer["tree"])
        except (RecursionError, TypeError, ValueError):  # a hostile nesting, a malformed answer
            return None
        return Parsed(tree) if isinstance(tree, ast.Module) else None
    line = answer.get("line")
    return Parsed(
        None, str(answer.get("problem", "")), line if isinstance(line, int) else 1, interpreter.name
    )


def _decode(value: Any) -> Any:
    """A node (or value) of the JSON tree, rebuilt with this Python's node classes. A node this
    Python lacks (a `type` statement) becomes `pass` at its place: the checks have nothing to read in
    it, and every other node keeps its position."""
    if isinstance(value, list):
        return [_decode(item) for item in value]
    if not isinstance(value, dict):
        return value
    if "_bytes" in value:
        return str(value["_bytes"]).encode("latin-1")
    if "_complex" in value:
        real, imaginary = value["_complex"]
        return complex(real, imaginary)
    if "_ellipsis" in value:
        return ...
    kind = getattr(ast, str(value.get("_")), None)
    if not (isinstance(kind, type) and issubclass(kind, ast.AST)):
        kind = ast.Pass
    node = kind()
    for name in (*kind._fields, *kind._attributes):
        if name in value:
            setattr(node, name, _decode(value[name]))
    return node
