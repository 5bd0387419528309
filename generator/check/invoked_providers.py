"""A tool invoked through Dify by a provider id whose plugin part is this plugin's name under
another author (R138): a fork that still calls the original's tools.

A plugin calls a tool of an installed plugin with `self.session.tool.invoke_builtin_tool(provider=
"author/plugin/provider", ...)`. A fork published under its own author that keeps the original's
id calls the original author's plugin, which the workspace that installed the fork does not have.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

from generator.check import CheckContext
from generator.check.common import documents, every_node
from generator.check.dead_code import unreached_functions
from generator.check.plugin_code import plugin_code
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.rules import rule

OTHER_AUTHOR = rule(
    "R138",
    "invoked-provider-of-other-author",
    Severity.WARNING,
    "`{call}` invokes provider {provider}, a tool of the plugin {plugin}, but this plugin is"
    " {own} (manifest.yaml): Dify looks for {plugin} among the workspace's installed plugins, so the"
    " call fails with 'plugin provider ... not found' wherever only {own} is installed",
    "To call this plugin's own tool, write `{suggested}`; if the other author's plugin is meant,"
    " say in the README that it must be installed too.",
    """
The SDK sends the provider string of `session.tool.invoke_builtin_tool(provider, tool_name,
parameters)` (which returns `self.invoke(ToolProviderType.BUILT_IN, provider, tool_name,
parameters)`) to Dify as it is: `ToolInvocation.invoke` in `dify_plugin/invocations/tool.py` builds
`payload = {"tool_type": provider_type.value, "provider": provider, "tool": tool_name, ...}`.
Dify resolves it as a plugin's provider id, `author/plugin/provider`: `fetch_tool_provider`
in `api/core/plugin/impl/tool.py` of langgenius/dify parses it with `ToolProviderID(provider)` and
asks the plugin daemon for `params={"provider": tool_provider_id.provider_name, "plugin_id":
tool_provider_id.plugin_id}` in the calling workspace (`plugin/{tenant_id}/management/tool`);
`ToolManager.get_plugin_provider` raises `ToolProviderNotFoundError(f"plugin provider {provider}
not found")` when that plugin is not installed there.

A literal provider id whose plugin part is this plugin's `name` but whose author is not the
manifest's `author` is the mark of a fork that kept the original's id: the fork calls the original
author's plugin, and only a workspace that installed both gets an answer (from the original's code,
not the fork's). A warning: the other plugin may be meant; the message names both ids.

Found in every module of the plugin (endpoints included), in functions its code may run, for a
string literal given as `provider=` or as the provider's positional argument.
""",
)
# Where each SDK call takes its provider id: the position among the arguments.
_PROVIDER_AT = {"invoke_builtin_tool": 0, "invoke": 1}


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """R138 at each literal provider id of this plugin's name under another author."""
    manifest = next((document.data for _relative, document in documents(loaded, "manifest")), None)
    if manifest is None:
        return
    author, name = manifest.get("author"), manifest.get("name")
    if not (isinstance(author, str) and isinstance(name, str) and author and name):
        return
    code = plugin_code(loaded)
    unreached = unreached_functions(loaded)
    for _module, (relative, tree) in sorted(code.modules.items()):
        display = loaded.display_path(relative)
        dead = {
            id(node)
            for function in every_node(tree)
            if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef) and id(function) in unreached
            for node in every_node(function)
        }
        for node in every_node(tree):
            if isinstance(node, ast.Call) and id(node) not in dead:
                yield from _other_author(node, display, author, name)


def _other_author(call: ast.Call, display: str, author: str, name: str) -> Iterator[Finding]:
    found = _provider(call)
    if found is None:
        return
    provider, literal = found
    parts = provider.split("/")
    if len(parts) != 3 or parts[1] != name or parts[0] == author or not all(parts):
        return
    yield OTHER_AUTHOR.at(
        Location(display, literal.lineno, literal.col_offset + 1),
        call=f"{ast.unparse(call.func)}(...)",
        provider=provider,
        plugin=f"{parts[0]}/{parts[1]}",
        own=f"{author}/{name}",
        suggested=f"{author}/{name}/{parts[2]}",
    )


def _provider(call: ast.Call) -> tuple[str, ast.Constant] | None:
    """The literal provider id a tool invocation passes; None for another call or a computed id."""
    func = call.func
    if not isinstance(func, ast.Attribute) or func.attr not in _PROVIDER_AT:
        return None
    if func.attr == "invoke" and not (isinstance(func.value, ast.Attribute) and func.value.attr == "tool"):
        return None  # `session.tool.invoke(...)` only: many objects have an `invoke`
    at = _PROVIDER_AT[func.attr]
    given = next((k.value for k in call.keywords if k.arg == "provider"), None)
    if given is None and len(call.args) > at and not any(isinstance(a, ast.Starred) for a in call.args[:at]):
        given = call.args[at]
    if isinstance(given, ast.Constant) and isinstance(given.value, str):
        return given.value, given
    return None
