"""A key tested and another read (R140): `if "image" in result: image = result["snippet"]`, found
without running.

The test says which key the block may rely on; a block that then reads, by subscript, one other key
the code never tests, and never the one it tested, has most likely read the wrong key: the value
the test found is dropped, and a dictionary holding the tested key without the other raises
KeyError there.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

from generator.check import CheckContext
from generator.check.common import called_name, children, statement_nodes
from generator.check.lookups import key_lookup
from generator.check.plugin_code import reachable_functions
from generator.check.undeclared import Function, Parents, constant, shadows
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.rules import rule

TESTED_OTHER_READ = rule(
    "R140",
    "key-tested-another-read",
    Severity.WARNING,
    'the block under `if "{tested}" in {name}:` reads {name}["{read}"], a key the code never tests,'
    ' and never reads the "{tested}" it tested: the value the test found is dropped, and when'
    ' {name} holds "{tested}" without "{read}" this raises KeyError',
    'Read {name}["{tested}"] here if that is the value the test is for; otherwise test "{read}"'
    ' (`if "{read}" in {name}:`) or read it with {name}.get("{read}").',
    """
`"image" in result` is True exactly when the dictionary holds that key, nothing more: it says
nothing of any other key. Python's `dict.__getitem__` raises KeyError for a key the dictionary does
not hold. A block that the test guards, that reads exactly one other key by subscript
(`result["snippet"]`) and never the key it tested, has two faults at once whichever was meant: the
value the test was written for is never used (`image = result["snippet"]` puts the snippet where
the image should go), and a dictionary that holds the tested key without the read one (an API
answer with an image and no snippet) stops the code with KeyError.

The check reads every function of the modules the SDK loads, and speaks only when the dictionary
is one plain name the block never rebinds, the test is the `if`'s whole test (`if "a" in d:`, not
`not in`, not part of `and`/`or`), the block (its nested statements too, not a nested function's)
reads `d` under one constant key other than the tested one and never the tested one (by subscript,
`.get`, or a test), at least one of those reads is a subscript nothing catches (no `try` around it
names KeyError or LookupError), and the function neither tests that key (`"b" in d`, `d.get("b")`)
nor reads it outside the block (`else: ... d["b"]` reads it whatever the test said) nor stores it
(`d["b"] = ...`, `d = {"b": ...}`: the code knows it is there).
Pairs an API always sends together pass the test and read the other key on purpose; the usual one
is an error and its text: a test of `error`, `errors`, `err`, `code`, `status` or `errcode` is left
alone. A warning: it is the usual slip, not a certainty.
""",
)
# Tested keys whose presence announces others that come with them: an error and its message,
# a status code and its text.
COMPANION_TESTS = frozenset(
    {"error", "errors", "err", "code", "status", "errcode", "error_code", "status_code"}
)
# Exceptions a handler names to catch the KeyError of a missing key on purpose.
KEY_ERRORS = frozenset({"KeyError", "LookupError"})


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """R140 at each subscript read of another key under a test of one key."""
    if loaded.plugin is None:
        return
    for display, _tree, function in reachable_functions(loaded):
        yield from _tested_other(display, function)


def _tested_other(display: str, function: Function) -> Iterator[Finding]:
    own = list(statement_nodes(function.body))
    parents: Parents = {child: node for node in own for child in children(node)}
    for statement in own:
        tested = _tested(statement)
        if tested is None:
            continue
        key, name = tested
        assert isinstance(statement, ast.If)  # what `_tested` accepts
        block = list(statement_nodes(statement.body))
        if any(shadows(node, name) for node in block):
            continue  # rebound in the block: its reads may be of another dictionary
        lookups = [lookup for node in block if (lookup := key_lookup(node, name)) is not None]
        others = {lookup.key for lookup in lookups}
        if key in others or len(others) != 1:
            continue  # reads the tested key (or nothing, or several others): no sign of a slip
        other = others.pop()
        inside = {id(node) for node in block}
        if any(
            lookup.key == other and (lookup.form != "caught" or id(node) not in inside)
            for node in own
            if (lookup := key_lookup(node, name)) is not None
        ):
            continue  # tested, read with a default, or read outside the block: not the test's key
        if other in _stored_keys(own, name):
            continue  # the code puts that key there itself
        first = next(
            (lookup for lookup in lookups if lookup.form == "caught" and not _caught(lookup.node, parents)),
            None,
        )
        if first is not None:
            yield TESTED_OTHER_READ.at(
                Location(display, first.node.lineno, first.node.col_offset + 1),
                tested=key,
                read=other,
                name=name,
            )


def _stored_keys(nodes: list[ast.AST], name: str) -> set[str]:
    """The constant keys the function stores in `name` (`d["k"] = ...`) or writes in a dictionary
    display it binds to `name` (`d = {"k": ...}`)."""
    stored: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Subscript) and not isinstance(node.ctx, ast.Load) and _is(node.value, name):
            stored |= {key} if (key := constant(node.slice)) is not None else set()
        elif (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Dict)
            and any(_is(target, name) for target in node.targets)
        ):
            stored |= {key for item in node.value.keys if item is not None and (key := constant(item))}
    return stored


def _is(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _tested(node: ast.AST) -> tuple[str, str] | None:
    """(key, dictionary) for `if "key" in d:`, the whole test; None for anything else."""
    test = node.test if isinstance(node, ast.If) else None
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.In)):
        return None
    key, held = constant(test.left), test.comparators[0]
    if key is None or key in COMPANION_TESTS or not isinstance(held, ast.Name):
        return None
    return key, held.id


def _caught(node: ast.AST, parents: Parents) -> bool:
    """True when a `try` around `node` names KeyError or LookupError in a handler: the missing key
    is expected there."""
    child, parent = node, parents.get(node)
    while parent is not None:
        if isinstance(parent, ast.Try | ast.TryStar) and child in parent.body:
            named = [
                kind
                for handler in parent.handlers
                for kind in (handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type])
            ]
            if any(called_name(kind) in KEY_ERRORS for kind in named if kind is not None):
                return True
        child, parent = parent, parents.get(parent)
    return False
