"""A branch of a dispatch on a select parameter that answers nothing (R126), found without running
the tool: `elif fmt == "html": result = to_html(rows)` builds the answer and never yields it, while
the other branches do, and nothing after the dispatch yields.

The value's tests are read by `select_tests.py` (from its read in `_invoke`); only chains in
`_invoke` itself are read, since what a helper returns is yielded by its caller.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from generator.check import CheckContext
from generator.check.common import statement_nodes
from generator.check.sdk_file import own_nodes
from generator.check.select_options import Select, reaches, select_parameters
from generator.check.select_tests import Test, read_value
from generator.check.select_unhandled import letting_in
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.rules import Listing, rule

ANSWERS_NOTHING = rule(
    "R126",
    "select-option-answers-nothing",
    Severity.WARNING,
    "tool {tool}: the branch for {options} of select parameter `{parameter}` yields no message, and"
    " nothing after it in `_invoke` does, while the dispatch's other branches answer: picking {them},"
    " the call ends with an empty result",
    "Yield the branch's result as the other branches do (`yield self.create_text_message(...)`,"
    " `create_blob_message`, ...), or raise an error for an option the tool cannot serve.",
    """
A tool's answer is what its `_invoke` yields. A call that ends without yielding is no error: Dify's
tool node turns the messages it received into its outputs and reports success whatever they are
(`ToolNode._transform_message` in api/core/workflow/nodes/tool/tool_node.py ends with
`NodeRunResult(status=WorkflowNodeExecutionStatus.SUCCEEDED, outputs={"text": text, "files":
ArrayFileSegment(value=files), "json": json_output, **variables})`, `text` empty and `json`
`[{"data": []}]` when nothing came), so the next node runs on nothing and the user sees no error.
A dispatch on a select parameter (`if fmt == "csv": ... elif fmt == "html": ...`) whose branch for
an option builds its result and forgets to yield it answers nothing for every call that picks the
option, while a run with the default option works.

Found without running, in `_invoke`: an `if`/`elif` chain whose every test lets only string
literals of the value in (a final `else` allowed), read as R084 reads it (`select_unhandled.py`),
with at least one other branch that yields; a branch for one of the declared options that holds no
`yield`, `return`, `raise`, `break` or `continue`; and no `yield` in `_invoke` outside the chain
that could run on the branch's way: one after the chain (but in an `except` handler, which runs on
failure only), or one before it outside a handler and outside a block that ends in `return` or
`raise`. A warning: an option meant to act without answering is possible, though the other branches
answer.
""",
)
STOPS = (ast.Return, ast.Raise, ast.Break, ast.Continue)


@dataclass(frozen=True, slots=True)
class _Branch:
    """One branch of a chain: the test that lets the value in (None for the final `else`), the
    literals it lets in, and its statements."""

    test: ast.expr | None
    literals: frozenset[str]
    body: list[ast.stmt]


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """Branches of dispatches on select parameters that answer nothing, in every tool."""
    for select in select_parameters(loaded):
        reach = next(iter(reaches(select.invoke, select.scope, select.parameter.name, every_call=False)))
        reading = read_value(reach)
        tested = {id(test.node): test for test in reading.tests if test.equal and not test.keys}
        if tested:
            yield from _silent(select, tested)


def _silent(select: Select, tested: dict[int, Test]) -> Iterator[Finding]:
    function = select.invoke.function
    nodes = own_nodes(function)
    elifs: set[int] = set()
    parents = {id(child): node for node in nodes for child in ast.iter_child_nodes(node)}
    offered = {option.value for option in select.parameter.options}
    for node in nodes:
        if not isinstance(node, ast.If) or id(node) in elifs:
            continue
        branches = _chain(node, tested, elifs)
        if branches is None or sum(1 for branch in branches if branch.literals & offered) < 2:
            continue
        inside = {
            id(found) for branch in branches for statement in branch.body for found in ast.walk(statement)
        }
        if _answered_elsewhere(node, nodes, parents, inside):
            continue
        answering = [branch for branch in branches if _yields(branch.body)]
        for branch in branches:
            options = sorted(branch.literals & offered)
            if not options or branch.test is None or _yields(branch.body) or _stops(branch.body):
                continue
            if not any(other is not branch for other in answering):
                continue
            yield ANSWERS_NOTHING.at(
                Location(select.invoke.display, branch.test.lineno, branch.test.col_offset + 1),
                tool=select.invoke.tool.name,
                options=Listing([f"`{option}`" for option in options]),
                parameter=select.parameter.name,
                them="it" if len(options) == 1 else "them",
            )


def _chain(statement: ast.If, tested: dict[int, Test], elifs: set[int]) -> list[_Branch] | None:
    """The branches of the chain `statement` starts, each `elif` added to `elifs`; None when a test
    is anything but a test of the value against literals."""
    branches: list[_Branch] = []
    current: ast.stmt | None = statement
    while isinstance(current, ast.If):
        literals = letting_in(current.test, tested)
        if literals is None:
            return None
        branches.append(_Branch(current.test, frozenset(literals), current.body))
        orelse = current.orelse
        current = orelse[0] if len(orelse) == 1 and isinstance(orelse[0], ast.If) else None
        if current is not None:
            elifs.add(id(current))
        elif orelse:
            branches.append(_Branch(None, frozenset(), orelse))
    return branches


def _answered_elsewhere(
    chain: ast.If, nodes: list[ast.AST], parents: dict[int, ast.AST], inside: set[int]
) -> bool:
    """True when a `yield` of `_invoke` outside the chain may run on a branch's way: after the
    chain outside an `except` handler, or before it outside a handler and a block that stops."""
    for node in nodes:
        if not isinstance(node, ast.Yield | ast.YieldFrom) or id(node) in inside:
            continue
        after = (node.lineno, node.col_offset) > (chain.lineno, chain.col_offset)
        if _in_handler(node, chain, parents):
            continue
        if after or not _in_stopping_block(node, chain, parents):
            return True
    return False


def _in_handler(node: ast.AST, chain: ast.If, parents: dict[int, ast.AST]) -> bool:
    """True when `node` lies in an `except` handler that does not hold the chain."""
    current = parents.get(id(node))
    while current is not None:
        if isinstance(current, ast.ExceptHandler):
            return not any(found is chain for found in ast.walk(current))
        current = parents.get(id(current))
    return False


def _in_stopping_block(node: ast.AST, chain: ast.If, parents: dict[int, ast.AST]) -> bool:
    """True when `node` lies in a branch of an `if` (one that does not hold the chain) whose block
    ends in `return` or `raise`: it answers and stops before the chain."""
    child: ast.AST = node
    current = parents.get(id(node))
    while current is not None:
        if isinstance(current, ast.If) and not any(found is chain for found in ast.walk(current)):
            block = (
                current.body if child in current.body else current.orelse if child in current.orelse else []
            )
            if block and isinstance(block[-1], ast.Return | ast.Raise):
                return True
        child, current = current, parents.get(id(current))
    return False


def _yields(body: list[ast.stmt]) -> bool:
    return any(isinstance(node, ast.Yield | ast.YieldFrom) for node in statement_nodes(body))


def _stops(body: list[ast.stmt]) -> bool:
    return any(isinstance(node, STOPS) for node in statement_nodes(body))
