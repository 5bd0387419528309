"""Optional credentials the code treats as required (R093, R094).

A provider declares each credential `required: true` or not; Dify's form lets the user leave an
optional one blank, and then sends no key for it at all (the form's values hold only the fields
the user typed in and the declared defaults; the API adds the declared default, nothing else). Code
that reads such a credential as if it were always there fails for every user who leaves it blank:
a subscript raises KeyError (R093), a refusal `if not credentials.get("x"): raise ...` or a value
used as a string (`.get("x").rstrip("/")`) stops `_validate_credentials` or the tool (R094).

The reading of the credentials is credential_reads' (R072): `self.runtime.credentials`, a name bound
to it, and the credentials parameter of the provider's `_validate_credentials`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from generator.check import CheckContext
from generator.check.common import children, every_node, module_tree
from generator.check.credential_reads import (
    Kind,
    Read,
    Reading,
    credential_reading,
    declared_items,
    is_credentials,
)
from generator.check.optional_reads import read_handler
from generator.check.passed_on import literal_strings
from generator.check.undeclared import Function, Parents, always_runs
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.plugin_model import Provider
from generator.rules import Phrase, rule

DIFY_SENDS = """
What Dify sends for an optional credential the user leaves blank, read in Dify's source: the
credentials form (web/app/components/plugins/plugin-auth/authorize/api-key-modal.tsx) starts from
`defaultValues`, `if (schema.default) acc[schema.name] = schema.default`, and submits
`form.store.state.values` (base/form/hooks/use-get-form-values.ts): a field the user never typed
in has no key at all (the earlier drawer, tools/setting/build-in/config-credentials.tsx, did the
same through `addDefaultValue`). The API then calls `validate_credentials_format`
(api/core/tools/__base/tool_provider.py), which adds only declared defaults: `if
credential_schema.required: raise ToolProviderCredentialValidationError(f"credential
{credential_name} is required")`, else `if credential_schema.default is not None: ...
credentials[credential_name] = default_value`; the encrypter touches only the keys present (`if
field_name in data:`), and the daemon and the SDK hand the plugin that dictionary unchanged
(`ToolRuntime(credentials=request.credentials, ...)`, `provider_instance.validate_credentials(
data.credentials)`). So a blank optional credential without a `default` is absent from the
dictionary; one the user typed in and erased arrives empty ("").
"""

OPTIONAL_CREDENTIAL_SUBSCRIPT = rule(
    "R093",
    "optional-credential-subscript",
    Severity.ERROR,
    "{scope} reads {read}, an optional credential ({declared}), as if it were always set: {outcome!s}",
    'Read it with {dict}.get("{key}") and handle an empty value (None or ""), or declare it'
    " `required: true` (or give it a `default:`) in {file}.",
    f"""
A credential the provider declares without `required: true` and without a `default` may be left
blank, and then Dify passes no such key: `credentials["x"]` raises KeyError for every user who
leaves it blank. In `_validate_credentials` Dify then refuses to save the credentials (the
KeyError, or the validation error a handler raises in its place, is the answer to the save), so
the field is in fact required; in a tool, every call fails.
{DIFY_SENDS}
Found without running, in the provider's file and its tools' files, with R072's reading of the
credentials. An error when the read runs whenever Dify calls the function that holds it (directly in
`_validate_credentials` or a tool's `_invoke`, after no `return` or `raise`, inside a `try` only
when every handler ends in `raise`); a warning when it sits in a branch, a loop or a helper, or a
handler that carries on runs instead. Silent for a key the same function also reads with `.get` or
tests with `in` (the read may well be guarded), a key the code stores itself, a handler that gives
the name a default, and a provider with `oauth_schema`.

A `.get("x", "fallback")` is not reported: the fallback applies to a blank field the user never
typed in, though not to one typed in and erased ("", not absent).
""",
)
OPTIONAL_CREDENTIAL_REFUSED = rule(
    "R094",
    "optional-credential-refused",
    Severity.ERROR,
    "{scope} treats {key}, an optional credential ({declared}), as required: {what!s}; {outcome!s}",
    "Accept an empty {key} (leave out the check, or fall back to a default), or declare it"
    " `required: true` in {file}.",
    f"""
