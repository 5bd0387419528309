"""The variables a plugin's code can set, read from its source without running it.

A tool sets a workflow variable only with a variable message: `create_variable_message(name, ...)`
or `create_stream_variable_message(name, ...)`. When every such call in the plugin's Python files
names its variable with a literal (or with the variable of a loop over the keys of a literal dict,
or a literal list of strings, that nothing changes), those names are every variable the plugin can
ever set, on any input: a declared variable outside them is never set, and a run that stopped
early is no excuse. The modules of a plugin's other tools are left out: each tool's file is its own.
"""

from __future__ import annotations

import ast
from functools import partial

from generator.load.crawl import LoadedPlugin
from generator.load.modules import module_of
from generator.load.reader import PluginFile
from generator.plugin_model import Tool

VARIABLE_HELPERS = frozenset({"create_variable_message", "create_stream_variable_message"})
# Ways to make a variable message other than the helpers: their names are not read here.
_MESSAGE_CLASSES = frozenset({"VariableMessage"})


def variable_name(call: ast.Call) -> ast.expr | None:
    """The expression a helper call names its variable with (first argument or `variable_name=`)."""
    for keyword in call.keywords:
        if keyword.arg == "variable_name":
            return keyword.value
    return call.args[0] if call.args else None


def code_variables(loaded: LoadedPlugin, tool: Tool) -> frozenset[str] | None:
    """Every variable name the code `tool` may run sets: the plugin's Python files but the modules
    of its other tools (a helper several tools share counts for each); None when that cannot be told
    from the source (a name that is not a literal, a message class built by hand, a file that does
    not parse)."""
    own = _file(loaded, tool)
    imported = _imported_parts(loaded, own)
    others = {
        _file(loaded, other)
        for other in (loaded.plugin.tools if loaded.plugin else ())
        if other.source != tool.source
    }
    others.discard(own)
    # Another tool's module that this one imports (a shared base class, a helper) counts for it too.
    others = {file for file in others if file and file.rsplit("/", 1)[-1].removesuffix(".py") not in imported}
    names: set[str] = set()
    for file in loaded.reader.tree.files:
        if not file.relative.endswith(".py") or file.relative in others:
            continue
        found = loaded.reader.derived("code-variables", file.relative, partial(_set_in, loaded, file))
        if found is None:
            return None
        names |= found
    return frozenset(names)


def _file(loaded: LoadedPlugin, tool: Tool) -> str | None:
    """The file the SDK executes for the tool."""
    return module_of(loaded.reader, tool.source).loaded if tool.source else None


def _imported_parts(loaded: LoadedPlugin, file: str | None) -> set[str]:
    """Every part of every module name the file imports (`from tools.base import X`: tools, base)."""
    tree = loaded.reader.source_tree(file) if file else None
    parts: set[str] = set()
    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, ast.ImportFrom):
            parts.update((node.module or "").split("."))
            parts.update(alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            parts.update(part for alias in node.names for part in alias.name.split("."))
    return parts


def _set_in(loaded: LoadedPlugin, file: PluginFile) -> frozenset[str] | None:
    """The variable names one file's variable messages use; None when one is not a literal."""
    tree = loaded.reader.python_tree(file)
    return None if tree is None else tree_variables(tree)


def tree_variables(tree: ast.Module) -> frozenset[str] | None:
    """The variable names one module's variable messages use; None when one can be any name."""
    names: set[str] = set()
    parents: dict[ast.AST, ast.AST] | None = None
    for node in ast.walk(tree):
        if (isinstance(node, ast.Name) and node.id in _MESSAGE_CLASSES) or (
            isinstance(node, ast.Attribute) and node.attr in _MESSAGE_CLASSES
        ):
            return None
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in VARIABLE_HELPERS
        ):
            continue
        named = variable_name(node)
        if isinstance(named, ast.Constant) and isinstance(named.value, str):
            names.add(named.value)
            continue
        if parents is None:  # built once per file, and only for a file that computes a name
            parents = {child: parent for parent in ast.walk(tree) for child in ast.iter_child_nodes(parent)}
        looped = _looped_names(named, node, parents)
        if looped is None:
            return None
        names |= looped
    return frozenset(names)


