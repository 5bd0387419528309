"""What a select parameter's value meets in the code it reaches (rules R084 and R085): each use of
it read as a test against string literals (`==`, `!=`, `in` a literal list, a `match` case, a key
of a literal dictionary), as harmless (a truth test, a call that hands it on, a log line, a message
that shows it), or as an escape (handed to an API, formatted into a URL, `.lower()`ed, compared
with a computed value), where the value goes where no rule follows it.

The value is followed as R076 follows it (`select_options.reaches`: from its read in `_invoke`
through the plugin's own functions it is handed to unchanged).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TypeGuard

from generator.check.common import every_node
from generator.check.passed_on import literal_strings, owner_class
from generator.check.select_options import (
    Reach,
    literal_dict,
    literal_keys,
    read_of,
    refused_by,
    unless_empty,
)
from generator.check.undeclared import READER_METHODS, Invoke, Parents, constant

LOGGERS = frozenset({"print"})
LOG_METHODS = READER_METHODS - {"dumps"}
# Expressions that only carry the value into the text or the literal around it.
SHOWING = (ast.FormattedValue, ast.JoinedStr, ast.Dict, ast.List, ast.Tuple)


@dataclass(frozen=True, slots=True)
class Test:
    """One test of the value against string literals: each literal's node and text, whether the
    branch runs for the literals (`equal`) or for every other value, whether its literals are a
    dictionary's keys, (for a `match`) whether a last case takes every other value, and whether
    each literal is alone in letting a value into its branch."""

    node: ast.AST
    literals: tuple[tuple[ast.AST, str], ...]
    equal: bool
    keys: bool = False
    default: bool = False
    alone: bool = True


@dataclass(frozen=True, slots=True)
class Reading:
    """What the walk learnt of one function the value reaches: its tests, and whether the value
    escapes there (a use that is not a test, a truth test, a log line or a call followed)."""

    reach: Reach
    tests: tuple[Test, ...]
    escapes: bool


def read_value(reach: Reach) -> Reading:
    tests: list[Test] = []
    escapes = False
    for use in value_uses(reach):
        found = _test(use, reach)
        if found is not None:
            tests.append(found)
        elif not _harmless(use, reach):
            escapes = True
    return Reading(reach, tuple(tests), escapes)


def value_uses(reach: Reach) -> Iterator[ast.expr]:
    """Every load of a name holding the value, and in `_invoke` every read of it from the
    dictionary."""
    for node in every_node(reach.function):
        if not isinstance(node, ast.expr):
            continue
        if reads_name(node, *reach.names) or (
            reach.direct and read_of(node, reach.direct[0]) == reach.direct[1]
        ):
            yield node


def _test(use: ast.expr, reach: Reach) -> Test | None:
    parent = reach.parents.get(use)
    if isinstance(parent, ast.Compare) and len(parent.ops) == 1:
        return _compared(parent, use, reach)
    if isinstance(parent, ast.Match) and parent.subject is use:
        return _matched(parent)
    if isinstance(parent, ast.Subscript) and parent.slice is use and isinstance(parent.ctx, ast.Load):
        return _looked_up(parent, parent.value, reach)
    if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Attribute) and parent.func.attr == "get":
        return _looked_up(parent, parent.func.value, reach) if parent.args and parent.args[0] is use else None
    return None


def _compared(compare: ast.Compare, use: ast.expr, reach: Reach) -> Test | None:
    operator = compare.ops[0]
    other = compare.comparators[0] if compare.left is use else compare.left
    literal = _named_literal(other, reach)
    if isinstance(operator, ast.In | ast.NotIn):
        if compare.left is not use or literal_strings(literal) is None:
            return None
        elements = literal.elts if isinstance(literal, ast.List | ast.Tuple | ast.Set) else []
        # a literal written here is shown where it is; one a name holds, where the name is used
        shown = [element if literal is other else other for element in elements]
        literals = tuple((at, constant(element) or "") for at, element in zip(shown, elements, strict=True))
        return Test(compare, literals, isinstance(operator, ast.In), alone=len(elements) == 1)
    text = constant(literal)
    if not isinstance(operator, ast.Eq | ast.NotEq) or text is None:
        return None
    return Test(compare, ((other, text),), isinstance(operator, ast.Eq))


def _named_literal(node: ast.expr, reach: Reach) -> ast.expr:
    """The literal a name stands for when the module's top level (`MODE = "csv"`) or the class of
    the function (`self.MODE`, `MODE = "csv"` in its body) binds it once and nothing else binds or
    changes it; else `node` itself."""
    tree = reach.scope.tree
    if isinstance(node, ast.Name):
        body: list[ast.stmt] = tree.body
        name = node.id
    elif (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id in ("self", "cls")
    ):
        owner = owner_class(tree, reach.function)
        body, name = (owner.body if owner is not None else []), node.attr
    else:
        return node
    bound = [
        statement.value
        for statement in body
        if isinstance(statement, ast.Assign)
        and [target.id for target in statement.targets if isinstance(target, ast.Name)] == [name]
    ]
    if len(bound) != 1 or _bound_elsewhere(tree, name):
        return node
    return bound[0]


def _bound_elsewhere(tree: ast.Module, name: str) -> bool:
    """True when the module binds `name` more than once (as a name or an attribute) or calls a
    method on it (`MODES.append(...)`)."""
    stores = 0
    for node in every_node(tree):
        if isinstance(node, ast.Name | ast.Attribute) and not isinstance(node.ctx, ast.Load):
            stores += (node.id if isinstance(node, ast.Name) else node.attr) == name
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name | ast.Attribute):
            held = node.value.id if isinstance(node.value, ast.Name) else node.value.attr
            stores += held == name and node.attr not in ("get", "keys", "values", "items", "format")
        elif isinstance(node, ast.Global | ast.Nonlocal):
            stores += name in node.names
    return stores != 1


def _matched(match: ast.Match) -> Test | None:
    """A `match` on the value whose cases are string literals, but for a last `case _` (or a
    capture) that takes every other value; None when a case is anything else."""
    literals: list[tuple[ast.AST, str]] = []
    cases = match.cases
    last = cases[-1].pattern if cases else None
    default = isinstance(last, ast.MatchAs) and last.pattern is None
    for case in cases[:-1] if default else cases:
        patterns = case.pattern.patterns if isinstance(case.pattern, ast.MatchOr) else [case.pattern]
        for pattern in patterns:
            text = constant(pattern.value) if isinstance(pattern, ast.MatchValue) else None
            if text is None:
                return None
            literals.append((pattern, text))
    alone = not any(isinstance(case.pattern, ast.MatchOr) for case in cases)
    return Test(match, tuple(literals), True, default=default, alone=alone)


def _looked_up(node: ast.AST, dictionary: ast.expr, reach: Reach) -> Test | None:
    found = literal_dict(dictionary, reach.scope.tree)
    if found is None or literal_keys(dictionary, reach.scope.tree) is None:
        return None
    keys = tuple((key, constant(key) or "") for key in found.keys if key is not None)
    return Test(node, keys, True, keys=True, alone=False)


def _harmless(use: ast.expr, reach: Reach) -> bool:
    """True for a use that neither tests the value against a string nor lets it go where we cannot
    follow it: bound to a holder, a truth test, a test against None, handed to a function followed,
    shown in a log line, an exception's message or a message yielded."""
    parent = reach.parents.get(use)
    if isinstance(parent, ast.BoolOp) and unless_empty(parent) is use:
        use, parent = parent, reach.parents.get(parent)  # `read or "constant"`, bound to a holder
    if isinstance(parent, ast.Assign | ast.AnnAssign) and parent.value is use:
        targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
        return all(isinstance(target, ast.Name) and target.id in reach.names for target in targets)
    if isinstance(parent, ast.If | ast.While | ast.IfExp | ast.Assert) and parent.test is use:
        return True
    if isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not):
        return True
    if isinstance(parent, ast.BoolOp) and isinstance(
        reach.parents.get(parent), ast.If | ast.While | ast.IfExp
    ):
        return True
    if isinstance(parent, ast.Compare) and len(parent.ops) == 1:
        other = parent.comparators[0] if parent.left is use else parent.left
        return isinstance(other, ast.Constant) and other.value is None
    call = reach.parents.get(parent) if isinstance(parent, ast.keyword) else parent
    if isinstance(call, ast.Call) and id(call) in reach.handing:
        return True
    return _logged(use, reach.parents)


