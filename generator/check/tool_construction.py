"""The plugin's own Tool classes created without what the SDK's `Tool.__init__` requires (T016), and
Tool classes whose own `__init__` cannot take what the SDK gives them (T024).

Only the SDK creates a tool properly: it hands the class the tool's runtime (credentials, user) and
the session of the request. A plugin that makes one itself, `MyTool()` in its provider's
`_validate_credentials` to try the credentials, gets a TypeError before any of its code runs.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

from generator.check import CheckContext
from generator.check.common import children, every_node, module_tree
from generator.check.credential_reads import declared_credentials
from generator.check.plugin_code import (
    PluginCode,
    imported_module,
    module_name,
    plugin_code,
    reachable_modules,
)
from generator.check.sdk_api_index import tool_init
from generator.check.sdk_index import installed_sdk
from generator.check.sdk_names import bound_names
from generator.check.undeclared import is_tool_base, sdk_names
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.rules import Listing, Phrase, rule

TOOL_WITHOUT_ARGUMENTS = rule(
    "T016",
    "tool-created-without-runtime",
    Severity.ERROR,
    "{call} creates tool class {name} without {missing}, which the SDK's Tool.__init__ requires:"
    " it raises TypeError{outcome!s}",
    "Do not create the tool yourself: do the work in a function both the tool and the provider call"
    " (in `_validate_credentials`, try the credentials with that function).",
    """