The provider declares the credential without `required: true` (and without a `default`), so Dify's
form lets the user leave it blank, and Dify passes no key for it. Code that refuses an empty value,
`if not credentials.get("x"): raise ToolProviderCredentialValidationError(...)` (also `is None`,
`== ""`, `"x" not in credentials`, one side of an `or`, `not (x and y)`, `not all([x, y])`, a loop
over a literal list of names, `for k in ["api_key", "x"]: if not credentials.get(k): raise ...`),
or that uses `.get("x")` as a string
(`.get("x").rstrip("/")`, `int(...)`, `float(...)`, `json.loads(...)`, `"Bearer " + ...`), stops
for every user who leaves it blank: in `_validate_credentials` Dify refuses to save the
credentials, so the field the form calls optional is required; in a tool, every call fails.
{DIFY_SENDS}
Found without running, with R072's reading of the credentials (a name bound once to
`credentials.get("x")` counts as the value). A refusal in `_validate_credentials` is an error when
it runs whenever Dify validates (see R093), and is not reported inside another branch (a
credential required only with some other setting is a design, not a defect). In a tool, a
refusal (an `if` that raises, or answers and ends in `return`) is a warning, told only when it runs
on every call of `_invoke` and every tool of the provider refuses the same credential so: then no
tool works without it, and the form that calls it optional misleads every user; when some tool does
without it, the provider may well declare it optional for that tool's sake. A value used as a
string is an error when it runs on every call of `_validate_credentials` or `_invoke`, else a
warning, and is not reported when the code tests the value anywhere in the function.
""",
)
# Calls that fail on None (and, but for json.loads, on "").
CONVERSIONS = frozenset({"int", "float"})


@dataclass(frozen=True, slots=True)
class Value:
    """What an expression holds: an optional credential's value, and whether it is None when the
    credential is left blank (a `.get` without fallback) rather than a "" fallback."""

    key: str
    none: bool


@dataclass(frozen=True, slots=True)
class Place:
    """A finding's shared facts: the provider, its optional credentials and the reading."""

    loaded: LoadedPlugin
    provider: Provider
    optional: Mapping[str, Mapping[str, object]]
    reading: Reading

    def declared(self, key: str) -> str:
        said = "required: false" if self.optional[key].get("required") is False else "no `required:`"
        return f"{said}, no default"


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """Optional credentials read or checked as if they were always set."""
    for provider in loaded.plugin.providers if loaded.plugin else ():
        items = declared_items(loaded, provider) or {}
        optional = {
            name: item
            for name, item in items.items()
            if item.get("required") is not True and item.get("default") is None
        }
        reading = credential_reading(loaded, provider) if optional else None
        if reading is None:
            continue
        place = Place(loaded, provider, optional, reading)
        yield from _subscripts(place)
        refused: dict[str, list[Refused]] = {}
        told: set[tuple[int, str]] = set()
        yield from _loop_refusals(place, refused, told)
        for function in {id(read.function): read.function for read in reading.reads}.values():
            yield from _refusals(place, function, refused, {key for at, key in told if at == id(function)})
        yield from _tool_refusals(place, refused)


def _loop_refusals(
    place: Place, refused: dict[str, list[Refused]], told: set[tuple[int, str]]
) -> Iterator[Finding]:
    """R094 at a loop over a literal list of credential names that refuses each one left blank
    (`for key in ["api_key", "region"]: if not credentials.get(key): raise ...`), for each
    optional credential of the list; `told` gets (function id, key) of each."""
    provider, loaded = place.provider, place.loaded
    sources = dict.fromkeys([provider.source, *(tool.source for tool in provider.reachable_tools)])
    for source in sources:
        found = module_tree(loaded, source) if source else None
        if found is None:
            continue
        display, validating = loaded.display_path(found[0]), source == provider.source
        for function in every_node(found[1]):
            if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            names = place.reading.names.get(id(function), set())
            entry = function.name == ("_validate_credentials" if validating else "_invoke")
            parents = _parents(function)
            for loop, test, keys in _looped_refusals(function, names, not entry or not validating):
                certain = entry and always_runs(loop, function, parents, failing=True)
                for key in keys:
                    if key not in place.optional or (id(function), key) in told or not certain:
                        continue
                    told.add((id(function), key))
                    read = Read(display, test, key, False, Kind.GET, function, entry)
                    what = f"`for {ast.unparse(loop.target)} in {ast.unparse(loop.iter)}:`"
                    what += f" with `if {ast.unparse(test)}:` stops when it is blank"
                    if not validating:
                        refused.setdefault(key, []).append(Refused(read, test, what))
                        continue
                    outcome = _outcome(read, certain, 0, "the check raises")
                    yield _refused(place, Refused(read, test, what), certain, outcome)


