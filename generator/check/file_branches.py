"""Type tests that contradict a parameter's declared type: a test for the SDK's File on a parameter
the tool declares as text (R123), whose branch never runs, and a file parameter sorted by
`isinstance` into builtin types only (R139), none of which it ever is.

`isinstance(image, File)` where `image = tool_parameters.get("image")` and the YAML declares `image`
with `type: string` is never true: Dify casts a string parameter to text before the plugin gets it,
so whatever the File branch does (read the upload, take its name) never happens.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

from generator.check import CheckContext
from generator.check.common import tool_modules
from generator.check.sdk_file import own_nodes, plain_bindings
from generator.check.select_options import read_of
from generator.check.undeclared import Function, dictionary_name, invoke_of, sdk_names
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.rules import Phrase, rule

FILE_TEST_ON_TEXT = rule(
    "R123",
    "file-test-on-text-parameter",
    Severity.WARNING,
    "{test} is never true: {name} holds the parameter `{parameter}`, which {yaml} declares `type: {kind}`,"
    " and Dify hands such a parameter to the tool as text, so the code for a File never runs",
    "Declare `{parameter}` with `type: file` (or `files`) if it takes an upload; else drop the File branch.",
    """
Dify casts each tool parameter to its declared type before the plugin gets it
(`api/core/plugin/entities/parameters.py`, `cast_parameter_value`):

    case PluginParameterType.STRING | PluginParameterType.SECRET_INPUT | PluginParameterType.SELECT:
        if value is None:
            return ""
        else:
            return value if isinstance(value, str) else str(value)

(later releases add `CHECKBOX` and `DYNAMIC_SELECT` to the same case). Only a `file` or `files`
parameter reaches the SDK as the file's dictionary, which `Tool._convert_parameters`
(`dify_plugin/interfaces/tool/tool.py`) turns into the SDK's `File`. So in a tool that declares
`image` as `type: string`, `isinstance(image, File)` is False on every call, and the branch it
guards (reading the upload's bytes, its name) is dead: a user who wires a file into that input
gets its text form instead, and the tool treats it as a URL or fails on it.

A warning, at the test: the tool may still work for text. The check reads `_invoke` of each tool's
class and judges a name whose every binding there is a read of a parameter the YAML declares
`string`, `secret-input` or `select` (`tool_parameters.get("image")`, `tool_parameters["image"]`,
with a text default or `or ""`), a list or tuple of such names, or an item of a loop over one
(iterating text gives text), tested with `isinstance(name, File)`, `File` imported from
`dify_plugin`.
""",
)

FILE_NEVER_MATCHED = rule(
    "R139",
    "file-parameter-never-matched",
    Severity.WARNING,
    "{tests} never match: {name} holds the file parameter `{parameter}`, which the SDK hands the tool as"
    " its File, so every call that gets a file {outcome!s}",
    "Test `isinstance({name_bare}, File)` (`from dify_plugin.file.file import File`) and read the upload"
    " with `.blob` (its bytes), `.filename` and `.mime_type`.",
    """
A `file` parameter never reaches the tool as bytes, text or a dictionary. Dify sends the file's
description, and the SDK's `Tool._convert_parameters` (`dify_plugin/interfaces/tool/tool.py`) turns
it into the SDK's `File` before `_invoke` runs:

    if parameter.type == ToolParameter.ToolParameterType.FILE:
        tool_parameters[parameter.name] = File(**tool_parameters[parameter.name])

(`FILES` does the same for each item of a list). `File` is a pydantic model, no subclass of `bytes`,
`str`, `dict` or any other builtin type, so a chain of tests such as `if isinstance(file, bytes):
... elif isinstance(file, str): ... elif isinstance(file, dict): ... else: yield "Unsupported file
type"` never takes one of its branches: every upload ends in the `else` (or falls past the chain
with none of the names its branches bind). What the branches do with the content (upload it,
decode it) never happens.

A warning at the first test, when every test of an `if`/`elif` chain is `isinstance(name, T)` (or
a tuple of such `T`) with `T` one of Python's builtin types (`bytes`, `bytearray`, `memoryview`,
`str`, `dict`, `list`, `tuple`, `set`, `int`, `float`, `bool`), the name's every binding in
`_invoke` is a read of a parameter the YAML declares `type: file`, and the chain's `else`, if any,
does not use the name (an `else` that reads the File's attributes handles it). The tool may still
answer: it is a feature, not the plugin, that never works.
""",
)
_TEXT_TYPES = frozenset({"string", "secret-input", "select"})
_FILE_TYPES = frozenset({"file"})
_BUILTINS = frozenset(
    {"bytes", "bytearray", "memoryview", "str", "dict", "list", "tuple", "set", "int", "float", "bool"}
)


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """R123 and R139 in every tool's `_invoke`."""
    tools = loaded.plugin.tools if loaded.plugin else ()
    for file, tree, tool in tool_modules(loaded, tools):
        invoke = invoke_of(tree)
        dictionary = dictionary_name(invoke) if invoke is not None else None
        if invoke is None or dictionary is None:
            continue
        display = loaded.display_path(file)
        files = {p.name: p.type for p in tool.parameters if p.type in _FILE_TYPES}
        if files:
            nodes = own_nodes(invoke)
            held = {  # the File itself, not a list of it (a list is a `list`)
                name: parameter
                for name, parameter in _held_names(invoke, nodes, dictionary, files).items()
                if all(_read(value, dictionary, files) for value in plain_bindings(invoke, name))
            }
            for chain, name, else_ in _builtin_chains(invoke, held):
                yield FILE_NEVER_MATCHED.at(
                    Location(display, chain[0].lineno, chain[0].col_offset + 1),
                    tests=", ".join(ast.unparse(test) for test in chain),
                    name=f"`{name}`",
                    name_bare=name,
                    parameter=held[name],
                    outcome=Phrase("takes the `else` instead" if else_ else "runs none of its branches"),
                )
        file_class = sdk_names(tree, "File")
        text = {p.name: p.type for p in tool.parameters if p.type in _TEXT_TYPES}
        if text and file_class:
            for test, name, parameter in _tests(invoke, dictionary, text, file_class):
                yield FILE_TEST_ON_TEXT.at(
                    Location(display, test.lineno, test.col_offset + 1),
                    test=ast.unparse(test),
                    name=f"`{name}`",
                    parameter=parameter,
                    yaml=loaded.display_path(tool.file),
                    kind=text[parameter],
                )


def _tests(
    invoke: Function, dictionary: str, text: dict[str, str], file_class: set[str]
) -> Iterator[tuple[ast.Call, str, str]]:
    """`isinstance(name, File)` calls whose name holds a text parameter, with the parameter."""
    nodes = own_nodes(invoke)
    held = _held_names(invoke, nodes, dictionary, text)
    for node in nodes:
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "isinstance"
            and len(node.args) == 2
            and isinstance(subject := node.args[0], ast.Name)
            and subject.id in held
            and _names_file(node.args[1], file_class)
        ):
            yield node, subject.id, held[subject.id]


