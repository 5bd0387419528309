"""Options of a select parameter that the tool's own code refuses (R076): `assert mode in ["a", "b"]`
where the YAML also offers `c`, found without running it.

The value is followed from its read in `_invoke` (`tool_parameters.get("mode")`, `["mode"]`) through
the plugin's own functions it is handed to unchanged (`passed_on.resolve`), and a test is read only
where it runs on every call that gets there: an `assert`, an `if` that raises (or, in `_invoke`,
returns) when the value is not in a literal list, or a lookup in a literal dictionary that nothing
catches.

The walk (`reaches`), the select parameters it starts from (`select_parameters`) and the reading of
a refusal (`refused_by`) serve R084 and R085 too (`select_unhandled.py`, `select_never.py`), which
read every other test of the value on the same way.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from generator.check import CheckContext
from generator.check.common import children, every_node, tool_module_tree
from generator.check.passed_on import (
    Scope,
    every_reference,
    literal_strings,
    receiving_parameter,
    resolve,
    scope_of,
)
from generator.check.undeclared import Function, Invoke, Parents, always_runs, caught, constant, invokes
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.plugin_model import Parameter
from generator.rules import Listing, Phrase, rule

REFUSED_OPTION = rule(
    "R076",
    "select-option-refused",
    Severity.WARNING,
    "tool {tool} refuses {refused} of select parameter `{parameter}` ({test!s}), although its YAML offers"
    " {them}: {outcome!s}",
    "Accept {refused} where the code tests the value (add {them} to the list, or handle {them}), or drop"
    " {them} from the options of `{parameter}`.",
    """
A select parameter offers its `options` to the user: the workflow editor lists them, and an agent's
model is told them as the parameter's `enum` (Dify's agent runner: `if parameter.type ==
ToolParameter.ToolParameterType.SELECT: enum = [option.value for option in parameter.options]`).
Whichever one is picked reaches `_invoke` as that option's `value`, a string (`cast_parameter_value`:
`return "" if value is None else value if isinstance(value, str) else str(value)` for a select).
When the tool's own code then tests the value against a literal list that leaves an offered option
out (`assert query_type in ["TS", "TI", "AU"]` while the YAML also offers `ISSN`), that option fails
on every call that picks it, whatever the other inputs: an AssertionError, the tool's own error, or
a KeyError of a lookup in a literal dictionary (`MODES[mode]`).

Found without running: the value is followed from its read in `_invoke` (a name bound only to that
read or to string constants) into the plugin's own functions it is handed to unchanged
(`check/passed_on.py`), up to three calls deep, each call and the test itself running on every call
that reaches its function (no branch or earlier `return` in between). Read as a refusal: `assert x
in [...]`, `if x not in [...]:` whose body raises (or returns, in `_invoke`), `if x in [...]: ...
else: raise`, and `MAP[x]` on a dictionary literal bound once and never changed, with no handler of
its KeyError around it. The list must hold at least two of the offered values (it is then the list
of the options, not a test of something else), and an option named anywhere else in those modules
(handled by another branch) is never reported.

Severity: a warning (the tool works for the other options); an error when the refused option is the
default of a `form: form` parameter, which every call that leaves the field as it is sends.
""",
)
SELECT = "select"
FORM = "form"
# How deep calls are followed from `_invoke`.
MAX_DEPTH = 3


@dataclass(frozen=True, slots=True)
class Reach:
    """A function the value of a select parameter reaches unchanged from `_invoke`: the names that
    hold it there, its module, its nodes' parents, in `_invoke` the dictionary read that gives the
    value directly (`(dictionary, key)`), the `id`s of the calls that hand it on to the functions
    followed next, and whether every reference to the function hands it the value (`sole`: then
    it never holds another)."""

    function: Function
    names: frozenset[str]
    scope: Scope
    parents: Parents
    direct: tuple[str, str] | None
    handing: frozenset[int]
    sole: bool


@dataclass(frozen=True, slots=True)
class Refusal:
    """A test in `function` (of the module `scope`) that accepts only `allowed`."""

    node: ast.AST
    scope: Scope
    allowed: frozenset[str]


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """Offered select options the tools' code refuses."""
    for select in select_parameters(loaded):
        yield from _refused(select.invoke, select.scope, select.parameter)


