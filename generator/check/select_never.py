"""Tests of a select parameter's value against a string that none of its options is (R085): the
branch never runs (`!=`: always runs), found without running the tool."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from generator.check.common import closest_name, every_node, fold_name, tool_module_tree
from generator.check.passed_on import Scope
from generator.check.select_options import SELECT, Select, read_of, unless_empty
from generator.check.select_tests import Reading, is_none, is_refusal
from generator.check.undeclared import ADDS_UNKNOWN_KEYS, Invoke, constant
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.plugin_model import Parameter
from generator.rules import Listing, Phrase, rule

NEVER_MATCHES = rule(
    "R085",
    "select-value-never-matches",
    Severity.WARNING,
    "tool {tool} compares select parameter `{parameter}` with {literal}, which is none of its option"
    " values ({offered}): {outcome!s}",
    "Compare with one of the option values, or add {literal} to the options of `{parameter}`.",
    """
A select parameter's value is one of its options' `value`s: the workflow editor offers only those,
an agent's model is told them as the parameter's `enum`, and a form field holding anything else is
refused (`ToolManager._init_runtime_parameter` in api/core/tools/tool_manager.py: `if
parameter_value is not None and parameter_value not in options: raise ValueError(...)`); an unset
value reaches the tool as its default, or `""` (`cast_parameter_value`: `return "" if value is
None else value if isinstance(value, str) else str(value)` for a select). A test of that value
against another string (`if mode == "HTML"` where the option is `html`, `"summarise"` against
`summarize`) is false for every option (`!=`: true for every option): its branch never runs, and
the option it meant is handled by whatever runs instead.

