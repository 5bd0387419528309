"""Parameters a tool's YAML declares and its code never reads (R090), found without running it.

A declared parameter is shown to every user: the workflow editor offers it as an input, an agent's
model is told about it (`form: llm`). When `_invoke` (and the plugin's own functions it hands the
dictionary to, `passed_on.py`) reads the dictionary only under constant keys and none of them is the
parameter's, what a user sets there changes nothing. The reading is closed or the check is silent:
a key computed at run time, the dictionary iterated, copied, shown whole in a message or handed to
code we do not follow may read any parameter.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

from generator.check import CheckContext
from generator.check.common import children, every_node, tool_module_tree
from generator.check.passed_on import follow
from generator.check.undeclared import Function, Invoke, Parents, UseKind, invokes, use_of
from generator.findings import Finding, Severity
from generator.load.crawl import LoadedPlugin
from generator.plugin_model import Tool
from generator.rules import rule

UNREAD_PARAMETER = rule(
    "R090",
    "parameter-never-read",
    Severity.WARNING,
    "tool {tool} declares parameter `{key}`, which its code never reads (it reads {dict} only as"
    " {read}): whatever a user sets there has no effect",
    'Read it in `_invoke` ({dict}.get("{key}")), or remove it from the YAML\'s `parameters:`.',
    """
Dify shows every parameter a tool's YAML declares: the workflow editor offers it as one of the tool
node's inputs (`form: form` as a setting, `form: llm` as an input the node or an agent's model
fills), and hands the tool what was set there in the dictionary `_invoke` receives
(`ToolNode._generate_parameters` in api/core/workflow/nodes/tool/tool_node.py loops over the
node's configured parameters). Nothing else reads it: the SDK calls `_invoke(tool_parameters)` and
the value is only where the tool looks it up. A parameter the code never looks up is a control that
does nothing: users set it and nothing changes (an option a tool once had, or the value read under
another name).

The check reads `_invoke` and the plugin's own functions it hands the dictionary to, without
running them, and speaks only when every use of the dictionary is a read under a constant key, at
least one
(`d["k"]`, `d.get("k")`, `"k" in d`, `d.pop("k")`): any other use (a computed key, iteration,
`**d`, the dictionary handed to other code or shown whole) may read the parameter, and the check is
silent. A tool that also reads a key its YAML does not declare is left to the rules that report
such reads (R021, R070), which name the declared parameters: one cause, one finding. A warning:
the tool works, the parameter does not.
""",
)

# Methods that read one key named by their first argument.
KEY_READERS = frozenset({"get", "pop", "setdefault", "__getitem__", "__contains__"})


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """Declared parameters no tool code reads, in every tool."""
    return unread_parameters(loaded, loaded.plugin.tools if loaded.plugin else ())


def unread_parameters(loaded: LoadedPlugin, tools: Iterable[Tool]) -> Iterator[Finding]:
    """For each of `tools` whose code reads its dictionary only under constant keys: the declared
    parameters it never reads, at their YAML lines."""
    for invoke in invokes(loaded, tools):
        if not invoke.declared:
            continue
        keys = _keys_read(loaded, invoke)
        if not keys:
            continue  # open, or no key read at all: a stub, or parameters reached in a way not read here
        if any(key not in invoke.declared for key in keys):
            continue  # a read under an undeclared name: the misspelt-read rules name both sides
        read = ", ".join(f"`{key}`" for key in sorted(keys))
        for parameter in invoke.tool.parameters:
            if parameter.name in keys:
                continue
            yield UNREAD_PARAMETER.at(
                parameter.origin, tool=invoke.tool.name, key=parameter.name, dict=invoke.dictionary, read=read
            )


def _keys_read(loaded: LoadedPlugin, invoke: Invoke) -> set[str] | None:
    """Every key the tool's code reads of its dictionary, or None when it may read keys we cannot
    name."""
    module = tool_module_tree(loaded, invoke.tool)
    if module is None:
        return None
    followed = follow(loaded, module, invoke.function, invoke.dictionary)
    scopes = [(invoke.function, invoke.dictionary), *((h.function, h.name) for h in followed.helpers)]
    keys: set[str] = set()
    for function, name in scopes:
        found = constant_reads(function, name, followed.passed.keys())
        if found is None:
            return None
        keys |= found
    return keys


def constant_reads(function: Function, name: str, followed_calls: Iterable[int]) -> set[str] | None:
    """The constant keys `function` reads of its dictionary `name`, or None for any other use
    (calls handing it to a followed function are read where that function reads it)."""
    handed = set(followed_calls)
    parents: Parents = {child: node for node in every_node(function) for child in children(node)}
    own = {id(arg) for arg in [*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs]}
    keys: set[str] = set()
    for node in every_node(function):
        if isinstance(node, ast.arg) and node.arg == name and id(node) not in own:
            return None  # a nested function's parameter of the same name: another dictionary
        if not isinstance(node, ast.Name) or node.id != name:
            continue
        if not isinstance(node.ctx, ast.Load):
            return None  # rebound: later reads may be of another dictionary
        key = _read_key(node, parents, handed)
        if key is None:
            return None
        if key:
            keys.add(key)
    return keys


def _read_key(node: ast.Name, parents: Parents, handed: set[int]) -> str | None:
    """The constant key one load of the dictionary reads; "" for a use that reads no key (a call
    handing it to a followed function, a truth test); None for a use that may read any key."""
    use = use_of(node, parents, handed)
    if use.kind in (UseKind.PASSED, UseKind.TESTED):
        return ""
    if use.kind in (UseKind.SUBSCRIPT_READ, UseKind.MEMBERSHIP):
        return use.key
    if use.kind is UseKind.METHOD and use.method in KEY_READERS:
        return use.key
    return None
