"""Parameters a tool looks up under a name its YAML does not declare (R070): `.get("x")`, `"x" in`,
or a read whose KeyError the code catches. None of them fails, and none ever finds a value.

The reading of `_invoke` is `undeclared`'s (R021): the same class, the same dictionary, the same
silence when the code may add keys we cannot name; a key the code stores itself is never reported.
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass

from generator.check import CheckContext
from generator.check.common import children, closest_name, every_node, tool_module_tree
from generator.check.passed_on import Followed, follow, once_per_place
from generator.check.undeclared import Function, Invoke, Parents, caught, constant, guarded_keys, invokes
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.plugin_model import Tool
from generator.rules import Phrase, rule

UNDECLARED_LOOKUP = rule(
    "R070",
    "undeclared-parameter-lookup",
    Severity.WARNING,
    "tool {tool} looks up {form}, a parameter its YAML does not declare (declared: {declared}): Dify"
    " passes only declared parameters, so {outcome!s}",
    "Declare `{key}` under `parameters:` in the tool YAML, or drop the lookup: no user can ever set it.",
    """
Dify hands `_invoke` the parameters the tool's YAML declares and no others (rule R021 quotes
`ToolNode._generate_parameters` and the agent runner). A parameter looked up under any other name
is never there: `tool_parameters.get("x")` is always None (`.get("x", "prod")` always "prod"),
`"x" in tool_parameters` always False, and a `tool_parameters["x"]` inside a `try` that catches
KeyError always takes the handler. Nothing fails, so no run shows it: the feature behind that
name never works, for any user. (An agent's model is told only the declared parameters; a value
it made up for another name is not a feature.)