def _logged(use: ast.expr, parents: Parents) -> bool:
    """True when the value is only shown: in a log line (`logger.info(f"mode {mode}")`, `print`),
    in the message of an exception raised, or in a message the tool yields (`create_*_message`,
    inside an f-string or a literal), where it tells the user what was picked but handles nothing."""
    node: ast.AST = use
    parent = parents.get(use)
    while isinstance(parent, SHOWING) and (not isinstance(parent, ast.Dict) or node in parent.values):
        node, parent = parent, parents.get(parent)
    if isinstance(parent, ast.keyword):
        node, parent = parent, parents.get(parent)
    if not isinstance(parent, ast.Call) or (node not in parent.args and node not in parent.keywords):
        return False
    func = parent.func
    if isinstance(func, ast.Attribute) and func.attr.startswith("create_") and func.attr.endswith("_message"):
        return True
    if node not in parent.args:
        return False
    if isinstance(parents.get(parent), ast.Raise):
        return True
    if isinstance(func, ast.Name):
        return func.id in LOGGERS
    return isinstance(func, ast.Attribute) and func.attr in LOG_METHODS


def is_refusal(test: Test, reach: Reach, invoke: Invoke) -> bool:
    """True for a test R076 reads as a refusal: a subscript of a dictionary (a KeyError for any
    other value), an `assert`, an `if` that raises."""
    if isinstance(test.node, ast.Subscript):
        return True
    statement = reach.parents.get(test.node)
    in_invoke = reach.function is invoke.function
    return statement is not None and refused_by(statement, reach, in_invoke) is not None


def reads_name(node: ast.AST, *names: str) -> TypeGuard[ast.Name]:
    return isinstance(node, ast.Name) and node.id in names and isinstance(node.ctx, ast.Load)


def is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None
