"""Optional parameters a tool reads as if they were always set (R075): `tool_parameters["x"]` for an
`x` its YAML declares optional and a workflow or an agent fills (`form: llm` or `schema`), found in
its code without running it.

The reading of `_invoke` (and of the plugin's own functions it hands the dictionary to) is
`undeclared`'s and `passed_on`'s: the same silence when the code may add keys we cannot name, and
no finding for a key the code tests, reads with `.get` or stores.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

from generator.check import CheckContext
from generator.check.common import every_node, tool_module_tree
from generator.check.passed_on import follow
from generator.check.undeclared import Function, Parents, always_runs, caught, constant, guarded_keys, invokes
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.plugin_model import Tool
from generator.rules import Phrase, rule

# The forms whose parameter Dify leaves out of the dictionary when no one set it (`form: form`
# parameters are always there, "" or False when empty).
LEFT_OUT_FORMS = frozenset({"llm", "schema"})

OPTIONAL_SUBSCRIPT = rule(
    "R075",
    "optional-parameter-subscript",
    Severity.ERROR,
    'tool {tool} reads {dict}["{key}"], an optional parameter (form: {form}): Dify passes no such key when '
    "it is left unset, so {outcome!s}",
    'Read it with {dict}.get("{key}") and handle None, or declare it `required: true`.',
    """
Dify passes a tool only the parameters it was given. A workflow's tool node builds the dictionary
in `ToolNode._generate_parameters` (api/core/workflow/nodes/tool/tool_node.py): `for parameter_name
in node_data.tool_parameters:`, the inputs the node configures, and for a variable that does not
exist `if parameter.required: raise ...` else `continue`, leaving the key out; an agent passes what
its model chose to fill. A parameter with `form: form` is always there (the node's configuration
or its default, cast to "" or False, `cast_parameter_value`); one with `form: llm` or `form: schema`
that nobody set is not. So `tool_parameters["x"]` for such an optional `x` raises KeyError for
every user who leaves it empty, which the YAML allows and the workflow editor does not prevent.

Found without running: the check reads `_invoke` as R021 does (and the plugin's own functions it
hands the dictionary to, as R070 does) and stays silent for a key the code tests with `in`, reads
with `.get`, or stores. An error when the read runs on every call (a statement directly in
`_invoke`, after no `return` or `raise`); a warning when it sits in a branch, a loop or a helper,
or inside a `try` that catches KeyError (then the handler runs instead, for every such user: the
finding names its line). The run with only the required parameters finds the same crash (R036);
it is then said once, here.
""",
)


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """Subscript reads of optional, possibly unset parameters in every tool."""
    return optional_subscripts(loaded, loaded.plugin.tools if loaded.plugin else ())


def optional_subscripts(loaded: LoadedPlugin, tools: Iterable[Tool]) -> Iterator[Finding]:
    """Reads of optional `llm`/`schema` parameters by subscript, one per key and tool."""
    for invoke in invokes(loaded, tools):
        optional = {
            parameter.name: parameter.form
            for parameter in invoke.tool.parameters
            if not parameter.required and parameter.form in LEFT_OUT_FORMS
        }
        module = tool_module_tree(loaded, invoke.tool) if optional else None
        if module is None:
            continue
        followed = follow(module[1], invoke.function, invoke.dictionary)
        scopes = [(invoke.function, invoke.dictionary), *((h.function, h.name) for h in followed.helpers)]
        parents: Parents = {
            child: node
            for function, _name in scopes
            for node in every_node(function)
            for child in ast.iter_child_nodes(node)
        }
        keys = guarded_keys(invoke.function, invoke.dictionary, parents, followed.passed)
        if keys is None:
            continue
        reads = [
            (node, key, function, name)
            for function, name in scopes
            for node in every_node(function)
            if isinstance(node, ast.Subscript)
            and (key := _read_key(node, name)) in optional
            and key not in keys.guarded
        ]
        told: set[str] = set()
        for node, key, function, name in sorted(reads, key=lambda read: (read[0].lineno, read[0].col_offset)):
            if key in told:
                continue
            told.add(key)
            handler = _handler(node, function, parents)
            if handler < 0:
                continue  # the handler gives it a default
            certain = function is invoke.function and not handler and always_runs(node, function, parents)
            yield OPTIONAL_SUBSCRIPT.at(
                Location(invoke.display, node.lineno, node.col_offset + 1),
                Severity.ERROR if certain else Severity.WARNING,
                tool=invoke.tool.name,
                dict=name,
                key=key,
                form=optional[key],
                outcome=Phrase(_outcome(handler, certain)),
            )


def _defaulted(statement: ast.AST, handlers: list[ast.ExceptHandler]) -> bool:
    """True when `statement` binds names that a handler binds too: `x = params["x"]` with
    `except KeyError: x = ""` is a default, the parameter handled as optional."""
    if not isinstance(statement, ast.Assign | ast.AnnAssign):
        return False
    targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
    bound = {node.id for target in targets for node in ast.walk(target) if isinstance(node, ast.Name)}
    return any(
        isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and node.id in bound
        for handler in handlers
        for node in ast.walk(handler)
    )


def _outcome(handler: int, certain: bool) -> str:
    if handler:
        return f"the `except` that catches the KeyError (line {handler}) runs instead"
    if certain:
        return "every such call fails with KeyError"
    return "every such call that reaches this line fails with KeyError"


def _read_key(node: ast.Subscript, name: str) -> str | None:
    if not isinstance(node.ctx, ast.Load):
        return None
    return constant(node.slice) if isinstance(node.value, ast.Name) and node.value.id == name else None


def _handler(node: ast.AST, function: Function, parents: Parents) -> int:
    """The line of the handler that catches the read's KeyError, 0 when none does (a `suppress`
    counts as one at its own line), -1 when that handler gives the name a default."""
    if not caught(node, function, parents):
        return 0
    child, parent = node, parents.get(node)
    while parent is not None and child is not function:
        if isinstance(parent, ast.Try | ast.TryStar) and child in parent.body and parent.handlers:
            if _defaulted(child, parent.handlers):
                return -1
            return parent.handlers[0].lineno
        if isinstance(parent, ast.With | ast.AsyncWith):
            return parent.lineno
        child, parent = parent, parents.get(parent)
    return 0
