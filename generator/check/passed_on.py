"""The plugin's own functions a tool hands its parameters' dictionary to: `self.helper(params)`
(a method of the tool class) or `helper(params)` (a function of the tool's module), followed to
any depth, so that the parameters they look up are read as `_invoke`'s own.

A function is followed only when every reference to it in the module is a call that hands it the
dictionary (or, inside a followed function, the parameter that received it), at a place that
binds one plain parameter: then its parameter is always the tool's dictionary, and what it looks up
there is what the tool looks up. Anything else (a function also called with other dictionaries,
`*args`, a decorator, a name bound twice) leaves it unfollowed, and the readers stay silent as they
do for any other code the dictionary is handed to.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from generator.check.common import every_node
from generator.check.undeclared import Function, Keys, Parents, class_members, guarded_keys

# How deep calls are followed: helpers of helpers, and no further.
MAX_DEPTH = 3


@dataclass(frozen=True, slots=True)
class Helper:
    """A function that receives the tool's dictionary as its parameter `name`."""

    function: Function
    name: str


@dataclass(frozen=True, slots=True)
class Followed:
    """The keys each followed call's function names (by the call's `id`), and the functions."""

    passed: dict[int, Keys]
    helpers: tuple[Helper, ...]


def follow(tree: ast.Module, invoke: Function, name: str) -> Followed:
    """The helpers `invoke` hands its dictionary `name` to, and what they name of it."""
    owner = next(
        (node for node in tree.body if isinstance(node, ast.ClassDef) and invoke in node.body),
        None,
    )
    methods = class_members(owner) if owner is not None else {}
    functions = _module_functions(tree)
    references = _references(tree)
    passed: dict[int, Keys] = {}
    helpers: list[Helper] = []
    _follow(invoke, name, _Scope(methods, functions, references), passed, helpers, 0)
    return Followed(passed, tuple(helpers))


@dataclass(frozen=True, slots=True)
class _Scope:
    methods: dict[str, list[ast.stmt]]
    functions: dict[str, list[ast.stmt]]
    references: dict[str, list[ast.AST]]


def _follow(
    function: Function, name: str, scope: _Scope, passed: dict[int, Keys], helpers: list[Helper], depth: int
) -> None:
    if depth >= MAX_DEPTH:
        return
    for _call, helper, parameter in _calls_with(function, name, scope):
        if any(found.function is helper for found in helpers):
            continue  # called twice (or recursively): its keys are known once
        before = len(helpers)
        helpers.append(Helper(helper, parameter))
        _follow(helper, parameter, scope, passed, helpers, depth + 1)
        parents: Parents = {
            child: node for node in every_node(helper) for child in ast.iter_child_nodes(node)
        }
        keys = guarded_keys(helper, parameter, parents, passed)
        if keys is None:
            del helpers[before:]  # it may add keys: neither it nor what it calls is read as the tool's
            continue
        for same in _calls_of(function, name, helper, scope):
            passed[id(same)] = keys


def _calls_with(function: Function, name: str, scope: _Scope) -> list[tuple[ast.Call, Function, str]]:
    """Each call in `function` handing `name` to a helper that only ever receives the dictionary."""
    found = []
    for node in every_node(function):
        if not isinstance(node, ast.Call):
            continue
        target = _target(node, scope)
        parameter = _receiving(node, target, name) if target is not None else None
        if target is None or parameter is None:
            continue
        calls = _calls_of(function, name, target, scope)
        if len(scope.references.get(target.name, [])) == len(calls):
            found.append((node, target, parameter))
    return found


def _calls_of(function: Function, name: str, helper: Function, scope: _Scope) -> list[ast.Call]:
    return [
        node
        for node in every_node(function)
        if isinstance(node, ast.Call)
        and _target(node, scope) is helper
        and _receiving(node, helper, name) is not None
    ]


def _target(call: ast.Call, scope: _Scope) -> Function | None:
    """The function a call runs: `self.m(...)` a method of the tool class, `f(...)` a function of the
    module, each bound once and undecorated."""
    func = call.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self":
        bound = scope.methods.get(func.attr, [])
    elif isinstance(func, ast.Name):
        bound = scope.functions.get(func.id, [])
    else:
        return None
    if len(bound) != 1 or not isinstance(bound[0], ast.FunctionDef | ast.AsyncFunctionDef):
        return None
    return bound[0] if not bound[0].decorator_list else None


def _receiving(call: ast.Call, helper: Function, name: str) -> str | None:
    """The parameter of `helper` that receives `name` in `call`; None when it is not handed over
    exactly once as a plain parameter."""
    arguments = helper.args
    if arguments.vararg or arguments.kwarg:
        return None
    positional = [*arguments.posonlyargs, *arguments.args]
    if isinstance(call.func, ast.Attribute):
        positional = positional[1:]  # `self`
    given = [index for index, value in enumerate(call.args) if _is(value, name)]
    named = [keyword.arg for keyword in call.keywords if _is(keyword.value, name)]
    if any(isinstance(value, ast.Starred) for value in call.args) or len(given) + len(named) != 1:
        return None
    if given:
        return positional[given[0]].arg if given[0] < len(positional) else None
    every = {argument.arg for argument in [*positional, *arguments.kwonlyargs]}
    return named[0] if named[0] in every else None


def _module_functions(tree: ast.Module) -> dict[str, list[ast.stmt]]:
    found: dict[str, list[ast.stmt]] = {}
    for node in every_node(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found.setdefault(node.name, []).append(node)  # nested or not: a name bound twice is unclear
    return {name: bound for name, bound in found.items() if bound[0] in tree.body}


def _references(tree: ast.Module) -> dict[str, list[ast.AST]]:
    """Every use of a name in the module, as a bare name or an attribute (`self.m`, `obj.m`)."""
    found: dict[str, list[ast.AST]] = {}
    for node in every_node(tree):
        if isinstance(node, ast.Name):
            found.setdefault(node.id, []).append(node)
        elif isinstance(node, ast.Attribute):
            found.setdefault(node.attr, []).append(node)
    return found


def _is(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name