def _names_file(node: ast.expr, file_class: set[str]) -> bool:
    """True when an isinstance's class argument is File alone (a tuple with other classes may
    match the text)."""
    return isinstance(node, ast.Name) and node.id in file_class


def _builtin_chains(invoke: Function, held: dict[str, str]) -> Iterator[tuple[list[ast.expr], str, bool]]:
    """`if`/`elif` chains whose every test is `isinstance(name, builtin)` of one held name, whose
    `else` (told by the flag) does not use that name: (the tests, the name, whether there is an else)."""
    inner = {id(b.orelse[0]) for b in ast.walk(invoke) if isinstance(b, ast.If) and _elif(b)}
    for node in own_nodes(invoke):
        if not isinstance(node, ast.If) or id(node) in inner:
            continue
        tests: list[ast.expr] = []
        branch = node
        while True:
            tests.append(branch.test)
            if not _elif(branch) or not isinstance(following := branch.orelse[0], ast.If):
                break
            branch = following
        subjects = {_builtin_test(test) for test in tests}
        if len(subjects) != 1 or (name := subjects.pop()) is None or name not in held:
            continue
        named = any(isinstance(n, ast.Name) and n.id == name for s in branch.orelse for n in ast.walk(s))
        if not named:
            yield tests, name, bool(branch.orelse)


def _elif(node: ast.If) -> bool:
    """True when an `if`'s `else` is an `elif` (an `if` alone in it)."""
    return isinstance(node, ast.If) and len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If)


def _builtin_test(test: ast.expr) -> str | None:
    """The name an `isinstance(name, T)` tests, when every `T` is a builtin type."""
    if not (
        isinstance(test, ast.Call)
        and isinstance(test.func, ast.Name)
        and test.func.id == "isinstance"
        and len(test.args) == 2
        and not test.keywords
        and isinstance(subject := test.args[0], ast.Name)
    ):
        return None
    kinds = test.args[1].elts if isinstance(test.args[1], ast.Tuple) else [test.args[1]]
    if all(isinstance(kind, ast.Name) and kind.id in _BUILTINS for kind in kinds):
        return subject.id
    return None