def _looped_refusals(
    function: Function, names: set[str], answers: bool
) -> Iterator[tuple[ast.For, ast.expr, frozenset[str]]]:
    """(the loop, the test, the names) for each `for v in <literal list of strings>:` whose body
    holds an `if` that refuses a blank `credentials[v]` (raises, or with `answers`, ends in
    `return`) and no `break` or `continue` that could skip it."""
    for loop in every_node(function):
        if not isinstance(loop, ast.For) or not isinstance(loop.target, ast.Name):
            continue
        strings = literal_strings(loop.iter) or _literal_name(function, loop.iter)
        if not strings or any(isinstance(node, ast.Break | ast.Continue) for node in every_node(loop)):
            continue
        for statement in loop.body:
            if not isinstance(statement, ast.If) or not _stops(statement, answers):
                continue
            tests = (
                statement.test.values
                if isinstance(statement.test, ast.BoolOp) and isinstance(statement.test.op, ast.Or)
                else [statement.test]
            )
            if any(_blank_under(test, loop.target.id, names) for test in tests):
                yield loop, statement.test, strings
                break


def _literal_name(function: Function, node: ast.expr) -> frozenset[str] | None:
    """The strings of the literal list a name is bound to, once, in the function."""
    if not isinstance(node, ast.Name):
        return None
    values = [
        statement.value
        for statement in every_node(function)
        if isinstance(statement, ast.Assign) and any(_named(target, node.id) for target in statement.targets)
    ]
    stores = [
        n
        for n in every_node(function)
        if isinstance(n, ast.Name) and n.id == node.id and not isinstance(n.ctx, ast.Load)
    ]
    return literal_strings(values[0]) if len(values) == 1 and len(stores) == 1 else None