@dataclass(frozen=True, slots=True)
class Select:
    """A select parameter with literal options (one value, not `multiple`), with the `_invoke` of
    its tool and the module that holds it (its file and syntax tree, and as calls are resolved)."""

    invoke: Invoke
    module: tuple[str, ast.Module]
    scope: Scope
    parameter: Parameter


def select_parameters(loaded: LoadedPlugin) -> Iterator[Select]:
    """Every select parameter with literal options of every tool whose `_invoke` is plain."""
    tools = loaded.plugin.tools if loaded.plugin else ()
    for invoke in invokes(loaded, tools):
        selects = [p for p in invoke.tool.parameters if p.type == SELECT and not p.multiple and p.options]
        module = tool_module_tree(loaded, invoke.tool) if selects else None
        if module is None:
            continue
        scope = scope_of(loaded, *module)
        for parameter in selects:
            yield Select(invoke, module, scope, parameter)


def _refused(invoke: Invoke, scope: Scope, parameter: Parameter) -> Iterator[Finding]:
    offered = [option.value for option in parameter.options if option.value]
    told: set[str] = set()
    for refusal in _refusals(invoke, scope, parameter.name):
        refused = [value for value in offered if value not in refusal.allowed and value not in told]
        if len(set(offered) & refusal.allowed) < 2 or not refused:
            continue
        named = _named_elsewhere(refusal.scope.tree, scope)
        refused = [value for value in refused if value not in named]
        if not refused:
            continue
        told.update(refused)
        default = parameter.form == FORM and str(parameter.default) in refused
        node = refusal.node
        yield REFUSED_OPTION.at(
            Location(refusal.scope.display, getattr(node, "lineno", 1), getattr(node, "col_offset", 0) + 1),
            Severity.ERROR if default else Severity.WARNING,
            tool=invoke.tool.name,
            refused=Listing(refused),
            parameter=parameter.name,
            test=Phrase(_shown(node)),
            them="it" if len(refused) == 1 else "them",
            outcome=Phrase(_outcome(refused, str(parameter.default) if default else None)),
        )


def _outcome(refused: list[str], default: str | None) -> str:
    them = "it" if len(refused) == 1 else "them"
    if default is None:
        return f"every call that picks {them} fails"
    return (
        f"`{default}` is the field's default, so every call that leaves the field as it is fails, as does"
        f" every call that picks {them}"
    )


def _refusals(invoke: Invoke, scope: Scope, key: str) -> Iterator[Refusal]:
    """The refusing tests the value of `key` meets on its way from `_invoke`."""
    for reach in reaches(invoke, scope, key, every_call=True):
        in_invoke = reach.function is invoke.function
        for node in every_node(reach.function):
            allowed = refused_by(node, reach, in_invoke)
            if allowed is None or _swallowed(node, reach.function, reach.parents):
                continue
            if always_runs(node, reach.function, reach.parents):
                yield Refusal(node, reach.scope, allowed)


def reaches(invoke: Invoke, scope: Scope, key: str, every_call: bool) -> Iterator[Reach]:
    """`_invoke` and each of the plugin's own functions the value of `key` is handed to unchanged
    from there, up to `MAX_DEPTH` calls deep; with `every_call`, only through calls that run on
    every call of their function."""
    holders = _holders(invoke.function, invoke.dictionary, key)
    pending = [(invoke.function, holders, scope, 0, True)]
    seen: set[int] = set()
    while pending:
        function, names, where, depth, sole = pending.pop()
        if id(function) in seen:
            continue
        seen.add(id(function))
        parents: Parents = {child: node for node in every_node(function) for child in children(node)}
        direct = (invoke.dictionary, key) if function is invoke.function else None
        handed = (
            list(_handed_on(function, names, where, parents, every_call)) if depth + 1 < MAX_DEPTH else []
        )
        calls = frozenset(id(call) for found in handed for call in found.calls)
        yield Reach(function, names, where, parents, direct, calls, sole)
        pending.extend(
            (found.function, found.received, found.scope, depth + 1, found.sole) for found in handed
        )


