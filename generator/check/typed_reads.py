"""A boolean or number parameter's value used as text (R096): compared with `"true"` or `"10"`, or
given a string method, found without running the tool.

Dify casts a boolean or number parameter before the tool sees it: the plugin receives `True` or
`False`, an int or a float, never the words. `flag == "true"` is then always false, and
`flag.lower()` raises AttributeError.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

from generator.check import CheckContext
from generator.check.common import children
from generator.check.sdk_file import own_nodes, type_tested
from generator.check.undeclared import Invoke, constant, invokes
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.rules import Phrase, rule

READ_AS_TEXT = rule(
    "R096",
    "parameter-read-as-text",
    Severity.WARNING,
    "tool {tool} reads {kind} parameter `{parameter}` as text ({does!s}), but Dify passes it as {passed!s}:"
    " {outcome!s}",
    "{fix!s}",
    """
Dify casts each parameter to its declared type before it invokes a plugin's tool
(`api/core/plugin/entities/parameters.py`, `cast_parameter_value`: for
`PluginParameterType.BOOLEAN`, `None` becomes `False` and a string `"true"`, `"yes"`, `"y"` or `"1"`
becomes `True`, `"false"`, `"no"`, `"n"` or `"0"` `False`; for `NUMBER` an int or a float stays one
and text becomes `int(value)` or `float(value)`); the JSON the daemon forwards holds `true`, `false`
or a number, which the SDK reads as Python's `True`, `False`, int or float. A tool that treats the
value as text misreads it for every user who sets the parameter: `value == "true"` is never true
(`!=`: always true), `value in ("true", "1")` never holds, and a string method (`value.lower()`,
`.strip()`, `.split()`) raises AttributeError ("'bool' object has no attribute 'lower'", "'int'
object has no attribute 'isdigit'"); methods the value's own type has (`bit_length`, `is_integer`)
are not misreadings. The check reads `_invoke`: the parameter's read from the parameters' dictionary
(`params["flag"]`, `params.get("flag", ...)`) or a name every binding of which is that read,
compared with string constants or given a method of `str`. A warning: the tool runs, and a `.get`
default that is text is still text when the parameter is left out of a call.
""",
)
STRING_METHODS = frozenset(name for name in dir(str) if not name.startswith("_"))
# Methods the cast value has itself (bool's come from int): calling them is no misreading.
NUMBER_METHODS = frozenset(
    name for kind in (bool, int, float) for name in dir(kind) if not name.startswith("_")
)
# parameter type -> (the word for it, what Dify passes, the fix)
TYPED = {
    "boolean": (
        "boolean",
        "True or False",
        "Test the value itself (`if {parameter}:`), or declare `{parameter}` as a `select` of the words"
        " the code expects.",
    ),
    "number": (
        "number",
        "an int or a float",
        "Use the number itself (compare with numbers, format it with `str(...)`), or declare"
        " `{parameter}` as a `string`.",
    ),
}


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """R096 at each misreading of a boolean or number parameter in each tool's `_invoke`."""
    for invoke in invokes(loaded, loaded.plugin.tools if loaded.plugin else ()):
        typed = {p.name: p.type for p in invoke.tool.parameters if p.type in TYPED}
        if typed:
            yield from _misreadings(invoke, typed)


def _misreadings(invoke: Invoke, typed: dict[str, str]) -> Iterator[Finding]:
    nodes = own_nodes(invoke.function)
    parents = {child: node for node in nodes for child in children(node)}
    reads = {id(node): key for node in nodes if (key := _typed_read(node, invoke.dictionary, typed))}
    # a name whose type the code tests (`isinstance(flag, str)`) may well be text on that branch
    names = {
        name: key for name, key in _names_of_reads(nodes, reads).items() if name not in type_tested(nodes)
    }
    told: set[tuple[str, int]] = set()
    expressions = [node for node in nodes if isinstance(node, ast.expr)]
    for node in sorted(expressions, key=lambda node: (node.lineno, node.col_offset)):
        key = reads.get(id(node)) if not isinstance(node, ast.Name) else None
        if key is None and isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            key = names.get(node.id)
        if key is None:
            continue
        misuse = _misuse(node, parents.get(node))
        if misuse is not None and (key, node.lineno) not in told:
            told.add((key, node.lineno))  # one misreading of one parameter per line
            does, outcome = misuse
            kind, passed, fix = TYPED[typed[key]]
            yield READ_AS_TEXT.at(
                Location(invoke.display, node.lineno, node.col_offset + 1),
                tool=invoke.tool.name,
                kind=kind,
                parameter=key,
                does=Phrase(does),
                passed=Phrase(passed),
                outcome=Phrase(outcome),
                fix=Phrase(fix.format(parameter=key)),
            )


def _typed_read(node: ast.AST, dictionary: str, typed: dict[str, str]) -> str | None:
    """The key of `dictionary["key"]` or `dictionary.get("key", ...)` when it is a typed parameter's."""
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
        owner, key = node.value, constant(node.slice)
    elif (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get"
        and node.args
    ):
        owner, key = node.func.value, constant(node.args[0])
    else:
        return None
    return key if isinstance(owner, ast.Name) and owner.id == dictionary and key in typed else None


def _names_of_reads(nodes: list[ast.AST], reads: dict[int, str]) -> dict[str, str]:
    """Names every binding of which in the function is one typed parameter's read."""
    bound: dict[str, set[str | None]] = {}
    for node in nodes:
        if isinstance(node, ast.Assign):
            key = reads.get(id(node.value))
            for target in node.targets:
                if isinstance(target, ast.Name):
                    bound.setdefault(target.id, set()).add(key)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            if not _assigned_whole(node, nodes):
                bound.setdefault(node.id, set()).add(None)
        elif isinstance(node, ast.arg):
            bound.setdefault(node.arg, set()).add(None)
    return {
        name: key for name, keys in bound.items() if len(keys) == 1 and (key := next(iter(keys))) is not None
    }


def _assigned_whole(name: ast.Name, nodes: list[ast.AST]) -> bool:
    """True when `name` is a whole target of a plain assignment (read by `_names_of_reads`)."""
    return any(isinstance(node, ast.Assign) and name in node.targets for node in nodes)


def _misuse(node: ast.AST, parent: ast.AST | None) -> tuple[str, str] | None:
    """How the expression's parent treats a boolean or a number as text, if it does."""
    if isinstance(parent, ast.Attribute) and parent.value is node:
        method = parent.attr
        if method in STRING_METHODS and method not in NUMBER_METHODS:
            return f"calls `.{method}()` on it", "that raises AttributeError whenever the parameter is set"
        return None
    if isinstance(parent, ast.Compare):
        sides = [parent.left, *parent.comparators]
        others = [side for side in sides if side is not node]
        # a test against "" (or a list with None) guards an empty value: harmless, if never true
        texts = [text for side in others for text in _texts(side) if text]
        if any(_holds_none(side) for side in others):
            return None
        if texts and len(sides) == 2:
            op = parent.ops[0]
            shown = ", ".join(f'"{text}"' for text in texts[:3])
            if isinstance(op, ast.Eq | ast.In):
                return f"compares it with {shown}", "the test is never true, so its branch never runs"
            if isinstance(op, ast.NotEq | ast.NotIn):
                return f"compares it with {shown}", "the test is always true, whatever the user chose"
    return None


def _texts(node: ast.expr) -> list[str]:
    """The string constants `node` is, or holds as a literal list, tuple or set."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        return [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    return []


def _holds_none(node: ast.expr) -> bool:
    """True for `None`, or a literal list, tuple or set holding it."""
    items = node.elts if isinstance(node, ast.List | ast.Tuple | ast.Set) else [node]
    return any(isinstance(item, ast.Constant) and item.value is None for item in items)