def _named(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _stops(statement: ast.If, answers: bool) -> bool:
    """True when the `if` raises, or (with `answers`, in a tool) ends in `return`."""
    raises = any(isinstance(node, ast.Raise) for node in statement.body)
    return raises or (answers and isinstance(statement.body[-1], ast.Return))


def _blank_under(test: ast.expr, variable: str, names: set[str]) -> bool:
    """True for a test that is true when the credential named by `variable` is blank: `not
    credentials.get(v)`, `not credentials[v]`, `v not in credentials`, `credentials.get(v) is None`."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _looked_up_under(test.operand, variable, names)
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        right = test.comparators[0]
        if isinstance(test.ops[0], ast.NotIn):
            return _named(test.left, variable) and is_credentials(right, names)
        if isinstance(test.ops[0], ast.Is) and isinstance(right, ast.Constant) and right.value is None:
            return _looked_up_under(test.left, variable, names)
    return False


def _looked_up_under(node: ast.expr, variable: str, names: set[str]) -> bool:
    """True for `credentials.get(v)` (no fallback) or `credentials[v]`."""
    if isinstance(node, ast.Subscript):
        return _named(node.slice, variable) and is_credentials(node.value, names)
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get"
        and len(node.args) == 1
        and _named(node.args[0], variable)
        and is_credentials(node.func.value, names)
    )


def _subscripts(place: Place) -> Iterator[Finding]:
    """R093: subscript reads of optional credentials, one per key and function."""
    reads = place.reading.reads
    named = {(id(read.function), read.key) for read in reads if read.kind in (Kind.GET, Kind.TEST)}
    told: set[tuple[int, str]] = set()
    for read in reads:
        at = (id(read.function), read.key)
        if (
            read.kind is not Kind.SUBSCRIPT
            or read.key not in place.optional
            or _stored_before(read, reads)
            or at in named
            or at in told
        ):
            continue
        parents = _parents(read.function)
        handler = read_handler(read.node, read.function, parents)
        if handler < 0:
            continue  # the handler gives the name a default
        told.add(at)
        certain = read.entry and always_runs(read.node, read.function, parents, failing=True)
        failure = "the read raises KeyError"
        if handler and _reraises(read.function, handler):
            failure = f"the read raises KeyError (the `except` at line {handler} raises its own error)"
            handler = 0
        outcome = _outcome(read, certain, handler, failure)
        yield OPTIONAL_CREDENTIAL_SUBSCRIPT.at(
            Location(read.display, read.node.lineno, read.node.col_offset + 1),
            Severity.ERROR if certain else Severity.WARNING,
            scope=_scope(read),
            read=ast.unparse(read.node),
            declared=place.declared(read.key),
            outcome=Phrase(outcome),
            dict=ast.unparse(read.node.value) if isinstance(read.node, ast.Subscript) else "credentials",
            key=read.key,
            file=place.loaded.display_path(place.provider.file),
        )


def _reraises(function: Function, line: int) -> bool:
    """True when the `except` at `line` ends in `raise`: the call still fails, with its error."""
    return any(
        isinstance(node, ast.ExceptHandler) and node.lineno == line and isinstance(node.body[-1], ast.Raise)
        for node in every_node(function)
    )


def _stored_before(read: Read, reads: list[Read]) -> bool:
    """True when the code stores the key itself before this read, or in another function (whose
    order we do not know)."""
    return any(
        store.kind is Kind.STORE
        and store.key == read.key
        and (store.function is not read.function or store.node.lineno < read.node.lineno)
        for store in reads
    )


@dataclass(frozen=True, slots=True)
class Refused:
    """A refusal of a blank optional credential: the read it names, the statement or test that
    refuses, and what it does (a tool's are kept until every tool is read, `_tool_refusals`)."""

    read: Read
    where: ast.stmt | ast.expr
    what: str


def _refusals(
    place: Place, function: Function, refused: dict[str, list[Refused]], looped: set[str]
) -> Iterator[Finding]:
    """R094 in one function: refusals of an empty optional credential, and `.get` values used as
    strings; one finding per key. A refusal on every call of a tool's `_invoke` goes to `refused`,
    judged once every tool is read."""
    reads = [read for read in place.reading.reads if read.function is function]
    parents = _parents(function)
    values = _values(reads, function, place.optional)
    tested = _tested(function, values)
    told = set(looped)  # the keys a loop of the function refuses, told already
    kept = set(looped)  # the keys this tool refuses, for `_tool_refusals`
    validates = function.name == "_validate_credentials"
    for node in every_node(function):
        for where, key, what, refusal in _refusal(node, values, reads, validates) or _string_use(
            node, values, tested, parents
        ):
            if key in told or key not in place.optional:
                continue
            read = next(read for read in reads if read.key == key)
            certain = read.entry and always_runs(where, function, parents, failing=True)
            if refusal and certain and not validates and key not in kept:
                kept.add(key)
                refused.setdefault(key, []).append(Refused(read, where, what))
            if refusal and not (certain and validates):
                continue  # in a tool, another branch or a helper: a requirement of that tool or setting
            told.add(key)
            failure = "the check raises" if refusal else "`.get` gives None and that fails"
            yield _refused(place, Refused(read, where, what), certain, _outcome(read, certain, 0, failure))


def _refused(place: Place, refusal: Refused, certain: bool, outcome: str) -> Finding:
    read, where = refusal.read, refusal.where
    return OPTIONAL_CREDENTIAL_REFUSED.at(
        Location(read.display, where.lineno, where.col_offset + 1),
        Severity.ERROR if certain else Severity.WARNING,
        scope=_scope(read),
        key=read.key,
        declared=place.declared(read.key),
        what=Phrase(refusal.what),
        outcome=Phrase(outcome),
        file=place.loaded.display_path(place.provider.file),
    )


def _tool_refusals(place: Place, refused: dict[str, list[Refused]]) -> Iterator[Finding]:
    """R094 (a warning) at each tool's refusal of a blank optional credential that every tool of
    the provider refuses on every call: no tool works without it, so it is required in fact."""
    tools = {
        place.loaded.display_path(found[0])
        for tool in place.provider.reachable_tools
        if (found := module_tree(place.loaded, tool.source) if tool.source else None) is not None
    }
    for refusals in refused.values():
        if not tools or {refusal.read.display for refusal in refusals} != tools:
            continue
        names = "the tool" if len(tools) == 1 else f"each of the {len(tools)} tools"
        outcome = (
            f"Dify passes no such key when it is left blank, and {names} of the provider refuses it on"
            " every call: the form calls the credential optional, but nothing works without it"
        )
        for refusal in refusals:
            yield _refused(place, refusal, False, outcome)


def _values(reads: list[Read], function: Function, optional: Mapping[str, object]) -> dict[int, Value]:
    """The expressions that hold an optional credential's value, by `id`: `.get("x")` with no
    fallback or an empty one, and each use of a name bound once, to such a `.get`."""
    values: dict[int, Value] = {}
    for read in reads:
        if read.key not in optional or read.kind is not Kind.GET or not isinstance(read.node, ast.Call):
            continue  # a subscript is R093's
        fallback = read.node.args[1] if len(read.node.args) > 1 else ast.Constant(None)
        if isinstance(fallback, ast.Constant) and not fallback.value:
            values[id(read.node)] = Value(read.key, fallback.value is None)
    bound: dict[str, int] = {}
    for node in every_node(function):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bound[node.id] = bound.get(node.id, 0) + 1
    for node in every_node(function):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name, value = node.targets[0].id, values.get(id(node.value))
            if value is None or bound.get(name) != 1:
                continue
            for use in every_node(function):
                if isinstance(use, ast.Name) and use.id == name and isinstance(use.ctx, ast.Load):
                    values[id(use)] = value
    return values


def _refusal(
    node: ast.AST, values: dict[int, Value], reads: list[Read], validates: bool
) -> list[tuple[ast.stmt | ast.expr, str, str, bool]]:
    """(the `if`, key, what it does, True) for each optional credential an `if` refuses when it is
    empty: its body raises, or (in a tool) ends in `return` after answering."""
    if not isinstance(node, ast.If):
        return []
    raises = any(isinstance(statement, ast.Raise) for statement in node.body)
    if not raises and (validates or not isinstance(node.body[-1], ast.Return)):
        return []
    does = "raises" if raises else "stops the tool"
    tests = (
        node.test.values
        if isinstance(node.test, ast.BoolOp) and isinstance(node.test.op, ast.Or)
        else [node.test]
    )
    return [
        (node, key, f"`if {ast.unparse(test)}:` {does} when it is blank", True)
        for test in tests
        for key in _empty_tests(test, values, reads)
    ]


def _empty_tests(test: ast.expr, values: dict[int, Value], reads: list[Read]) -> list[str]:
    """The keys of the optional credentials a test is true for when one of them is blank: `not
    x`, `not (x and y)`, `not all([x, y])`, `"x" not in credentials`, `x is None`."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        operand = test.operand
        if isinstance(operand, ast.BoolOp) and isinstance(operand.op, ast.And):
            parts = operand.values
        elif (
            isinstance(operand, ast.Call)
            and isinstance(operand.func, ast.Name)
            and operand.func.id == "all"
            and len(operand.args) == 1
            and isinstance(operand.args[0], ast.List | ast.Tuple)
        ):
            parts = operand.args[0].elts
        else:
            parts = [operand]
        return [key for part in parts if (key := _key(values, part)) is not None]
    key = _empty_test(test, values, reads)
    return [key] if key is not None else []


def _empty_test(test: ast.expr, values: dict[int, Value], reads: list[Read]) -> str | None:
    """The key of an optional credential a comparison is true for when the credential is blank."""
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        absent = next((read.key for read in reads if read.node is test and read.kind is Kind.TEST), None)
        if absent is not None:
            return absent if isinstance(test.ops[0], ast.NotIn) else None
        right, value = test.comparators[0], values.get(id(test.left))
        if isinstance(test.ops[0], ast.Is | ast.Eq) and isinstance(right, ast.Constant) and value is not None:
            # `is None` is true of a `.get` without fallback, `== ""` of one whose fallback is ""
            return value.key if right.value == (None if value.none else "") else None
    return None


def _string_use(
    node: ast.AST, values: dict[int, Value], tested: set[str], parents: Parents
) -> list[tuple[ast.stmt | ast.expr, str, str, bool]]:
    """The one use of `_string_used` as a list, empty when there is none."""
    used = _string_used(node, values, tested, parents)
    return [used] if used is not None else []


def _string_used(
    node: ast.AST, values: dict[int, Value], tested: set[str], parents: Parents
) -> tuple[ast.stmt | ast.expr, str, str, bool] | None:
    """(node, key, what, False) for a credential value used where None fails: a method of it, a
    conversion, a concatenation with a string."""
    value = values.get(id(node))
    if value is None or not value.none or value.key in tested or not isinstance(node, ast.expr):
        return None
    key = value.key
    parent = parents.get(node)
    shown = ast.unparse(node)
    if isinstance(parent, ast.Attribute) and parent.value is node:
        return parent, key, f"`{shown}.{parent.attr}` needs a string", False
    if isinstance(parent, ast.Call) and node in parent.args and _converts(parent.func):
        return parent, key, f"`{ast.unparse(parent)}` needs a value", False
    if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Add):
        other = parent.right if parent.left is node else parent.left
        if isinstance(other, ast.Constant | ast.JoinedStr) and not isinstance(
            getattr(other, "value", ""), int
        ):
            return parent, key, f"`{ast.unparse(parent)}` needs a string", False
    return None


def _converts(func: ast.expr) -> bool:
    if isinstance(func, ast.Name):
        return func.id in CONVERSIONS
    return (
        isinstance(func, ast.Attribute)
        and func.attr == "loads"
        and isinstance(func.value, ast.Name)
        and func.value.id == "json"
    )


def _tested(function: Function, values: dict[int, Value]) -> set[str]:
    """Keys whose value the function tests anywhere (`if api_key:`, `x or default`): an empty value
    may then be handled before it is used."""
    tests: list[ast.expr] = []
    for node in every_node(function):
        if isinstance(node, ast.If | ast.While | ast.IfExp | ast.Assert):
            tests.append(node.test)
        elif isinstance(node, ast.BoolOp):
            tests.extend(node.values)
    return {values[id(part)].key for test in tests for part in ast.walk(test) if id(part) in values}


def _key(values: dict[int, Value], node: ast.AST) -> str | None:
    value = values.get(id(node))
    return value.key if value is not None else None


def _scope(read: Read) -> str:
    if read.entry:
        return (
            "`_validate_credentials`" if read.function.name == "_validate_credentials" else "tool `_invoke`"
        )
    return f"`{read.function.name}`"


def _outcome(read: Read, certain: bool, handler: int, failure: str) -> str:
    """What a user who leaves the credential blank gets; `failure` says what fails there."""
    said = f"Dify passes no such key when it is left blank, so {failure}"
    validates = read.entry and read.function.name == "_validate_credentials"
    if handler > 0 and not certain:
        return (
            f"Dify passes no such key when it is left blank, so the `except` at line {handler} runs instead"
        )
    if validates and certain:
        return f"{said} and Dify refuses to save the credentials of every user who leaves it blank"
    if validates:
        return f"{said} when it gets there, and Dify then refuses to save the credentials"
    if certain:
        return f"{said}: every call fails for a user who leaves it blank"
    return f"{said} when it gets there"


def _parents(function: Function) -> Parents:
    return {child: node for node in every_node(function) for child in children(node)}
