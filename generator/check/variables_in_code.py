"""Variables a tool's `output_schema` declares that no code of the tool can set (R089), found
without running it.

A tool sets a workflow variable only with a variable message, and `code_variables` reads every such
call of the plugin's code (the tool's own module and the modules it shares, not its sibling tools'):
when each names its variable with a literal, a declared variable outside those names is never set,
whatever the inputs, and no run is needed to say so.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

from generator.check import CheckContext
from generator.check.common import every_node, tool_module_tree
from generator.findings import Finding, Severity
from generator.load.crawl import LoadedPlugin
from generator.plugin_model import Tool
from generator.rules import Listing, Phrase, rule
from generator.run.code_variables import code_variables
from generator.run.returned import declared_variables

MAX_LISTED = 12
NOT_IN_CODE = rule(
    "R089",
    "declared-variable-not-in-code",
    Severity.WARNING,
    "output_schema declares {names}, but no code of the tool sets a variable of that name{sets!s}:"
    " the next node reads None",
    "Declare the names the code sets, or set the declared ones with create_variable_message(name, ...).",
    """
A variable that `output_schema` declares can be picked in the workflow editor (Dify's tool node
lists `output_schema.properties` as the node's outputs, beside the fixed `text`, `files` and
`json`), and the node's outputs hold it only when the tool yields a variable message of that name:
`create_variable_message(name, value)` or `create_stream_variable_message(name, ...)` (the SDK's
helpers; Dify's `ToolNode` collects `VariableMessage`s into the node's outputs). The check reads
every call of these helpers in the plugin's Python files, except the modules of the plugin's other
tools that this tool does not import, and speaks only when each call names its variable with a
literal, or with the variable of a loop it sits in that runs over literal names (`for key in
mapping:` or `for key, value in mapping.items():`, where `mapping` is a dict, list or tuple written
in the same function, bound once and only read: its keys or strings are the names); a computed
name, a literal changed after it is written (`mapping[k] = ...`, `.update(...)`, handed to other
code), or a message class built by hand, may set anything: silent. A declared
variable no call names is never set on any input: the next node that reads it gets None, without
an error. A warning, at the tool's `output_schema`; runs add, as R016, the variables the code can
set but no example run set.
""",
)


JSON_HINT = (
    "{names} {are} of the JSON message the tool yields ({file}:{line}); a JSON message fills the node's"
    " `json` output, not variables: set each with create_variable_message(name, value), or remove them"
    " from output_schema's properties and read `json` in the workflow."
)


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """R089 for every tool of the plugin."""
    return variables_not_in_code(loaded, loaded.plugin.tools if loaded.plugin else ())


def variables_not_in_code(loaded: LoadedPlugin, tools: Iterable[Tool]) -> Iterator[Finding]:
    """For each of `tools`: the declared variables no code of the tool sets, in one finding."""
    for tool in tools:
        declared = declared_variables(tool.output_schema)
        if not declared or tool_module_tree(loaded, tool) is None:
            continue  # no module to read (its source rules say why): what it sets cannot be told
        in_code = code_variables(loaded, tool)
        if in_code is None:
            continue
        absent = [name for name in declared if name not in in_code]
        if not absent:
            continue
        others = sorted(in_code - set(declared))
        document = loaded.documents.get(tool.file)
        where = document.at("output_schema") if document is not None else tool.origin
        found = tool_module_tree(loaded, tool)
        keyed = _json_keys(found[1]) if found else {}
        in_json = [name for name in absent if name in keyed]
        yield NOT_IN_CODE.at(
            where,
            hint=JSON_HINT.format(
                names=Listing(in_json, most=MAX_LISTED),
                are="are keys" if len(in_json) > 1 else "is a key",
                line=keyed[in_json[0]],
                file=loaded.display_path(found[0]) if found else "",
            )
            if in_json
            else None,
            names=Listing(absent, most=MAX_LISTED),
            sets=Phrase(f" (it sets {Listing(others, most=MAX_LISTED)})" if others else ""),
        )


def _json_keys(tree: ast.Module) -> dict[str, int]:
    """The constant keys of the dictionaries written in `create_json_message(...)` calls of the
    module, with the line of the first."""
    keys: dict[str, int] = {}
    for node in every_node(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "create_json_message"
            and node.args
            and isinstance(node.args[0], ast.Dict)
        ):
            for key in node.args[0].keys:
                if isinstance(key, ast.Constant) and isinstance(key.value, str):
                    keys.setdefault(key.value, node.lineno)
    return keys
