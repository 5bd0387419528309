"""Optional parameters a tool reads as if they were always set (R075): `tool_parameters["x"]` for an
`x` its YAML declares optional and a workflow or an agent fills (`form: llm` or `schema`), found in
its code without running it.

The reading of `_invoke` (and of the plugin's own functions it hands the dictionary to) is
`undeclared`'s and `passed_on`'s: the same silence when the code may add keys we cannot name, and
no finding for a key the code tests, reads with `.get` or stores.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

from generator.check import CheckContext
from generator.check.common import every_node, tool_module_tree
from generator.check.none_uses import NoneUse, none_uses
from generator.check.passed_on import follow, once_per_place
from generator.check.undeclared import (
    Function,
    Invoke,
    Parents,
    always_runs,
    caught,
    constant,
    guarded_keys,
    handlers_around,
    invokes,
    membership_key,
)
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.plugin_model import Tool
from generator.rules import Phrase, rule

# The forms whose parameter Dify leaves out of the dictionary when no one set it (`form: form`
# parameters are always there, "" or False when empty).
LEFT_OUT_FORMS = frozenset({"llm", "schema"})
FORM = "form"
READ_METHODS = frozenset({"get", "keys", "items", "values"})
# Types whose empty form field arrives as "" (`cast_parameter_value`).
TEXT_TYPES = frozenset({"string", "secret-input", "text-input"})
# What a conversion of "" raises, and what catches it.
VALUE_ERRORS = frozenset({"ValueError", "JSONDecodeError", "Exception", "BaseException"})
# What a conversion of None raises (`json.loads(None)`, `int(None)`), and what catches it.
TYPE_ERRORS = frozenset({"TypeError", "Exception", "BaseException"})

OPTIONAL_SUBSCRIPT = rule(
    "R075",
    "optional-parameter-subscript",
    Severity.ERROR,
    "tool {tool} reads {read!s}, an optional parameter (form: {form}), as if it were always set: {outcome!s}",
    'Read it with {dict}.get("{key}") and handle an empty value (None, or "" for a form field), or declare'
    " it `required: true`.",
    """
Dify passes a tool only the parameters it was given. A workflow's tool node builds the dictionary
in `ToolNode._generate_parameters` (api/core/workflow/nodes/tool/tool_node.py): `for parameter_name
in node_data.tool_parameters:`, the inputs the node configures, and for a variable that does not
exist `if parameter.required: raise ...` else `continue`, leaving the key out; an agent passes what
its model chose to fill. A parameter with `form: form` is always there (the node's configuration
or its default, cast to "" or False, `cast_parameter_value`); one with `form: llm` or `form: schema`
that nobody set is not. So `tool_parameters["x"]` for such an optional `x` raises KeyError for
every user who leaves it empty, which the YAML allows and the workflow editor does not prevent.

A form field with no `default` is left out too, in a workflow: the editor stores a value for a
form field only when its schema has a default (web `generateFormValue`: `if (formSchema.default
!== undefined && ...)`), and `ToolManager._convert_tool_parameters_type` skips a form field whose
configuration holds no value (`if not (config and isinstance(config, dict) and config.get("value")
is not None): continue`). An agent passes "" for it (`init_frontend_parameter`), so such a read is
a warning wherever it stands.

The same holds for what `.get` gives for such a key (None), used where None fails: at once
(`D.get("k").strip()`, `json.loads(D.get("k"))`, `int(...)`) or through a name bound once to it and
never tested (`desc = D.get("desc")`, then `len(desc)`, `desc.split(",")`, `desc[0]`, `title + desc`,
`for c in desc`; a test such as `if desc`, `desc or ""`, `desc is None` or `hasattr(desc, "x")`
anywhere in the function is taken as handling the empty value).

Found without running: the check reads `_invoke` as R021 does (and the plugin's own functions it
hands the dictionary to, in its module or imported from another of the plugin's modules, as R070
does; a helper that checks only the keys of a literal list it is given, `validate(params, ["model",
"title"])`, tests those keys and no others) and stays silent for a key the code tests with `in`, reads
with `.get`, or stores. An error when the read runs on every call (a statement directly in
`_invoke`, after no `return` or `raise`); a warning when it sits in a branch, a loop or a helper,
or inside a `try` that catches KeyError (then the handler runs instead, for every such user: the
finding names its line). The run with only the required parameters finds the same crash (R036);
it is then said once, here.

