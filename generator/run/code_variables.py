"""The variables a plugin's code can set, read from its source without running it.

A tool sets a workflow variable only with a variable message: `create_variable_message(name, ...)`
or `create_stream_variable_message(name, ...)`. When every such call in the plugin's Python files
names its variable with a literal, those literals are every variable the plugin can ever set, on any
input: a declared variable outside them is never set, and a run that stopped early is no excuse.
The modules of a plugin's other tools are left out: each tool's file is its own.
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
    if tree is None:
        return None
    names: set[str] = set()
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