def _held_names(
    invoke: Function, nodes: list[ast.AST], dictionary: str, text: dict[str, str]
) -> dict[str, str]:
    """The names whose every binding in `_invoke` holds one of the parameters `text` names (or a
    list of such, or an item of one), with the parameter; found as the largest such set (a name
    may be bound from itself: `images = [images]`)."""
    bindings: dict[str, list[ast.expr | None]] = {}
    for argument in ast.walk(invoke.args):
        if isinstance(argument, ast.arg):
            bindings.setdefault(argument.arg, []).append(None)
    for node in nodes:
        for name, value in _binds(node):
            bindings.setdefault(name, []).append(value)
    # the largest set: every name at first, less each whose some binding holds anything else
    held = set(bindings)
    changed = True
    while changed:
        changed = False
        for name in sorted(held):
            if not all(_holds_text(value, held, dictionary, text) for value in bindings[name]):
                held.discard(name)
                changed = True
    # which parameter each holds: read directly, or through the names it is made of
    found: dict[str, str] = {}
    for _round in range(len(held)):
        for name in sorted(held - found.keys()):
            sources = [_source(value, found, dictionary, text) for value in bindings[name]]
            parameter = next((source for source in sources if source), None)
            if parameter is not None:
                found[name] = parameter
    return found


def _binds(node: ast.AST) -> Iterator[tuple[str, ast.expr | None]]:
    """(name, value) for each name a node binds; the value None when it is not a plain binding,
    `*iterable` (a Starred) for a loop's item."""
    if isinstance(node, ast.Assign):
        for target in node.targets:
            plain = isinstance(target, ast.Name)
            for inner in ast.walk(target):
                if isinstance(inner, ast.Name):
                    yield inner.id, node.value if plain else None
    elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        yield node.target.id, node.value
    elif isinstance(node, ast.For | ast.AsyncFor | ast.comprehension):
        plain = isinstance(node.target, ast.Name)
        for inner in ast.walk(node.target):
            if isinstance(inner, ast.Name):
                yield inner.id, ast.Starred(value=node.iter) if plain else None
    elif isinstance(node, ast.AugAssign | ast.NamedExpr) and isinstance(node.target, ast.Name):
        yield node.target.id, None
    elif isinstance(node, ast.withitem) and node.optional_vars is not None:
        for inner in ast.walk(node.optional_vars):
            if isinstance(inner, ast.Name):
                yield inner.id, None
    elif isinstance(node, ast.ExceptHandler) and node.name:
        yield node.name, None
    elif isinstance(node, ast.Import | ast.ImportFrom):
        for alias in node.names:
            yield alias.asname or alias.name.split(".")[0], None
    elif isinstance(node, ast.Global | ast.Nonlocal):
        for name in node.names:
            yield name, None


def _source(
    value: ast.expr | None, found: dict[str, str], dictionary: str, text: dict[str, str]
) -> str | None:
    """The text parameter a binding's value holds, as far as `found` tells."""
    if isinstance(value, ast.Starred):
        return _source(value.value, found, dictionary, text)
    if isinstance(value, ast.Name):
        return found.get(value.id)
    if isinstance(value, ast.List | ast.Tuple):
        return next((p for item in value.elts if (p := _source(item, found, dictionary, text))), None)
    return _read(value, dictionary, text)


def _holds_text(value: ast.expr | None, held: set[str], dictionary: str, text: dict[str, str]) -> bool:
    """True when a binding's value is text from a text parameter: a read of one, a name held, a
    list or tuple of these, or (a loop's item, shown as `*iterable`) an item of one."""
    if value is None:
        return False
    if isinstance(value, ast.Starred):
        return _holds_text(value.value, held, dictionary, text)
    if isinstance(value, ast.Name):
        return value.id in held
    if isinstance(value, ast.List | ast.Tuple):
        return bool(value.elts) and all(_holds_text(item, held, dictionary, text) for item in value.elts)
    return _read(value, dictionary, text) is not None


def _read(value: ast.expr | None, dictionary: str, text: dict[str, str]) -> str | None:
    """The text parameter a value reads from `_invoke`'s dictionary (`d.get("x")`, `d.get("x",
    "")`, `d["x"]`, `... or ""`), else None."""
    if isinstance(value, ast.BoolOp) and isinstance(value.op, ast.Or) and len(value.values) == 2:
        fallback = value.values[1]
        if not (isinstance(fallback, ast.Constant) and isinstance(fallback.value, str)):
            return None
        value = value.values[0]
    name = read_of(value, dictionary)
    if name not in text:
        return None
    # `d.get("x", default)`: the default given when the key is absent must be text too
    default = value.args[1] if isinstance(value, ast.Call) and len(value.args) == 2 else None
    return name if default is None or _text_or_none(default) else None


def _text_or_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and (node.value is None or isinstance(node.value, str))
