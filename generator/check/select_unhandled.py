"""Select options the tool's code dispatches on and leaves out (R084), and tests of a select's value
against a string that none of its options is (R085), found without running it.

The value is followed as R076 follows it (`select_options.reaches`: from its read in `_invoke`
through the plugin's own functions it is handed to unchanged). Every use of it there is read: a
test against string literals (`==`, `!=`, `in` a literal list, a `match` case, a key of a literal
dictionary), a truth test, a call that hands it on, a log line; any other use (handed to an API,
formatted into a URL, `.lower()`ed, compared with a computed value) lets it escape, and then no
option is called unhandled.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TypeGuard

from generator.check import CheckContext
from generator.check.common import closest_name, every_node, fold_name, tool_module_tree
from generator.check.passed_on import Scope, follow, literal_strings, owner_class
from generator.check.select_options import (
    FORM,
    SELECT,
    Reach,
    literal_dict,
    literal_keys,
    reaches,
    read_of,
    refused_by,
    select_parameters,
    unless_empty,
)
from generator.check.undeclared import (
    ADDS_UNKNOWN_KEYS,
    READER_METHODS,
    Invoke,
    Parents,
    always_runs,
    constant,
)
from generator.check.unread_parameters import constant_reads
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.plugin_model import Option, Parameter
from generator.rules import Listing, Phrase, rule

UNHANDLED_OPTION = rule(
    "R084",
    "select-option-unhandled",
    Severity.WARNING,
    "tool {tool} offers `{option}` for select parameter `{parameter}`, but the dispatch on it at"
    " {place} names only {named} and has no default: {outcome!s}",
    "Handle `{option}` where the code dispatches on `{parameter}` (a branch for it, or a final"
    " `else`), or drop it from the options.",
    """
Users pick a select parameter's value among its `options` (the workflow editor lists them, an
agent's model gets them as the parameter's `enum`: see R076), and `_invoke` receives the picked
option's `value`, a string. A form field left as it is carries the declared default
(`ToolManager._init_runtime_parameter`: `if not parameter_value and parameter_value != 0:
parameter_value = parameter_rule.default`), and a form field's value is one of the options or Dify
refuses the call (`if parameter_value is not None and parameter_value not in options: raise
ValueError(f"tool parameter {parameter_rule.name} value
{parameter_value} not in options {options}")`).

