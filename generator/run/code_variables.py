"""The variables a plugin's code can set, read from its source without running it.

A tool sets a workflow variable only with a variable message: `create_variable_message(name, ...)`
or `create_stream_variable_message(name, ...)`. When every such call in the plugin's Python files
names its variable with a literal, those literals are every variable the plugin can ever set, on any
input: a declared variable outside them is never set, and a run that stopped early is no excuse.
"""

from __future__ import annotations

import ast

from generator.load.crawl import LoadedPlugin

VARIABLE_HELPERS = frozenset({"create_variable_message", "create_stream_variable_message"})
# Ways to make a variable message other than the helpers: their names are not read here.
_MESSAGE_CLASSES = frozenset({"VariableMessage"})


def variable_name(call: ast.Call) -> ast.expr | None:
    """The expression a helper call names its variable with (first argument or `variable_name=`)."""
    for keyword in call.keywords:
        if keyword.arg == "variable_name":
            return keyword.value
    return call.args[0] if call.args else None


def code_variables(loaded: LoadedPlugin) -> frozenset[str] | None:
    """Every variable name the plugin's code sets; None when that cannot be told from the source (a
    name that is not a literal, a message class built by hand, a file that does not parse)."""
    return loaded.reader.derived("code-variables", "", lambda: _read(loaded))


def _read(loaded: LoadedPlugin) -> frozenset[str] | None:
    names: set[str] = set()
    for file in loaded.reader.tree.files:
        if not file.relative.endswith(".py"):
            continue
        tree = loaded.reader.python_tree(file)
        if tree is None:
            return None
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
            if not (isinstance(named, ast.Constant) and isinstance(named.value, str)):
                return None
            names.add(named.value)
    return frozenset(names)
