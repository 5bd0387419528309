"""Select options the tool's code dispatches on and leaves out, with no default (R084), found without
running it: `if fmt == "csv": ... elif fmt == "json": ...` while the YAML also offers `html`.

The value's uses are read by `select_tests.py`; any escape, refusal or second read of the key
leaves the check silent. Tests against strings no option is are told first (`select_never.py`,
R085), and the option such a test meant is not told again here.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from generator.check import CheckContext
from generator.check.common import every_node
from generator.check.passed_on import follow
from generator.check.select_never import never_matching
from generator.check.select_options import FORM, Reach, reaches, select_parameters
from generator.check.select_tests import Reading, Test, is_none, is_refusal, read_value, reads_name
from generator.check.undeclared import Invoke, always_runs, shadows
from generator.check.unread_parameters import constant_reads
from generator.findings import Finding, Severity
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
(`ToolManager._init_runtime_parameter` in api/core/tools/tool_manager.py: `if not parameter_value
and parameter_value != 0:
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
the dispatch (that code is the default), and a dispatch that only adjusts what is already set. An
option that a misspelt test meant (R085: `if fmt == "HTML"` for `html`) is told there, not again
here.

Severity: a warning (the tool works for the other options); an error when the option is the default
of a `form: form` parameter and the unbound name is read on every call, in `_invoke`: every call
that leaves the field as it is fails.
""",
)
# Blocks of statements that run one after another.
BLOCKS = ("body", "orelse", "finalbody")


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
        readings = [
            read_value(reach) for reach in reaches(invoke, select.scope, parameter.name, every_call=False)
        ]
        never = never_matching(loaded, select, readings)
        yield from (finding for finding, _meant in never)
        if _closed(loaded, select.module, invoke, parameter.name, readings):
            # an option a misspelt test meant is told there (R085): one cause, one finding
            yield from _unhandled(invoke, parameter, readings, {meant for _finding, meant in never})


def _closed(
    loaded: LoadedPlugin, module: tuple[str, ast.Module], invoke: Invoke, key: str, readings: list[Reading]
) -> bool:
    """True when every use of the value is read (no escape, no refusal) and no function the
    dictionary is handed to reads the key again."""
    if any(reading.escapes for reading in readings):
        return False
    if any(is_refusal(test, reading.reach, invoke) for reading in readings for test in reading.tests):
        return False
    followed = follow(loaded, module, invoke.function, invoke.dictionary)
    handed = set(followed.passed)
    for helper in followed.helpers:
        keys = constant_reads(helper.function, helper.name, handed, helper.named)
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
        an_elif = field == "orelse" and isinstance(node, ast.If) and letting_in(node.test, tested) is not None
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
        found = letting_in(current.test, tested)
        if found is None:
            return None
        branches.append(current.body)
        literals |= found
        orelse = current.orelse
        current = orelse[0] if len(orelse) == 1 and isinstance(orelse[0], ast.If) else None
        if orelse and current is None:
            return None  # a final `else`: every other value has its branch
    return (branches, literals) if branches else None


def letting_in(test: ast.expr, tested: dict[int, Test]) -> set[str] | None:
    """The literals a test of the value lets into its branch (an `or` of such tests too); None for
    any other test."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        found: set[str] = set()
        for value in test.values:
            part = letting_in(value, tested)
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
            if value is not None and not is_none(value):
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
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return node.name == name
    return shadows(node, name)


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
            yield from (found for found in _own_nodes(later) if reads_name(found, name))
            if isinstance(later, ast.Return | ast.Raise):
                return
        if isinstance(parent, ast.For | ast.AsyncFor | ast.While | ast.Try | ast.TryStar):
            return
        node = parent


def _position(node: ast.Name) -> tuple[int, int]:
    return node.lineno, node.col_offset
