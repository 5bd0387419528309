"""A tool class the SDK cannot create: it derives from dify_plugin's `Tool` but does not define the
method the SDK declares abstract (`_invoke`; `invoke` before 0.0.1b5)."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

from packaging.version import Version

from generator.check import CheckContext
from generator.check.common import tool_modules
from generator.check.sdk_classes import plain_subclass, unbound
from generator.check.sdk_index import installed_sdk
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.rules import rule

NO_INVOKE = rule(
    "T011",
    "tool-without-invoke",
    Severity.ERROR,
    "class {name} derives from dify_plugin's Tool but defines no `_invoke`{instead}: the SDK cannot "
    'create it ("Can\'t instantiate abstract class"), so every call of tool {tool} fails',
    "Name the method that does the work `_invoke(self, tool_parameters)`; it yields the tool's messages.",
    """
The SDK declares `Tool._invoke` abstract (`@abstractmethod` in `dify_plugin/interfaces/tool`, in
every version from 0.0.1b5 to 0.10; before it, `Tool.invoke`), and creates the tool's class, the
one subclass of `Tool` in the file (`load_single_subclass_from_source`), each time the tool is
called. Python refuses to create a class whose abstract methods are not all defined, so every call
fails with a `TypeError` before any of the plugin's code runs. The check reads the file without
running it and reports only a class whose one base is the SDK's `Tool` (a mixin or a base class of
the plugin could bring `_invoke`), whose body is plain methods and assignments, and that binds no
`_invoke` anywhere in it (nor `invoke`, when the SDK version the plugin installs cannot be read
from its dependency files).
""",
)
# Methods people write in place of `_invoke`, named in the finding when the class has one.
_INSTEAD = ("_invoke", "invoke", "run", "_run", "execute", "_execute", "call", "__call__")
# The first SDK whose abstract method is `_invoke` (0.0.1b2 to 0.0.1b4 declare `invoke`).
_INVOKE_SINCE = Version("0.0.1b5")


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """Each tool file whose one Tool class has no `_invoke`."""
    tools = loaded.plugin.tools if loaded.plugin else ()
    for file, tree, tool in tool_modules(loaded, tools):
        if not any(_abstract_classes(tree, ("_invoke",))):
            continue
        version = installed_sdk(loaded.reader)  # read only for a class that lacks `_invoke`
        # unknown version: either name may be the abstract one, so a class binding either is left alone
        abstract = ("_invoke",) if version is None or version >= _INVOKE_SINCE else ("invoke",)
        needed = abstract if version is not None else ("_invoke", "invoke")
        for node in _abstract_classes(tree, needed):
            names = {s.name for s in node.body if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef)}
            instead = next((f" (it has `{name}`)" for name in _INSTEAD if name in names), "")
            where = Location(loaded.display_path(file), node.lineno, node.col_offset + 1)
            yield NO_INVOKE.at(where, name=node.name, method=abstract[0], instead=instead, tool=tool.name)


def _abstract_classes(tree: ast.Module, needed: tuple[str, ...]) -> Iterator[ast.ClassDef]:
    """The module's one plain class deriving from the SDK's Tool alone (`plain_subclass`), when it
    binds none of `needed`."""
    node = plain_subclass(tree, "Tool")
    if node is not None and len(unbound(node, needed)) == len(needed):
        yield node