The SDK's `Tool.__init__(self, runtime, session)` requires both (every release read from the
published wheels, `generator/check/sdk_api_index.json`, 0.0.1b15 to 0.10.2, for the version the
plugin installs); the SDK creates a tool with the request's `ToolRuntime` (credentials, user) and
`Session` when Dify invokes it. A plugin that creates its own `Tool` subclass, say
`ExecuteQueryTool()` in the provider's `_validate_credentials` to try the credentials, raises
TypeError at that call, whatever the user entered. The check reads the modules the SDK loads, for
calls of the plugin's own classes that derive from the SDK's `Tool` with no `__init__` or `__new__`
of their own, and names the required parameters that neither a positional argument nor a keyword
gives (a call with `*args` or `**kwargs` is left alone). It is an error when the call is on the
straight path of `_validate_credentials` or `_invoke` (no branch or loop between them, a loop's
iterable and a condition being on it: every user who saves credentials or runs the tool reaches it;
a `try` around it only turns the TypeError into the plugin's own error), a warning elsewhere. Dify
calls `_validate_credentials` when a user saves the provider's credentials, so in the class of a
provider that declares none (nothing to save) the call never runs and is not reported.
""",
)
INIT_REFUSES_RUNTIME = rule(
    "T024",
    "tool-init-refuses-runtime",
    Severity.ERROR,
    "{name}.__init__{signature} takes no {missing}, but the SDK creates every tool as"
    " `{name}(runtime=..., session=...)`: each call of the tool raises TypeError before `_invoke` runs",
    "Take them and hand them on: `def __init__(self, runtime, session, ...)` with"
    " `super().__init__(runtime, session)`, or `def __init__(self, *args, **kwargs)`; or drop the"
    " `__init__` and set things up in `_invoke`.",
    """
The SDK creates the tool class for each request itself (`dify_plugin/core/plugin_executor.py`,
`invoke_tool`: `tool = tool_cls(runtime=ToolRuntime(...), session=session)`, as read in 0.10.2). A
`Tool` subclass that defines its own `__init__` without parameters of those names and without
`**kwargs` (`def __init__(self): super().__init__()`) makes that line raise TypeError ("got an
unexpected keyword argument 'runtime'"), so every call of the tool fails, whatever the inputs, and
Dify shows the SDK's error. The check reads the plugin's classes that derive from the SDK's `Tool`
in the modules the SDK loads.
""",
)
# The part of a branch or loop that always runs (`for x in HERE`, `if HERE`).
_HEADS = ("iter", "test", "subject")
# Methods the SDK calls for every user: a call on their straight path always runs.
_ALWAYS_CALLED = {
    "_validate_credentials": ": the provider's credentials can never be saved",
    "_invoke": ": the tool fails on every call",
}
# Nodes between a call and its function that do not make it conditional.
_STRAIGHT = (ast.stmt, ast.expr, ast.keyword, ast.withitem, ast.arguments)
_BRANCHES = (
    ast.If,
    ast.For,
    ast.AsyncFor,
    ast.While,
    ast.Match,
    ast.IfExp,
    ast.BoolOp,
    ast.Lambda,
    ast.ListComp,
    ast.SetComp,
    ast.DictComp,
    ast.GeneratorExp,
    ast.ExceptHandler,
    ast.ClassDef,
)


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """T016 at each call of a plugin's own Tool subclass that lacks a required argument."""
    if loaded.plugin is None:
        return
    code = plugin_code(loaded)
    for module in reachable_modules(loaded, code):
        relative, tree = code.modules[module]
        yield from _refusing_inits(tree, loaded.display_path(relative))
    classes = _own_tools(code)
    if not classes:
        return
    required = tool_init(installed_sdk(loaded.reader))
    if not required:
        return
    validated = _validated(loaded)
    for module in reachable_modules(loaded, code):
        relative, tree = code.modules[module]
        for call, name in _calls(relative, tree, classes):
            missing = _missing(call, required)
            if not missing:
                continue
            outcome, always = _outcome(call, tree)
            if outcome == _ALWAYS_CALLED["_validate_credentials"]:
                if validated.get(relative) is False:
                    continue  # Dify never asks a provider without credentials to validate them
                always = validated.get(relative, False)
                outcome = outcome if always else ""
            yield TOOL_WITHOUT_ARGUMENTS.at(
                Location(loaded.display_path(relative), call.lineno, call.col_offset + 1),
                None if always else Severity.WARNING,
                call=ast.unparse(call)[:80],
                name=name,
                missing=Listing(missing),
                outcome=Phrase(outcome),
            )


def _validated(loaded: LoadedPlugin) -> dict[str, bool]:
    """The file of each tool provider's class: True when the provider declares credentials (Dify
    calls its `_validate_credentials` whenever a user saves them), False when it declares none
    (there is nothing to save, so it is never called)."""
    found: dict[str, bool] = {}
    for provider in loaded.plugin.providers if loaded.plugin else ():
        tree = module_tree(loaded, provider.source) if provider.source else None
        if tree is not None:
            found[tree[0]] = declared_credentials(loaded, provider) != []
    return found


def _own_tools(code: PluginCode) -> dict[str, set[str]]:
    """Module -> the names of its classes that derive from the SDK's Tool straight, with no
    `__init__`, `__new__` or decorator of their own (what the SDK's signature then says holds)."""
    found: dict[str, set[str]] = {}
    for module, (_relative, tree) in code.modules.items():
        tool_names = sdk_names(tree)
        for node in tree.body:
            if (
                isinstance(node, ast.ClassDef)
                and not node.decorator_list
                and not node.keywords
                and any(is_tool_base(base, tool_names) for base in node.bases)
                and not any(_defines(statement, ("__init__", "__new__")) for statement in node.body)
            ):
                found.setdefault(module, set()).add(node.name)
    return found


def _defines(statement: ast.stmt, names: tuple[str, ...]) -> bool:
    if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
        return statement.name in names
    targets = statement.targets if isinstance(statement, ast.Assign) else []
    return any(isinstance(target, ast.Name) and target.id in names for target in targets)


def _calls(relative: str, tree: ast.Module, classes: dict[str, set[str]]) -> Iterator[tuple[ast.Call, str]]:
    """Calls of a name that, in this module, is bound only to one of the plugin's Tool classes:
    defined here, or imported under its own name from the module that defines it."""
    module = module_name(relative)
    local: dict[str, str] = {name: name for name in classes.get(module, ())}
    for statement in tree.body:
        if isinstance(statement, ast.ImportFrom):
            source = imported_module(relative, statement)
            for alias in statement.names:
                if source in classes and alias.name in classes[source]:
                    local[alias.asname or alias.name] = alias.name
    bindings: dict[str, int] = {}
    for node in every_node(tree):
        for name in bound_names(node):
            bindings[name] = bindings.get(name, 0) + 1
    for node in every_node(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in local
            and bindings.get(node.func.id, 0) == 1
        ):
            yield node, local[node.func.id]


def _missing(call: ast.Call, required: list[str]) -> list[str]:
    """The required parameters the call gives neither positionally nor by keyword; none when it
    spreads `*args` or `**kwargs` (what they hold is not known)."""
    if any(isinstance(arg, ast.Starred) for arg in call.args) or any(k.arg is None for k in call.keywords):
        return []
    given = {keyword.arg for keyword in call.keywords}
    return [name for name in required[len(call.args) :] if name not in given]


def _outcome(call: ast.Call, tree: ast.Module) -> tuple[str, bool]:
    """What the TypeError costs, and whether every user meets it: the call is on the straight path
    of a method the SDK calls for everyone."""
    parents = {child: node for node in every_node(tree) for child in children(node)}
    node: ast.AST = call
    while (parent := parents.get(node)) is not None:
        if isinstance(parent, ast.FunctionDef | ast.AsyncFunctionDef):
            said = _ALWAYS_CALLED.get(parent.name)
            return (said, True) if said else ("", False)
        head = any(getattr(parent, field, None) is node for field in _HEADS)
        if (isinstance(parent, _BRANCHES) and not head) or not isinstance(parent, _STRAIGHT):
            return "", False
        node = parent
    return "", False


def _refusing_inits(tree: ast.Module, display: str) -> Iterator[Finding]:
    """T024 at each `__init__` of a Tool subclass that cannot take `runtime=` and `session=`."""
    tool_names = sdk_names(tree)
    for node in tree.body:
        if not isinstance(node, ast.ClassDef) or not any(is_tool_base(b, tool_names) for b in node.bases):
            continue
        init = next((m for m in node.body if isinstance(m, ast.FunctionDef) and m.name == "__init__"), None)
        if init is None or init.args.kwarg is not None or init.decorator_list:
            continue
        named = {a.arg for a in [*init.args.args[1:], *init.args.kwonlyargs]}
        missing = [name for name in ("runtime", "session") if name not in named]
        if missing:
            yield INIT_REFUSES_RUNTIME.at(
                Location(display, init.lineno, init.col_offset + 1),
                name=node.name,
                signature=f"({ast.unparse(init.args)})",
                missing=Listing(missing),
            )