def _holders(function: Function, dictionary: str, key: str) -> frozenset[str]:
    """Names `function` binds only to the read of `key` (or `read or "constant"`) or to string
    constants (a fallback such as `if not mode: mode = "TS"`), at least once to the read."""
    values: dict[str, list[ast.expr | None]] = {}
    for node in every_node(function):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            values.setdefault(node.targets[0].id, []).append(node.value)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            values.setdefault(node.target.id, []).append(node.value)
        elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            values.setdefault(node.id, []).append(None)  # every binding: an assignment's own target too
        elif isinstance(node, ast.arg):
            values.setdefault(node.arg, []).extend([None, None])
    held = set()
    for name, bound in values.items():
        assigned = [value for value in bound if value is not None]
        reads = [value for value in assigned if read_of(unless_empty(value), dictionary) == key]
        constants = [value for value in assigned if constant(value) is not None]
        if reads and len(bound) == 2 * len(assigned) and len(reads) + len(constants) == len(assigned):
            held.add(name)
    return frozenset(held)


def unless_empty(node: ast.expr) -> ast.expr:
    """`x` of `x or "constant"` (the constant stands for an empty value); else `node` itself."""
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or) and len(node.values) == 2:
        return node.values[0] if constant(node.values[1]) is not None else node
    return node


def read_of(node: ast.expr | None, dictionary: str) -> str | None:
    """The key of `D["k"]` or `D.get("k", ...)`."""
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == dictionary:
        return constant(node.slice)
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get"
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == dictionary
        and node.args
    ):
        return constant(node.args[0])
    return None


@dataclass(frozen=True, slots=True)
class _Handed:
    """A function the value is handed to by `calls`, as its parameters `received`."""

    function: Function
    received: frozenset[str]
    scope: Scope
    calls: tuple[ast.Call, ...]
    sole: bool


def _handed_on(
    function: Function, names: frozenset[str], scope: Scope, parents: Parents, every_call: bool
) -> Iterator[_Handed]:
    """The plugin's own functions that `function` hands a name of `names` to (with `every_call`,
    on every call), and the parameters that receive it there, never rebound."""
    found: dict[int, tuple[Function, Scope, set[str], list[ast.Call]]] = {}
    for node in every_node(function):
        if not isinstance(node, ast.Call) or (every_call and not always_runs(node, function, parents)):
            continue
        target = resolve(node, function, scope)
        if target is None:
            continue
        handed = [i for i, value in enumerate(node.args) if isinstance(value, ast.Name) and value.id in names]
        handed_named = [k.arg for k in node.keywords if isinstance(k.value, ast.Name) and k.value.id in names]
        received = {
            parameter
            for argument in [*handed, *handed_named]
            if (parameter := receiving_parameter(node, target[0], argument)) is not None
            and not _rebound(target[0], parameter)
        }
        if received:
            entry = found.setdefault(id(target[0]), (target[0], target[1], set(), []))
            entry[2].update(received)
            entry[3].append(node)
    for helper, home, received, calls in found.values():
        every = [
            node
            for node in every_node(function)
            if isinstance(node, ast.Call) and _runs(node, function, scope, helper)
        ]
        sole = len(every) == len(calls) and every_reference(calls, (helper, home), scope)
        yield _Handed(helper, frozenset(received), home, tuple(calls), sole)


def _runs(call: ast.Call, caller: Function, scope: Scope, helper: Function) -> bool:
    target = resolve(call, caller, scope)
    return target is not None and target[0] is helper