def _looped_names(
    named: ast.expr | None, call: ast.Call, parents: dict[ast.AST, ast.AST]
) -> frozenset[str] | None:
    """The names a loop variable can take when the call sits in the body of the loop that binds it
    (`for key in mapping:`, `for key, value in {...}.items():`) and the loop runs over literal keys
    or strings (written there, or bound once in the function to a literal nobody changes); None for
    anything else."""
    if not isinstance(named, ast.Name):
        return None
    node: ast.AST = call
    loop: ast.For | ast.AsyncFor | None = None
    while node in parents:
        parent = parents[node]
        if isinstance(parent, ast.For | ast.AsyncFor) and node in parent.body and loop is None:
            loop = parent if _loop_binds(parent, named.id) else None
            if loop is None and _binds(parent.target, named.id):
                return None  # the innermost binding is a loop over something else
        if isinstance(parent, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            break
        node = parent
    function = parents.get(node)
    if loop is None or not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
        return None
    if _stores(function, named.id) != 1:
        return None  # the loop variable is set elsewhere too
    iterated = loop.iter
    if isinstance(loop.target, ast.Tuple):  # `for key, value in X.items()`
        items_of = _method_of(iterated, "items")
        literal = _literal(function, items_of) if items_of is not None else None
        return _keys(literal) if isinstance(literal, ast.Dict) else None
    keys_of = _method_of(iterated, "keys")
    literal = _literal(function, keys_of if keys_of is not None else iterated)
    if isinstance(literal, ast.Dict):
        return _keys(literal)
    if keys_of is None and isinstance(literal, ast.List | ast.Tuple | ast.Set):
        values = [element.value for element in literal.elts if isinstance(element, ast.Constant)]
        if len(values) == len(literal.elts) and all(isinstance(value, str) for value in values):
            return frozenset(str(value) for value in values)
    return None


def _loop_binds(loop: ast.For | ast.AsyncFor, name: str) -> bool:
    """`for name in ...` or `for name, value in ...` (the name first of two)."""
    target = loop.target
    if isinstance(target, ast.Name):
        return target.id == name
    return (
        isinstance(target, ast.Tuple)
        and len(target.elts) == 2
        and isinstance(target.elts[0], ast.Name)
        and target.elts[0].id == name
    )


def _binds(target: ast.expr, name: str) -> bool:
    return any(isinstance(node, ast.Name) and node.id == name for node in ast.walk(target))


def _stores(function: ast.AST, name: str) -> int:
    """How many times `name` is bound (or deleted) anywhere in the function, nested code included."""
    return sum(
        isinstance(node, ast.Name) and node.id == name and not isinstance(node.ctx, ast.Load)
        for node in ast.walk(function)
    )


def _method_of(node: ast.expr, method: str) -> ast.expr | None:
    """X for `X.method()` without arguments."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == method
        and not node.args
        and not node.keywords
    ):
        return node.func.value
    return None


# What may be done with a literal bound to a name without changing it (read methods).
_READS = frozenset({"get", "items", "keys", "values", "copy"})


def _literal(function: ast.FunctionDef | ast.AsyncFunctionDef, node: ast.expr) -> ast.expr | None:
    """The literal dict, list, tuple or set `node` is: itself, or the one value of a name bound once
    in the function by a plain assignment and only read afterwards (subscripted, iterated, or asked
    .get/.items/.keys/.values/.copy); None when it may hold other keys."""
    if isinstance(node, ast.Dict | ast.List | ast.Tuple | ast.Set):
        return node
    if not isinstance(node, ast.Name) or _stores(function, node.id) != 1:
        return None
    value: ast.expr | None = None
    parents = {child: parent for parent in ast.walk(function) for child in ast.iter_child_nodes(parent)}
    for use in ast.walk(function):
        if not (isinstance(use, ast.Name) and use.id == node.id):
            continue
        parent = parents.get(use)
        if isinstance(use.ctx, ast.Store):
            if not (isinstance(parent, ast.Assign) and parent.targets == [use]):
                return None
            value = parent.value
        elif isinstance(parent, ast.Subscript) and parent.value is use:
            if not isinstance(parent.ctx, ast.Load):
                return None  # `mapping[key] = ...` or `del mapping[key]`
        elif isinstance(parent, ast.Attribute) and parent.value is use:
            if parent.attr not in _READS or not isinstance(parents.get(parent), ast.Call):
                return None  # `.update(...)`, `.pop(...)`, `.append(...)`: it changes
        elif not isinstance(parent, ast.For | ast.AsyncFor | ast.comprehension) or parent.iter is not use:
            return None  # handed to other code, which may change it
    return value if isinstance(value, ast.Dict | ast.List | ast.Tuple | ast.Set) else None


def _keys(literal: ast.Dict) -> frozenset[str] | None:
    """The keys of a literal dict, when each is a string written there (no `**spread`)."""
    keys = [key.value for key in literal.keys if isinstance(key, ast.Constant) and isinstance(key.value, str)]
    return frozenset(keys) if len(keys) == len(literal.keys) else None