The check reads `_invoke` as R021 does, and the plugin's own functions `_invoke` hands the
dictionary to (`self.settings_of(tool_parameters)`, `options_of(params=tool_parameters)`, a function
imported from another of the plugin's modules, `from .utils import options_of` or `utils.options_of(
tool_parameters)`, and theirs in turn, `check/passed_on.py`) when every reference to such a function
hands it that dictionary (a function that reads only the key its caller names, `required(
tool_parameters, "ticker")` doing `if name not in parameters: raise ...; return parameters[name]`,
reads "ticker", so the tool's other lookups are still read); it names each such key once per tool,
at its first lookup, in whichever of those functions it stands (R075 and R078 follow the same
functions). A function of another module may serve several tools: there a key that another tool of
the plugin declares is that tool's, and not reported;
it stays silent for a key `_invoke` stores itself (`tool_parameters["x"] = ...`,
`setdefault("x", ...)`) and whenever the dictionary is rebound, stored under a computed key, or
handed to code that could add keys.

Severity: an error when the YAML declares a parameter whose name differs only in case, underscores
or a letter or two (`userImageUrl` for `UserImageUrl`, `qaurter` for `quarter`) and `_invoke` never
looks that declared parameter up: the value every user gives it is dropped on every call, which is
what "breaks at run time for every user" means for a parameter. Otherwise a warning: the name may be
a fallback beside the declared one, or a leftover whose feature was meant to stay off; either way it
is always empty, and the hint says what to declare.
""",
)
MISSPELT_HINT = (
    "The YAML declares `{close}`: look that name up here (names are matched exactly, case included)"
    ", or declare `{key}` instead."
)
# How each form of lookup reads in the finding, and what it always gives.
OUTCOMES = {
    "get": "it is always None",
    "default": "it is always the default it names",
    "in": "the test is always False",
    "caught": "it always raises KeyError, which the code catches",
}


@dataclass(frozen=True, slots=True)
class Lookup:
    """One lookup in `_invoke` of a key the YAML does not declare."""

    node: ast.expr
    key: str
    form: str
    shown: str


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """Lookups of undeclared parameters in every tool's `_invoke`."""
    return once_per_place(undeclared_lookups(loaded, loaded.plugin.tools if loaded.plugin else ()))


def undeclared_lookups(loaded: LoadedPlugin, tools: Iterable[Tool]) -> Iterator[Finding]:
    """Lookups of undeclared parameters in the `_invoke` of each of `tools` and in the plugin's own
    functions it hands the dictionary to, one per key and tool."""
    for invoke in invokes(loaded, tools):
        module = tool_module_tree(loaded, invoke.tool)
        followed = follow(loaded, module, invoke.function, invoke.dictionary) if module is not None else None
        for lookup, close, severity, file in _judged(invoke, followed, _declared_anywhere(loaded)):
            where = Location(file, lookup.node.lineno, lookup.node.col_offset + 1)
            yield UNDECLARED_LOOKUP.at(
                where,
                severity,
                MISSPELT_HINT if close else None,
                tool=invoke.tool.name,
                form=Phrase(lookup.shown),
                declared=invoke.shown(),
                outcome=Phrase(_outcome(lookup, close)),
                key=lookup.key,
                close=close or "",
            )


Judged = tuple[Lookup, str | None, Severity, str]


def _declared_anywhere(loaded: LoadedPlugin) -> frozenset[str]:
    """The parameters any tool of the plugin declares."""
    tools = loaded.plugin.tools if loaded.plugin else ()
    return frozenset(parameter.name for tool in tools for parameter in tool.parameters)


def _judged(invoke: Invoke, followed: Followed | None, anywhere: frozenset[str]) -> Iterator[Judged]:
    """Each undeclared key's first lookup, the declared name it resembles, the severity, and the
    file it stands in. A function of another module may serve several tools, each with its own
    parameters: there a key another tool declares is that tool's, not a lookup that never finds."""
    name, declared = invoke.dictionary, invoke.declared
    helpers = followed.helpers if followed is not None else ()
    files = {id(helper.function): helper.display for helper in helpers}
    shared = {id(helper.function) for helper in helpers if helper.shared}
    scopes = [(invoke.function, name), *((helper.function, helper.name) for helper in helpers)]
    found = [
        (lookup, scope)
        for scope in scopes
        for node in every_node(scope[0])
        if (lookup := key_lookup(node, scope[1])) is not None
    ]
    if not any(lookup.key not in declared for lookup, _scope in found):
        return  # most tools look up only what they declare: nothing more to read
    parents: Parents = {
        child: node for function, _name in scopes for node in every_node(function) for child in children(node)
    }
    keys = guarded_keys(invoke.function, name, parents, followed.passed if followed is not None else None)
    if keys is None:
        return
    named = {lookup.key for lookup, _scope in found}
    # a key R021 reports (a read of `_invoke` nothing guards or catches) is that rule's: one cause,
    # one finding; a read nothing catches raises (R021's in `_invoke`), which is no lookup
    uncaught = {
        id(lookup)
        for lookup, (function, _name) in found
        if lookup.form == "caught" and not caught(lookup.node, function, parents)
    }
    seen = {
        lookup.key
        for lookup, (function, _name) in found
        if id(lookup) in uncaught and lookup.key not in keys.guarded and function is invoke.function
    }
    ordered = sorted(found, key=lambda item: (item[0].node.lineno, item[0].node.col_offset))
    for lookup, (function, scope_name) in ordered:
        if id(function) in shared and lookup.key in anywhere:
            continue
        if (
            lookup.key in declared
            or lookup.key in keys.stored
            or lookup.key in seen
            or id(lookup) in uncaught
        ):
            continue
        if _alias_of_declared(lookup.node, parents, scope_name, declared):
            continue  # `get("sql") or get("query")`: another name an agent's model may send
        seen.add(lookup.key)
        close = closest_name(lookup.key, declared)
        if close is not None and close in named:
            continue  # a fallback beside the declared name: dead code that harms nothing
        severity = Severity.ERROR if close is not None else Severity.WARNING
        yield lookup, close, severity, files.get(id(function), invoke.display)


def alternative_keys(scopes: Iterable[tuple[Function, str]], declared: Collection[str]) -> frozenset[str]:
    """The undeclared keys every lookup of which, in `scopes` (functions with the name their
    dictionary has there), is an alternative beside a declared one (`get("language_code") or
    get("hl")`): names an agent's model may send, which R070 leaves alone, and no read of another
    parameter under a wrong name."""
    beside: set[str] = set()
    alone: set[str] = set()
    for function, name in scopes:
        parents: Parents = {child: node for node in every_node(function) for child in children(node)}
        for node in every_node(function):
            lookup = key_lookup(node, name)
            if lookup is None or lookup.key in declared:
                continue
            aside = isinstance(lookup.node, ast.expr) and _alias_of_declared(
                lookup.node, parents, name, declared
            )
            (beside if aside else alone).add(lookup.key)
    return frozenset(beside - alone)


def _alias_of_declared(node: ast.expr, parents: Parents, name: str, declared: Collection[str]) -> bool:
    """True when the lookup is an alternative in an `or` beside a lookup of a declared name. An
    agent passes on whatever keys its model sends (Dify converts the declared ones and keeps the
    rest), so such aliases are a deliberate tolerance, not a feature that never works."""
    parent = parents.get(node)
    if not (isinstance(parent, ast.BoolOp) and isinstance(parent.op, ast.Or)):
        return False
    return any(
        (other := key_lookup(value, name)) is not None and other.key in declared for value in parent.values
    )


def _outcome(lookup: Lookup, close: str | None) -> str:
    said = OUTCOMES[lookup.form]
    if close is None:
        return said
    return (
        f"{said}, and the value users give `{close}`, the declared name it differs from, never "
        "reaches the code"
    )


def key_lookup(node: ast.AST, name: str) -> Lookup | None:
    """`name.get("k")`, `"k" in name` (or `in name.keys()`, `not in`), or a `name["k"]` read."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get":
        key = constant(node.args[0]) if node.args and _is(node.func.value, name) else None
        form = "default" if len(node.args) > 1 else "get"  # `.get("k", "prod")` is always "prod"
        return (
            Lookup(
                node, key, form, f'{name}.get("{key}", ...)' if len(node.args) > 1 else f'{name}.get("{key}")'
            )
            if key is not None
            else None
        )
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.In | ast.NotIn):
        held = node.comparators[0]
        if isinstance(held, ast.Call) and isinstance(held.func, ast.Attribute) and held.func.attr == "keys":
            held = held.func.value
        key = constant(node.left) if _is(held, name) else None
        return Lookup(node, key, "in", f'"{key}" in {name}') if key is not None else None
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and _is(node.value, name):
        key = constant(node.slice)
        return Lookup(node, key, "caught", f'{name}["{key}"]') if key is not None else None
    return None


def _named_key(node: ast.AST, name: str) -> str | None:
    lookup = key_lookup(node, name)
    return lookup.key if lookup is not None else None


def _is(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name