def _rebound(function: Function, name: str) -> bool:
    return any(
        isinstance(node, ast.Name) and node.id == name and not isinstance(node.ctx, ast.Load)
        for node in every_node(function)
    )


def refused_by(node: ast.AST, reach: Reach, in_invoke: bool) -> frozenset[str] | None:
    """The values a refusing test at `node` lets through; None when `node` is no such test."""
    names, direct, tree = reach.names, reach.direct, reach.scope.tree
    if isinstance(node, ast.Assert):
        return _membership(node.test, names, direct, ast.In)
    if isinstance(node, ast.If):
        ends = (ast.Raise, ast.Return) if in_invoke else (ast.Raise,)
        if isinstance(node.body[-1], ends):
            return _membership(node.test, names, direct, ast.NotIn)
        if node.orelse and isinstance(node.orelse[-1], ast.Raise):
            return _membership(node.test, names, direct, ast.In)
        return None
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
        return literal_keys(node.value, tree) if is_value(node.slice, names, direct) else None
    return None


def _membership(
    test: ast.expr, names: frozenset[str], direct: tuple[str, str] | None, operator: type[ast.cmpop]
) -> frozenset[str] | None:
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], operator)):
        return None
    return literal_strings(test.comparators[0]) if is_value(test.left, names, direct) else None


def is_value(node: ast.expr, names: frozenset[str], direct: tuple[str, str] | None) -> bool:
    if isinstance(node, ast.Name):
        return node.id in names
    return direct is not None and read_of(node, direct[0]) == direct[1]


def literal_keys(node: ast.expr, tree: ast.Module) -> frozenset[str] | None:
    """The keys of a dictionary literal, written in place or bound once at the module's top level
    to a name nothing changes; None for anything else."""
    found = literal_dict(node, tree)
    if found is None or None in found.keys:
        return None
    keys = [constant(key) for key in found.keys if key is not None]
    return frozenset(key for key in keys if key is not None) if None not in keys else None


def literal_dict(node: ast.expr, tree: ast.Module) -> ast.Dict | None:
    """The dictionary literal `node` is, or the one it names when the module's top level binds
    that name once and nothing changes it."""
    if isinstance(node, ast.Name):
        bound = [
            statement.value
            for statement in tree.body
            if isinstance(statement, ast.Assign)
            and any(isinstance(target, ast.Name) and target.id == node.id for target in statement.targets)
        ]
        if len(bound) != 1 or _changed(tree, node.id):
            return None
        node = bound[0]
    return node if isinstance(node, ast.Dict) else None


def _changed(tree: ast.Module, name: str) -> bool:
    """True when the module may change the dictionary `name` (a store into it, a method call, a
    `global` rebinding it)."""
    for node in every_node(tree):
        held = node.value if isinstance(node, ast.Subscript | ast.Attribute) else None
        if isinstance(held, ast.Name) and held.id == name:
            if isinstance(node, ast.Subscript) and not isinstance(node.ctx, ast.Load):
                return True
            if isinstance(node, ast.Attribute) and node.attr not in ("get", "keys", "values", "items"):
                return True
        if isinstance(node, ast.Global) and name in node.names:
            return True
    return False


def _swallowed(node: ast.AST, function: Function, parents: Parents) -> bool:
    """A dictionary lookup whose KeyError a handler may turn into a default is no refusal."""
    return isinstance(node, ast.Subscript) and caught(node, function, parents)


def _named_elsewhere(tree: ast.Module, scope: Scope) -> set[str]:
    """Every string constant of the test's module and of the tool's: an option named there may be
    handled before the test (`if mode == "c": return ...`)."""
    return {
        node.value
        for module in (tree, scope.tree)
        for node in every_node(module)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }


def _shown(node: ast.AST) -> str:
    shown = ast.unparse(node.test if isinstance(node, ast.Assert | ast.If) else node)
    return shown if len(shown) <= 80 else f"{shown[:77]}..."