When the tool's code then dispatches on the value (`if fmt == "csv": ... elif fmt == "json":
...`, consecutive `if`s, or a `match`) and names two or more of the options but not one that the
YAML also offers, with no `else` (or `case _`), that option gets what the dispatch leaves behind:
- nothing, when every branch yields or returns a result and nothing follows the dispatch in its
  function: the tool answers without any of the messages the branches yield (or the function
  returns None);
- an UnboundLocalError, when every branch binds a name that nothing else binds and a later line
  reads it.

Found without running: the value is followed as R076 follows it (`check/select_options.py`,
`check/passed_on.py`), and the check speaks only when every use of it there is read: tests against
string literals, truth tests, calls that hand it on, log lines, error messages and the messages
the tool yields (which show it, and handle nothing). A value also used otherwise (passed
whole to an API, formatted into a URL, lowered, compared with a computed value), read again in a
function the dictionary is handed to, or tested by a refusal (R076's) leaves the check silent, as do
an option named by any test of the value, a branch that ends the function before the code after
the dispatch (that code is the default), and a dispatch that only adjusts what is already set.

Severity: a warning (the tool works for the other options); an error when the option is the default
of a `form: form` parameter and the unbound name is read on every call, in `_invoke`: every call
that leaves the field as it is fails.
""",
)
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
refused (`ToolManager._init_runtime_parameter`: `if parameter_value is not None and parameter_value
not in options: raise ValueError(...)`); an unset value reaches the tool as its default, or `""`
(`cast_parameter_value`: `return "" if value is None else value if isinstance(value, str) else
str(value)` for a select). A test of that value against another string (`if mode == "HTML"`
where the option is `html`, `"summarise"` against `summarize`) is never true (`!=`, always true):
its branch never runs, and the option it meant is handled by whatever runs instead.

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
A refusal (`assert`, `if ... not in ...: raise`) is R076's. The nearest option (by case, `_`, `-` and
spaces, else difflib's ratio of at least 0.8) is named when there is one.

Severity: a warning; the tool runs, one of its branches is dead.
""",
)
LOGGERS = frozenset({"print"})
LOG_METHODS = READER_METHODS - {"dumps"}
# The operators of a test, by whether its branch runs for the literals or for every other value.
EQUAL = (ast.Eq, ast.In)
UNEQUAL = (ast.NotEq, ast.NotIn)
# Expressions that only carry the value into the text or the literal around it.
SHOWING = (ast.FormattedValue, ast.JoinedStr, ast.Dict, ast.List, ast.Tuple)
# Blocks of statements that run one after another.
BLOCKS = ("body", "orelse", "finalbody")


@dataclass(frozen=True, slots=True)
class Test:
    """One test of the value against string literals: each literal's node and text, whether the
    branch runs for the literals (`equal`) or for every other value, whether its literals are a
    dictionary's keys, (for a `match`) whether a last case takes every other value, and whether
    each literal is alone in letting a value into its branch."""

    node: ast.AST
    literals: tuple[tuple[ast.AST, str], ...]
    equal: bool
    keys: bool = False
    default: bool = False
    alone: bool = True


@dataclass(frozen=True, slots=True)
class Reading:
    """What the walk learnt of one function the value reaches: its tests, and whether the value
    escapes there (a use that is not a test, a truth test, a log line or a call followed)."""

    reach: Reach
    tests: tuple[Test, ...]
    escapes: bool


@dataclass(frozen=True, slots=True)
class Dispatch:
    """Consecutive `if`/`elif` chains (or one `match`) whose every test lets only literals of the
    value in, with no default: the branches, the literals they name, the first and last statement."""

    branches: tuple[list[ast.stmt], ...]
    named: frozenset[str]
    first: ast.stmt
    last: ast.stmt


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """Options no dispatch handles, and tests no option passes, in every tool."""
    for select in select_parameters(loaded):
        invoke, parameter = select.invoke, select.parameter
        readings = [_read(reach) for reach in reaches(invoke, select.scope, parameter.name, every_call=False)]
        possible = _possible(loaded, select.module[0], invoke, parameter, readings[0].reach.names)
        never = list(_never_matching(invoke, parameter, readings, possible)) if possible is not None else []
        yield from (finding for finding, _meant in never)
        if _closed(loaded, select.module, invoke, parameter.name, readings):
            # an option a misspelt test meant is told there (R085): one cause, one finding
            yield from _unhandled(invoke, parameter, readings, {meant for _finding, meant in never})


def _read(reach: Reach) -> Reading:
    tests: list[Test] = []
    escapes = False
    for use in _uses(reach):
        found = _test(use, reach)
        if found is not None:
            tests.append(found)
        elif not _harmless(use, reach):
            escapes = True
    return Reading(reach, tuple(tests), escapes)


def _uses(reach: Reach) -> Iterator[ast.expr]:
    """Every load of a name holding the value, and in `_invoke` every read of it from the
    dictionary."""
    for node in every_node(reach.function):
        if not isinstance(node, ast.expr):
            continue
        if _reads(node, *reach.names) or (reach.direct and read_of(node, reach.direct[0]) == reach.direct[1]):
            yield node


def _test(use: ast.expr, reach: Reach) -> Test | None:
    parent = reach.parents.get(use)
    if isinstance(parent, ast.Compare) and len(parent.ops) == 1:
        return _compared(parent, use, reach)
    if isinstance(parent, ast.Match) and parent.subject is use:
        return _matched(parent)
    if isinstance(parent, ast.Subscript) and parent.slice is use and isinstance(parent.ctx, ast.Load):
        return _looked_up(parent, parent.value, reach)
    if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Attribute) and parent.func.attr == "get":
        return _looked_up(parent, parent.func.value, reach) if parent.args and parent.args[0] is use else None
    return None


def _compared(compare: ast.Compare, use: ast.expr, reach: Reach) -> Test | None:
    operator = compare.ops[0]
    other = compare.comparators[0] if compare.left is use else compare.left
    literal = _named_literal(other, reach)
    if isinstance(operator, ast.In | ast.NotIn):
        if compare.left is not use or literal_strings(literal) is None:
            return None
        elements = literal.elts if isinstance(literal, ast.List | ast.Tuple | ast.Set) else []
        # a literal written here is shown where it is; one a name holds, where the name is used
        shown = [element if literal is other else other for element in elements]
        literals = tuple((at, constant(element) or "") for at, element in zip(shown, elements, strict=True))
        return Test(compare, literals, isinstance(operator, ast.In), alone=len(elements) == 1)
    text = constant(literal)
    if not isinstance(operator, ast.Eq | ast.NotEq) or text is None:
        return None
    return Test(compare, ((other, text),), isinstance(operator, ast.Eq))


def _named_literal(node: ast.expr, reach: Reach) -> ast.expr:
    """The literal a name stands for when the module's top level (`MODE = "csv"`) or the class of
    the function (`self.MODE`, `MODE = "csv"` in its body) binds it once and nothing else binds or
    changes it; else `node` itself."""
    tree = reach.scope.tree
    if isinstance(node, ast.Name):
        body: list[ast.stmt] = tree.body
        name = node.id
    elif (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id in ("self", "cls")
    ):
        owner = owner_class(tree, reach.function)
        body, name = (owner.body if owner is not None else []), node.attr
    else:
        return node
    bound = [
        statement.value
        for statement in body
        if isinstance(statement, ast.Assign)
        and [target.id for target in statement.targets if isinstance(target, ast.Name)] == [name]
    ]
    if len(bound) != 1 or _bound_elsewhere(tree, name):
        return node
    return bound[0]


def _bound_elsewhere(tree: ast.Module, name: str) -> bool:
    """True when the module binds `name` more than once (as a name or an attribute) or calls a
    method on it (`MODES.append(...)`)."""
    stores = 0
    for node in every_node(tree):
        if isinstance(node, ast.Name | ast.Attribute) and not isinstance(node.ctx, ast.Load):
            stores += (node.id if isinstance(node, ast.Name) else node.attr) == name
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name | ast.Attribute):
            held = node.value.id if isinstance(node.value, ast.Name) else node.value.attr
            stores += held == name and node.attr not in ("get", "keys", "values", "items", "format")
        elif isinstance(node, ast.Global | ast.Nonlocal):
            stores += name in node.names
    return stores != 1


def _matched(match: ast.Match) -> Test | None:
    """A `match` on the value whose cases are string literals, but for a last `case _` (or a
    capture) that takes every other value; None when a case is anything else."""
    literals: list[tuple[ast.AST, str]] = []
    cases = match.cases
    last = cases[-1].pattern if cases else None
    default = isinstance(last, ast.MatchAs) and last.pattern is None
    for case in cases[:-1] if default else cases:
        patterns = case.pattern.patterns if isinstance(case.pattern, ast.MatchOr) else [case.pattern]
        for pattern in patterns:
            text = constant(pattern.value) if isinstance(pattern, ast.MatchValue) else None
            if text is None:
                return None
            literals.append((pattern, text))
    alone = not any(isinstance(case.pattern, ast.MatchOr) for case in cases)
    return Test(match, tuple(literals), True, default=default, alone=alone)


def _looked_up(node: ast.AST, dictionary: ast.expr, reach: Reach) -> Test | None:
    found = literal_dict(dictionary, reach.scope.tree)
    if found is None or literal_keys(dictionary, reach.scope.tree) is None:
        return None
    keys = tuple((key, constant(key) or "") for key in found.keys if key is not None)
    return Test(node, keys, True, keys=True, alone=False)


def _harmless(use: ast.expr, reach: Reach) -> bool:
    """True for a use that neither tests the value against a string nor lets it go where we cannot
    follow it: bound to a holder, a truth test, a test against None, handed to a function followed,
    shown in a log line, an exception's message or a message yielded."""
    parent = reach.parents.get(use)
    if isinstance(parent, ast.BoolOp) and unless_empty(parent) is use:
        use, parent = parent, reach.parents.get(parent)  # `read or "constant"`, bound to a holder
    if isinstance(parent, ast.Assign | ast.AnnAssign) and parent.value is use:
        targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
        return all(isinstance(target, ast.Name) and target.id in reach.names for target in targets)
    if isinstance(parent, ast.If | ast.While | ast.IfExp | ast.Assert) and parent.test is use:
        return True
    if isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not):
        return True
    if isinstance(parent, ast.BoolOp) and isinstance(
        reach.parents.get(parent), ast.If | ast.While | ast.IfExp
    ):
        return True
    if isinstance(parent, ast.Compare) and len(parent.ops) == 1:
        other = parent.comparators[0] if parent.left is use else parent.left
        return isinstance(other, ast.Constant) and other.value is None
    call = reach.parents.get(parent) if isinstance(parent, ast.keyword) else parent
    if isinstance(call, ast.Call) and id(call) in reach.handing:
        return True
    return _logged(use, reach.parents)


def _logged(use: ast.expr, parents: Parents) -> bool:
    """True when the value is only shown: in a log line (`logger.info(f"mode {mode}")`, `print`),
    in the message of an exception raised, or in a message the tool yields (`create_*_message`,
    inside an f-string or a literal), where it tells the user what was picked but handles nothing."""
    node: ast.AST = use
    parent = parents.get(use)
    while isinstance(parent, SHOWING) and (not isinstance(parent, ast.Dict) or node in parent.values):
        node, parent = parent, parents.get(parent)
    if isinstance(parent, ast.keyword):
        node, parent = parent, parents.get(parent)
    if not isinstance(parent, ast.Call) or (node not in parent.args and node not in parent.keywords):
        return False
    func = parent.func
    if isinstance(func, ast.Attribute) and func.attr.startswith("create_") and func.attr.endswith("_message"):
        return True
    if node not in parent.args:
        return False
    if isinstance(parents.get(parent), ast.Raise):
        return True
    if isinstance(func, ast.Name):
        return func.id in LOGGERS
    return isinstance(func, ast.Attribute) and func.attr in LOG_METHODS


def _refusal(test: Test, reach: Reach, invoke: Invoke) -> bool:
    """True for a test R076 reads as a refusal: a subscript of a dictionary (a KeyError for any
    other value), an `assert`, an `if` that raises."""
    if isinstance(test.node, ast.Subscript):
        return True
    statement = reach.parents.get(test.node)
    in_invoke = reach.function is invoke.function
    return statement is not None and refused_by(statement, reach, in_invoke) is not None


# -- R085: tests no value passes --------------------------------------------------------------------


def _never_matching(
    invoke: Invoke, parameter: Parameter, readings: list[Reading], possible: set[str]
) -> Iterator[tuple[Finding, str | None]]:
    """The findings of literals no value passes, each with the option it was probably meant as."""
    offered = [option.value for option in parameter.options]
    named = {text for reading in readings for test in reading.tests for _, text in test.literals}
    unnamed = [value for value in offered if value not in named]
    for reading in readings:
        if not reading.reach.sole:
            continue  # a function also called with other values: its strings may be theirs
        for test in reading.tests:
            if _refusal(test, reading.reach, invoke):
                continue  # R076's
            for node, text in test.literals:
                # a spare member beside the option it spells otherwise (`in ("png", "PNG")`) is
                # harmless: only an option no test names counts there
                nearest = _meant(text, offered if test.alone else unnamed, unnamed)
                if text in possible or (not test.alone and nearest is None):
                    continue  # a spare entry of a list or a dictionary does no harm
                yield _never(invoke, parameter, reading.reach.scope, node, text, nearest, test.equal), nearest


def _meant(text: str, offered: list[str], unnamed: list[str]) -> str | None:
    """The option `text` was probably meant as: one that differs only by case, `_`, `-` or spaces,
    else the closest spelling among the options no test names (one a test names is handled)."""
    spaced = text.replace(" ", "_")
    same = [value for value in offered if fold_name(value) == fold_name(spaced)]
    return same[0] if same else closest_name(spaced, unnamed)


def _never(
    invoke: Invoke,
    parameter: Parameter,
    scope: Scope,
    node: ast.AST,
    text: str,
    nearest: str | None,
    equal: bool,
) -> Finding:
    outcome = "the test is never true" if equal else "the test is always true"
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
            if constant(node.args[1]) is None and not _is_none(node.args[1]):
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


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


# -- R084: options a dispatch leaves out ------------------------------------------------------------


def _closed(
    loaded: LoadedPlugin, module: tuple[str, ast.Module], invoke: Invoke, key: str, readings: list[Reading]
) -> bool:
    """True when every use of the value is read (no escape, no refusal) and no function the
    dictionary is handed to reads the key again."""
    if any(reading.escapes for reading in readings):
        return False
    if any(_refusal(test, reading.reach, invoke) for reading in readings for test in reading.tests):
        return False
    followed = follow(loaded, module, invoke.function, invoke.dictionary)
    handed = set(followed.passed)
    for helper in followed.helpers:
        keys = constant_reads(helper.function, helper.name, handed)
        if keys is None or key in keys:
            return False
    return constant_reads(invoke.function, invoke.dictionary, handed) is not None


def _unhandled(
    invoke: Invoke, parameter: Parameter, readings: list[Reading], meant: set[str | None]
) -> Iterator[Finding]:
    offered = {option.value for option in parameter.options}
    named = {text for reading in readings for test in reading.tests for _, text in test.literals}
    told: set[str] = {value for value in meant if value is not None}
    for reading in readings:
        for dispatch in _dispatches(reading):
            if len(dispatch.named & offered) < 2:
                continue  # one special case, not a dispatch over the options
            for option in parameter.options:
                if not option.value or option.value in named or option.value in told:
                    continue
                found = _outcome(dispatch, reading.reach, invoke, parameter, option)
                if found is not None:
                    told.add(option.value)
                    yield found


def _dispatches(reading: Reading) -> Iterator[Dispatch]:
    """Each run of consecutive chains in a block of the function (a chain's `elif`s are its own)."""
    tested = {id(test.node): test for test in reading.tests if not test.keys}
    for node in every_node(reading.reach.function):
        for block in _blocks(node, tested):
            yield from _runs(block, tested)


def _blocks(node: ast.AST, tested: dict[int, Test]) -> Iterator[list[ast.stmt]]:
    for field in BLOCKS:
        block = getattr(node, field, None)
        an_elif = (
            field == "orelse" and isinstance(node, ast.If) and _letting_in(node.test, tested) is not None
        )
        if isinstance(block, list) and not an_elif:
            yield block


def _runs(block: list[ast.stmt], tested: dict[int, Test]) -> Iterator[Dispatch]:
    run: list[ast.stmt] = []
    branches: list[list[ast.stmt]] = []
    names: set[str] = set()
    for statement in [*block, None]:
        found = _chain(statement, tested) if statement is not None else None
        if found is not None and statement is not None:
            run.append(statement)
            branches.extend(found[0])
            names |= found[1]
            continue
        if run:
            yield Dispatch(tuple(branches), frozenset(names), run[0], run[-1])
        run, branches, names = [], [], set()


def _chain(statement: ast.stmt, tested: dict[int, Test]) -> tuple[list[list[ast.stmt]], set[str]] | None:
    """The branches of an `if`/`elif` chain (or a `match`) whose every test lets only literals in,
    and those literals; None when it is no such chain or has a default."""
    if isinstance(statement, ast.Match):
        test = tested.get(id(statement))
        if test is None or test.default:
            return None
        return [case.body for case in statement.cases], {text for _, text in test.literals}
    branches: list[list[ast.stmt]] = []
    literals: set[str] = set()
    current: ast.stmt | None = statement
    while isinstance(current, ast.If):
        found = _letting_in(current.test, tested)
        if found is None:
            return None
        branches.append(current.body)
        literals |= found
        orelse = current.orelse
        current = orelse[0] if len(orelse) == 1 and isinstance(orelse[0], ast.If) else None
        if orelse and current is None:
            return None  # a final `else`: every other value has its branch
    return (branches, literals) if branches else None


def _letting_in(test: ast.expr, tested: dict[int, Test]) -> set[str] | None:
    """The literals a test of the value lets into its branch (an `or` of such tests too); None for
    any other test."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        found: set[str] = set()
        for value in test.values:
            part = _letting_in(value, tested)
            if part is None:
                return None
            found |= part
        return found
    one = tested.get(id(test))
    return {text for _, text in one.literals} if one is not None and one.equal else None


def _outcome(
    dispatch: Dispatch, reach: Reach, invoke: Invoke, parameter: Parameter, option: Option
) -> Finding | None:
    """The finding for an option the dispatch leaves out, when what it then gets is plain."""
    severity: Severity | None = None
    if _ends_function(dispatch.last, reach) and all(_produces(branch) for branch in dispatch.branches):
        in_invoke = reach.function is invoke.function
        gives = (
            "it gets none of the messages they yield"
            if in_invoke
            else f"`{reach.function.name}()` returns None"
        )
        outcome = f"picking it, no branch runs and nothing follows the dispatch, so {gives}"
    else:
        unbound = _unbound_read(dispatch, reach)
        if unbound is None:
            return None
        name, read = unbound
        outcome = f"picking it, no branch binds `{name}`, so line {read.lineno} raises UnboundLocalError"
        if _every_default_call(dispatch, read, reach, invoke, parameter, option):
            severity = Severity.ERROR
            outcome += "; it is the field's default, so every call that leaves the field as it is fails"
    return UNHANDLED_OPTION.at(
        option.origin,
        severity,
        tool=invoke.tool.name,
        option=option.value,
        parameter=parameter.name,
        place=f"{reach.scope.display}:{dispatch.first.lineno}",
        named=Listing(sorted(dispatch.named)),
        outcome=Phrase(outcome),
    )


def _every_default_call(
    dispatch: Dispatch, read: ast.Name, reach: Reach, invoke: Invoke, parameter: Parameter, option: Option
) -> bool:
    """True when the option is a form field's default and `_invoke` runs the dispatch and the read
    on every call."""
    return (
        parameter.form == FORM
        and str(parameter.default) == option.value
        and reach.function is invoke.function
        and always_runs(dispatch.first, reach.function, reach.parents)
        and always_runs(read, reach.function, reach.parents)
    )


def _block_of(node: ast.AST, parent: ast.AST | None, fields: tuple[str, ...]) -> list[ast.stmt] | None:
    for field in fields:
        block = getattr(parent, field, None)
        if isinstance(block, list) and node in block:
            return block
    return None


def _ends_function(statement: ast.stmt, reach: Reach) -> bool:
    """True when nothing runs after `statement` in its function: it is the last of its block, and
    so is each statement around it (a `with`, a loop, an `if`, a `try` with no `else` or
    `finally`)."""
    node: ast.AST = statement
    while node is not reach.function:
        parent = reach.parents.get(node)
        if isinstance(parent, ast.Try | ast.TryStar) and (parent.orelse or parent.finalbody):
            return False
        block = _block_of(node, parent, ("body", "orelse"))
        if parent is None or block is None or block[-1] is not node:
            return False
        node = parent
    return True


def _produces(branch: list[ast.stmt]) -> bool:
    """True when a branch yields or returns a value (outside functions defined in it)."""
    for statement in branch:
        for node in _own_nodes(statement):
            if isinstance(node, ast.Yield | ast.YieldFrom):
                return True
            value = node.value if isinstance(node, ast.Return) else None
            if value is not None and not _is_none(value):
                return True
    return False


def _own_nodes(node: ast.AST) -> Iterator[ast.AST]:
    """`node` and what is below it, leaving out functions, lambdas and classes defined there."""
    pending = [node]
    while pending:
        current = pending.pop()
        yield current
        if current is node or not isinstance(current, DEFINITIONS):
            pending.extend(ast.iter_child_nodes(current))


DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _unbound_read(dispatch: Dispatch, reach: Reach) -> tuple[str, ast.Name] | None:
    """A name every branch binds, that nothing else in the function binds, and a read of it after
    the dispatch that runs when no branch did."""
    common = set.intersection(*(_bound(branch) for branch in dispatch.branches))
    inside = {
        id(node) for branch in dispatch.branches for statement in branch for node in every_node(statement)
    }
    for name in sorted(common):
        if any(id(node) not in inside for node in every_node(reach.function) if _binds(node, name)):
            continue
        read = _read_after(dispatch.last, name, reach)
        if read is not None:
            return name, read
    return None


def _binds(node: ast.AST, name: str) -> bool:
    if isinstance(node, ast.Name):
        return node.id == name and not isinstance(node.ctx, ast.Load)
    if isinstance(node, ast.arg):
        return node.arg == name
    return isinstance(node, ast.Global | ast.Nonlocal) and name in node.names


def _bound(branch: list[ast.stmt]) -> set[str]:
    """Names a branch binds by a plain assignment among its own statements."""
    found: set[str] = set()
    for statement in branch:
        if isinstance(statement, ast.Assign):
            found |= {target.id for target in statement.targets if isinstance(target, ast.Name)}
        elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
            found |= {statement.target.id} if isinstance(statement.target, ast.Name) else set()
    return found


def _read_after(statement: ast.stmt, name: str, reach: Reach) -> ast.Name | None:
    """A read of `name` in the statements after `statement` (in its block, then in the blocks
    around it), before any `return` or `raise` among them: one that runs on every call of the
    function when there is one, else the first; None past a loop or a `try`, where what runs
    next is not plainly the next line."""
    reads = sorted(_reads_after(statement, name, reach), key=_position)
    every = [read for read in reads if always_runs(read, reach.function, reach.parents)]
    chosen = every or reads
    return chosen[0] if chosen else None


def _reads_after(statement: ast.stmt, name: str, reach: Reach) -> Iterator[ast.Name]:
    node: ast.AST = statement
    while node is not reach.function:
        parent = reach.parents.get(node)
        block = _block_of(node, parent, BLOCKS)
        if parent is None or block is None:
            return
        for later in block[[id(s) for s in block].index(id(node)) + 1 :]:
            yield from (found for found in _own_nodes(later) if _reads(found, name))
            if isinstance(later, ast.Return | ast.Raise):
                return
        if isinstance(parent, ast.For | ast.AsyncFor | ast.While | ast.Try | ast.TryStar):
            return
        node = parent


def _position(node: ast.Name) -> tuple[int, int]:
    return node.lineno, node.col_offset


def _reads(node: ast.AST, *names: str) -> TypeGuard[ast.Name]:
    return isinstance(node, ast.Name) and node.id in names and isinstance(node.ctx, ast.Load)