Found without running: the value is followed as R076 follows it (`check/select_options.py`), from
its read in `_invoke` (a name bound only to that read, `read or "x"`, or string constants, which
count as values too, as does a `.get` default; one that is no constant leaves the check silent)
into the plugin's own functions it is handed to (a function also called with other values is not
read). The options of the same parameter of every other tool whose code is the same module count
as values too; a store under the key in `_invoke` (or `update`, `setdefault`) leaves the check
silent. Read as tests: `==`, `!=`, `in` or `not in` a literal list, tuple or set
(written there, or a name the module or the class binds once to one), and `match` cases. A member
of a list of several, or a key of a literal dictionary the value looks up, is reported only when it
differs by case, spacing or a small edit from an option no test names (a spare entry is harmless).
A refusal (`assert`, `if ... not in ...: raise`) is R076's. Another spelling (case, `_`, `-`,
spaces) of an option that a test also names is left alone: an agent's model fills `form: llm`
parameters, and Dify checks only form fields against the options, so code may accept both. The
option meant is named when there is one: among the options no test names, the one spelt the same
but for case, `_`, `-` and spaces, else the closest spelling (difflib's ratio of at least 0.8).

Severity: a warning; the tool runs, one of its branches is dead.
""",
)


def never_matching(
    loaded: LoadedPlugin, select: Select, readings: list[Reading]
) -> list[tuple[Finding, str | None]]:
    """The findings of literals no value of `select` passes, each with the option it was probably
    meant as; none when the value may be something else than the options and known fallbacks."""
    invoke, parameter = select.invoke, select.parameter
    possible = _possible(loaded, select.module[0], invoke, parameter, readings[0].reach.names)
    return list(_never_matching(invoke, parameter, readings, possible)) if possible is not None else []


def _never_matching(
    invoke: Invoke, parameter: Parameter, readings: list[Reading], possible: set[str]
) -> Iterator[tuple[Finding, str | None]]:
    """The findings of literals no value passes, each with the option it was probably meant as."""
    offered = [option.value for option in parameter.options]
    named = {text for reading in readings for test in reading.tests for _, text in test.literals}
    handled = {fold_name(value) for value in offered if value in named}
    unnamed = [value for value in offered if value not in named]
    for reading in readings:
        if not reading.reach.sole:
            continue  # a function also called with other values: its strings may be theirs
        for test in reading.tests:
            if is_refusal(test, reading.reach, invoke):
                continue  # R076's
            for node, text in test.literals:
                spaced = text.replace(" ", "_")
                if text in possible or fold_name(spaced) in handled:
                    continue  # another spelling of an option a test handles: a model may send it
                nearest = closest_name(spaced, unnamed)
                if nearest is None and not test.alone:
                    continue  # a spare entry of a list or a dictionary does no harm
                yield _never(invoke, parameter, reading.reach.scope, node, text, nearest, test.equal), nearest


def _never(
    invoke: Invoke,
    parameter: Parameter,
    scope: Scope,
    node: ast.AST,
    text: str,
    nearest: str | None,
    equal: bool,
) -> Finding:
    outcome = (
        "no option passes the test, so its branch never runs" if equal else "every option passes the test"
    )
    if nearest is not None:
        outcome += f", and the option `{nearest}` was probably meant"
    return NEVER_MATCHES.at(
        Location(scope.display, getattr(node, "lineno", 1), getattr(node, "col_offset", 0) + 1),
        hint=f"Compare with `{nearest}`, the option's value." if nearest is not None else None,
        tool=invoke.tool.name,
        parameter=parameter.name,
        literal=repr(text),
        offered=Listing([option.value for option in parameter.options]),
        outcome=Phrase(outcome),
    )


def _possible(
    loaded: LoadedPlugin, file: str, invoke: Invoke, parameter: Parameter, holders: frozenset[str]
) -> set[str] | None:
    """Every value the tool's code may get for the parameter: its options, "" (unset), the
    constants `_invoke` falls back to, and the options of the same parameter of every other tool
    whose code is the same module; None when one of those may be anything (a fallback that is no
    constant, another tool's parameter of that name that is no select)."""
    found = {"", *(option.value for option in parameter.options)}
    if _changed_in_place(invoke, parameter.name):
        return None
    for node in every_node(invoke.function):
        if (
            isinstance(node, ast.Call)
            and read_of(node, invoke.dictionary) == parameter.name
            and len(node.args) > 1
        ):
            found.add(constant(node.args[1]) or "")
            if constant(node.args[1]) is None and not is_none(node.args[1]):
                return None
        targets = node.targets if isinstance(node, ast.Assign) else []
        if any(isinstance(target, ast.Name) and target.id in holders for target in targets):
            assert isinstance(node, ast.Assign)  # what has targets
            found.add(constant(node.value) or constant(unless_empty(node.value)) or "")
            if isinstance(node.value, ast.BoolOp):
                found.add(constant(node.value.values[-1]) or "")
    for tool in loaded.plugin.tools if loaded.plugin else ():
        same = tool is not invoke.tool and (tool_module_tree(loaded, tool) or ("",))[0] == file
        for other in tool.parameters if same else ():
            if other.name == parameter.name and (other.type != SELECT or not other.options):
                return None
            if other.name == parameter.name:
                found.update(option.value for option in other.options)
    return found


def _changed_in_place(invoke: Invoke, key: str) -> bool:
    """True when `_invoke` may store another value under `key` in its dictionary (a store under
    that key or a computed one, `update`, `setdefault`, `|=`)."""
    for node in every_node(invoke.function):
        held = node.value if isinstance(node, ast.Subscript | ast.Attribute) else None
        if not isinstance(held, ast.Name) or held.id != invoke.dictionary:
            continue
        stored = (
            node.slice if isinstance(node, ast.Subscript) and not isinstance(node.ctx, ast.Load) else None
        )
        if stored is not None and constant(stored) in (key, None):
            return True
        if isinstance(node, ast.Attribute) and node.attr in ADDS_UNKNOWN_KEYS:
            return True
    return any(
        isinstance(node, ast.AugAssign)
        and isinstance(node.target, ast.Name)
        and node.target.id == invoke.dictionary
        for node in every_node(invoke.function)
    )