A text parameter with `form: form` and no default that a workflow user leaves empty arrives as ""
(`cast_parameter_value`); the check names a conversion of it that fails on "" for every such user
(`json.loads(...)`, `int(...)`, `float(...)` of the read itself) when nothing in the code tests its
value first (a test `"x" in tool_parameters` is always true for a form field) and no handler of
ValueError carries on: an error when it runs on every call, else a warning.

A method or attribute of what `.get` gives for such a parameter, with no default
(`params.get("tag").strip()`), fails the same way: `.get` gives None when the key is absent, and
None has no attribute `strip` (AttributeError); so does a conversion of it (`json.loads(params.get(
"items"))`, `int(...)`, `float(...)`): `json.loads(None)` raises TypeError ("the JSON object must be
str, bytes or bytearray, not NoneType"), as `int(None)` does. Silent when the function tests the key
or its value anywhere, or stores it, or a handler of TypeError is around the conversion.
""",
)
FALLBACK_NEVER_RUNS = rule(
    "R078",
    "form-field-fallback-never-runs",
    Severity.WARNING,
    'tool {tool} reads {dict}["{key}"], an optional form field, in a `try` whose `except` (line {line}) '
    'expects a KeyError: Dify always passes a form field ("" or its default when left empty), so that '
    "fallback never runs",
    'Test the value instead: `{dict}.get("{key}") or <fallback>`, so that an empty field takes the fallback.',
    """
A parameter with `form: form` and a `default` is set when the tool is configured (a workflow's tool
node stores the default, web `generateFormValue`; an agent's tool settings), and Dify always puts it
in the dictionary: the runtime parameters are built from every configured form parameter, an
emptied one cast from None (`cast_parameter_value` gives "" for text, False for a boolean). (A form
field with no default is left out of a workflow's dictionary when its node leaves it empty: R075
says so; its KeyError fallback runs there, and this rule is silent.) A `try: x =
tool_parameters["k"]` with `except KeyError:` and a fallback (a credential, a default) therefore
never takes the fallback: a user who empties the field gets "" where the author meant the fallback,
and the call fails or uses an empty value.
Only a handler that names KeyError (or LookupError) is read; a broad `except Exception` handles other
failures too, and is not reported.
""",
)
# The handlers that name the KeyError of a missing key (not a broad `except Exception`).
KEY_ERRORS = frozenset({"KeyError", "LookupError"})


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """Subscript reads of optional, possibly unset parameters in every tool."""
    return once_per_place(optional_subscripts(loaded, loaded.plugin.tools if loaded.plugin else ()))


def optional_subscripts(loaded: LoadedPlugin, tools: Iterable[Tool]) -> Iterator[Finding]:
    """Reads of optional `llm`/`schema` parameters (and form fields with no default) by subscript,
    one per key and tool."""
    for invoke in invokes(loaded, tools):
        optional = {
            parameter.name: parameter.form
            for parameter in invoke.tool.parameters
            if not parameter.required and parameter.form in LEFT_OUT_FORMS
        }
        fields = {p.name for p in invoke.tool.parameters if not p.required and p.form == FORM}
        # A form field with no default that a workflow leaves empty is not in the dictionary.
        unset = {p.name for p in invoke.tool.parameters if p.name in fields and p.default is None}
        optional.update(dict.fromkeys(unset, FORM))
        module = tool_module_tree(loaded, invoke.tool) if optional or fields else None
        if module is None:
            continue
        followed = follow(loaded, module, invoke.function, invoke.dictionary)
        scopes = [(invoke.function, invoke.dictionary), *((h.function, h.name) for h in followed.helpers)]
        files = {id(helper.function): helper.display for helper in followed.helpers}
        parents: Parents = {
            child: node
            for function, _name in scopes
            for node in every_node(function)
            for child in ast.iter_child_nodes(node)
        }
        keys = guarded_keys(invoke.function, invoke.dictionary, parents, followed.passed)
        if keys is None:
            if not followed.helpers and _only_read(invoke.function, invoke.dictionary, parents):
                yield from _empty_conversions(invoke, scopes, parents, {})  # `k in D` for a computed k
            continue
        reads = [
            (node, key, function, name)
            for function, name in scopes
            for node in every_node(function)
            if isinstance(node, ast.Subscript)
            and (key := _read_key(node, name)) in optional
            and key not in keys.guarded
        ]
        told: set[str] = set()
        for node, key, function, name in sorted(reads, key=lambda read: (read[0].lineno, read[0].col_offset)):
            if key in told:
                continue
            told.add(key)
            handler = read_handler(node, function, parents)
            if handler < 0:
                continue  # the handler gives it a default
            if key in unset and (handler or _converted(node, name, parents)):
                continue  # the author expects it missing; a conversion is told by _empty_conversions
            certain = function is invoke.function and not handler and always_runs(node, function, parents)
            certain = certain and key not in unset  # an agent passes "" for an empty form field
            said = f"{_left_out(key in unset)}, so {_outcome(handler, certain)}"
            file = files.get(id(function), invoke.display)
            named = (name, key, optional[key])
            yield _finding(invoke, (file, node), certain, named, f'{name}["{key}"]', said)
        yield from _none_dereferences(invoke, scopes, parents, (optional, told | keys.stored), files, unset)
        yield from _empty_conversions(invoke, scopes, parents, files)
        yield from _dead_fallbacks(invoke, scopes, parents, fields - keys.guarded - unset, files)


def _left_out(field: bool) -> str:
    """Why the key may be missing: an unset `llm`/`schema` parameter, or a form field with no default
    that a workflow's node leaves empty."""
    if field:
        return "a workflow leaves out a form field with no default that its node leaves empty"
    return "Dify passes no such key when it is left unset"


def _none_dereferences(
    invoke: Invoke,
    scopes: list[tuple[Function, str]],
    parents: Parents,
    keys: tuple[dict[str, str], set[str]],
    files: dict[int, str],
    unset: set[str],
) -> Iterator[Finding]:
    """`D.get("k").strip()` (an attribute of what `.get` gives, no default) and `json.loads(D.get("k"))`
    (`int`, `float`) for an optional `k` the function never tests nor stores: None when it is left
    unset, so the attribute fails (AttributeError) or the conversion does (TypeError)."""
    optional, told = keys
    found: set[str] = set()
    for function, name in scopes:
        tested = _tested_keys(function, name) | _membership_keys(function, name)
        keys_left = {key for key in optional if key not in told | tested}
        for use in _none_failures(function, name, keys_left, parents):
            if use.key in found:
                continue
            found.add(use.key)
            handler = read_handler(use.node, function, parents)
            handled = use.error == "TypeError" and _handles(use.node, function, parents, TYPE_ERRORS)
            if handler < 0 or handled:
                continue
            certain = function is invoke.function and not handler and always_runs(use.node, function, parents)
            certain = certain and use.key not in unset
            outcome = _outcome(handler, certain).replace("KeyError", use.error)
            said = f"{_left_out(use.key in unset)}, so `.get` gives None, {use.what}: {outcome}"
            file = files.get(id(function), invoke.display)
            named = (name, use.key, optional[use.key])
            yield _finding(invoke, (file, use.node), certain, named, use.read, said)


def _none_failures(function: Function, name: str, keys: set[str], parents: Parents) -> Iterator[NoneUse]:
    """What fails on the None that `name.get("k")` gives for one of `keys`: used at once
    (`D.get("k").strip()`, `int(D.get("k"))`), then through a name bound to it (`none_uses`)."""
    calls = [node for node in every_node(function) if isinstance(node, ast.Call)]
    for node in sorted(calls, key=lambda node: (node.lineno, node.col_offset)):
        key = looked_up(node, name) if len(node.args) == 1 and not node.keywords else None
        failure = _none_failure(node, parents.get(node), (name, key)) if key in keys else None
        if failure is not None and key is not None:
            read, error, what = failure
            yield NoneUse(node, key, read, error, what)
    yield from none_uses(function, name, keys, parents)


def _none_failure(
    node: ast.Call, parent: ast.AST | None, read: tuple[str, str]
) -> tuple[str, str, str] | None:
    """(the read as shown, the exception, what fails) when what `node` (`D.get("k")`, `read` is
    (D, k)) gives is dereferenced (`.strip`) or converted (`json.loads(...)`, `int(...)`) at once."""
    name, key = read
    if isinstance(parent, ast.Attribute) and parent.value is node:
        return f'{name}.get("{key}").{parent.attr}', "AttributeError", f"which has no attribute {parent.attr}"
    if isinstance(parent, ast.Call) and parent.args == [node] and _conversion(parent, name) is not None:
        shown = ast.unparse(parent.func)
        return f"`{ast.unparse(parent)}`", "TypeError", f"and {shown}(None) raises TypeError"
    return None


def _handles(node: ast.AST, function: Function, parents: Parents, kinds: frozenset[str]) -> bool:
    """True when a `try` around `node` names one of `kinds` (or is a bare `except:`)."""
    return any(
        names == {""} or bool(names & kinds) for _handler, names in handlers_around(node, function, parents)
    )


def _membership_keys(function: Function, name: str) -> set[str]:
    """Keys the function tests with `in` (or `not in`) on the dictionary."""
    return {key for node in every_node(function) if (key := membership_key(node, name))}


def _dead_fallbacks(
    invoke: Invoke,
    scopes: list[tuple[Function, str]],
    parents: Parents,
    fields: set[str],
    files: dict[int, str],
) -> Iterator[Finding]:
    """Subscript reads of optional form fields inside a `try` whose handler names KeyError."""
    told: set[str] = set()
    for function, name in scopes:
        for node in every_node(function):
            if not isinstance(node, ast.Subscript) or (key := _read_key(node, name)) not in fields:
                continue
            line = _key_error_handler(node, function, parents)
            if line and key not in told:
                told.add(key)
                where = Location(files.get(id(function), invoke.display), node.lineno, node.col_offset + 1)
                yield FALLBACK_NEVER_RUNS.at(where, tool=invoke.tool.name, dict=name, key=key, line=line)


def _key_error_handler(node: ast.AST, function: Function, parents: Parents) -> int:
    """The line of the innermost `except` naming KeyError (or LookupError) around `node`, 0 when
    none does."""
    child, parent = node, parents.get(node)
    while parent is not None and child is not function:
        if isinstance(parent, ast.Try | ast.TryStar) and child in parent.body:
            for handler in parent.handlers:
                kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
                if any(_named(kind) in KEY_ERRORS for kind in kinds if kind is not None):
                    return handler.lineno
        child, parent = parent, parents.get(parent)
    return 0


def _named(kind: ast.expr) -> str:
    return kind.attr if isinstance(kind, ast.Attribute) else getattr(kind, "id", "")


def _empty_conversions(
    invoke: Invoke, scopes: list[tuple[Function, str]], parents: Parents, files: dict[int, str]
) -> Iterator[Finding]:
    """Conversions that fail on "" of an optional text form field without default, read directly."""
    empty = {
        parameter.name
        for parameter in invoke.tool.parameters
        if not parameter.required
        and parameter.form == FORM
        and parameter.type in TEXT_TYPES
        and parameter.default in (None, "")
    }
    tested = {key for function, name in scopes for key in _tested_keys(function, name)}
    told: set[str] = set()
    for function, name in scopes:
        for node in every_node(function):
            converted = _conversion(node, name) if isinstance(node, ast.Call) else None
            if (
                converted is None
                or converted[1] not in empty
                or converted[1] in tested
                or converted[1] in told
            ):
                continue
            call, key, shown = converted
            if _handles_value_error(call, function, parents):
                continue
            told.add(key)
            certain = function is invoke.function and always_runs(call, function, parents)
            read = f'{name}["{key}"] in `{shown}`'
            file = files.get(id(function), invoke.display)
            yield _finding(invoke, (file, call), certain, (name, key, FORM), read, _empty_outcome(certain))


def _finding(
    invoke: Invoke,
    at: tuple[str, ast.expr],
    certain: bool,
    named: tuple[str, str, str],
    read: str,
    outcome: str,
) -> Finding:
    """R075 at `at` (a file and a node): an error when it runs on every call. `named` is
    (dictionary, key, form)."""
    name, key, form = named
    file, node = at
    return OPTIONAL_SUBSCRIPT.at(
        Location(file, node.lineno, node.col_offset + 1),
        Severity.ERROR if certain else Severity.WARNING,
        tool=invoke.tool.name,
        read=Phrase(read),
        dict=name,
        key=key,
        form=form,
        outcome=Phrase(outcome),
    )


def _only_read(function: Function, name: str, parents: Parents) -> bool:
    """True when the function only reads the dictionary (`D["k"]`, `D.get`, `k in D`, iterating its
    keys or items): no store, no rebinding, no hand-over, so a form field keeps the value Dify gave."""
    for node in every_node(function):
        if not (isinstance(node, ast.Name) and node.id == name):
            continue
        parent = parents.get(node)
        reads = isinstance(node.ctx, ast.Load) and (
            (isinstance(parent, ast.Subscript) and isinstance(parent.ctx, ast.Load))
            or isinstance(parent, ast.Compare)
            or (isinstance(parent, ast.Attribute) and parent.attr in READ_METHODS)
        )
        if not reads:
            return False
    return True


def _converted(node: ast.AST, name: str, parents: Parents) -> bool:
    """True when the read is the argument of a conversion (`json.loads(D["k"])`, `int(...)`)."""
    parent = parents.get(node)
    return isinstance(parent, ast.Call) and _conversion(parent, name) is not None


def _empty_outcome(certain: bool) -> str:
    said = (
        'an agent passes "" for it when it is left empty (it has no default) and a workflow leaves it out:'
        ' the conversion fails on "", the read on the missing key'
    )
    return f"{said}, so every such call {'fails' if certain else 'that reaches this line fails'}"


def _conversion(call: ast.Call, name: str) -> tuple[ast.Call, str, str] | None:
    """(call, key, the call as written) for `json.loads(D["k"])`, `int(D.get("k"))`, `float(...)`."""
    func = call.func
    converts = (isinstance(func, ast.Name) and func.id in ("int", "float")) or (
        isinstance(func, ast.Attribute)
        and func.attr == "loads"
        and isinstance(func.value, ast.Name)
        and func.value.id == "json"
    )
    if not converts or len(call.args) != 1:
        return None
    key = looked_up(call.args[0], name)
    return (call, key, ast.unparse(call)) if key is not None else None


def looked_up(node: ast.expr, name: str) -> str | None:
    """The key of `D["k"]` or `D.get("k", ...)`."""
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == name:
        return constant(node.slice)
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute) or not node.args:
        return None
    held = node.func.value
    return (
        constant(node.args[0])
        if node.func.attr == "get" and isinstance(held, ast.Name) and held.id == name
        else None
    )


def _tested_keys(function: Function, name: str) -> set[str]:
    """Keys whose value the function tests anywhere (`if D.get("k")`, `D["k"] or ...`, `if not
    D["k"]: return`): then an empty value may well be handled. A membership test does not count."""
    tests: list[ast.expr] = []
    for node in every_node(function):
        if isinstance(node, ast.If | ast.While | ast.IfExp | ast.Assert):
            tests.append(node.test)
        elif isinstance(node, ast.BoolOp):
            tests.extend(node.values[:-1])
    return {
        key
        for test in tests
        for part in ast.walk(test)
        if isinstance(part, ast.expr) and (key := looked_up(part, name))
    }


def _handles_value_error(call: ast.AST, function: Function, parents: Parents) -> bool:
    """True when a `try` around the call catches ValueError (JSONDecodeError is one) and carries on."""
    return any(
        (names == {""} or bool(names & VALUE_ERRORS)) and not isinstance(handler.body[-1], ast.Raise)
        for handler, names in handlers_around(call, function, parents)
    )


def _defaulted(statement: ast.AST, handlers: list[ast.ExceptHandler]) -> bool:
    """True when `statement` binds names that a handler binds too: `x = params["x"]` with
    `except KeyError: x = ""` is a default, the parameter handled as optional; so is an `if` that
    sets `x` from the read on one branch and from elsewhere on the other, with the same handler."""
    bound = {
        node.id
        for node in ast.walk(statement)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)
    }
    return any(
        isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and node.id in bound
        for handler in handlers
        for node in ast.walk(handler)
    )


def _outcome(handler: int, certain: bool) -> str:
    if handler:
        return f"the `except` that catches the KeyError (line {handler}) runs instead"
    if certain:
        return "every such call fails with KeyError"
    return "every such call that reaches this line fails with KeyError"


def _read_key(node: ast.Subscript, name: str) -> str | None:
    if not isinstance(node.ctx, ast.Load):
        return None
    return constant(node.slice) if isinstance(node.value, ast.Name) and node.value.id == name else None


def read_handler(node: ast.AST, function: Function, parents: Parents) -> int:
    """The line of the handler that catches the read's KeyError, 0 when none does (a `suppress`
    counts as one at its own line), -1 when that handler gives the name a default."""
    if not caught(node, function, parents):
        return 0
    child, parent = node, parents.get(node)
    while parent is not None and child is not function:
        if isinstance(parent, ast.Try | ast.TryStar) and child in parent.body and parent.handlers:
            if _defaulted(child, parent.handlers):
                return -1
            return parent.handlers[0].lineno
        if isinstance(parent, ast.With | ast.AsyncWith):
            return parent.lineno
        child, parent = parent, parents.get(parent)
    return 0
