"""Tests of a select credential's value against a string that none of its options is (R125): the
branch never runs (`!=`: always runs), found without running the plugin.

R085 reads a tool's select parameters; a provider's select credentials are read here, where the
credentials are read (`credential_reads.credential_reading`: the tool files, the provider's file and
the plugin's own functions they hand the credentials to, in any module).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from generator.check import CheckContext
from generator.check.common import every_node
from generator.check.credential_reads import Read, credential_reading, declared_items, is_credentials
from generator.check.passed_on import literal_strings
from generator.check.undeclared import Function, constant
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.plugin_model import Credential, Provider
from generator.rules import Listing, Phrase, rule

NEVER_MATCHES = rule(
    "R125",
    "select-credential-never-matches",
    Severity.WARNING,
    "provider {provider} compares select credential `{credential}` with {literal}, which is none of its"
    " option values ({offered}): {outcome!s}",
    "Compare with one of the option values, or add {literal} to the options of `{credential}` in {file}.",
    """
A select credential holds one of its options' `value`s: the provider's form offers only those, and
Dify checks what is saved before the plugin sees it. `ToolProviderController.
validate_credentials_format` (api/core/tools/__base/tool_provider.py, which
`PluginToolProviderController` inherits through `BuiltinToolProviderController.validate_credentials`)
refuses anything else (`if credentials[credential_name] not in [x.value for x in options]: raise
ToolProviderCredentialValidationError(f"credential {credential_name} should be one of
{options}")`), refuses a required one left out (`if credential_schema.required: raise ...
is required`), and fills an unset one with its `default` (`credentials[credential_name] =
default_value`). So a test of the value against another string (`if auth_method == "basic"` where
the options are `token` and `username_password`) is false for every saved value (`!=`: true for
every one): its branch never runs, and when no test names an option, every option takes the path
meant for none of them (the `else`, or nothing).

Found without running, where R072 reads the credentials (`credential_reads.py`: the tool files, the
provider's file, and the plugin's own functions they hand `self.runtime.credentials` to): a read of
the credential (`credentials.get("k")`, `credentials["k"]`, or a name bound only to such reads or to
string constants, which count as values too) compared with `==` or `!=`, or `in` a literal list no
element of which is a value. A `.get` default counts as a value when the credential is neither
required nor given a default (then it may be unset); `.lower()`, `.upper()` and `.strip()` on the
read are applied to the options. A name bound to anything else leaves the check silent.

Severity: a warning; the plugin runs, one of its branches is dead.
""",
)
# Methods whose result the options are compared as: `credentials.get("k").lower()`.
CASES: dict[str, Callable[[str], str]] = {"lower": str.lower, "upper": str.upper, "strip": str.strip}


@dataclass(frozen=True, slots=True)
class _Value:
    """What a read or a name holds of a select credential: its key, the values it may have."""

    select: Credential
    possible: frozenset[str]


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """Tests of select credentials against strings none of their options is, per provider."""
    for provider in loaded.plugin.providers if loaded.plugin else ():
        selects = _selects(provider)
        plain = selects and declared_items(loaded, provider) is not None  # no `oauth_schema`
        reading = credential_reading(loaded, provider) if plain else None
        if reading is None:
            continue
        functions = {id(read.function): read for read in reading.reads}
        for read in functions.values():
            names = reading.names.get(id(read.function), set())
            yield from _function(loaded, provider, read, names, selects)


def _selects(provider: Provider) -> dict[str, Credential]:
    """The provider's select credentials with options."""
    return {item.name: item for item in provider.credentials if item.type == "select" and item.options}


def _may_be_unset(select: Credential) -> bool:
    """True when a saved form may lack the credential: neither required nor given a default."""
    return not select.required and select.default is None


def _function(
    loaded: LoadedPlugin, provider: Provider, read: Read, names: set[str], selects: dict[str, Credential]
) -> Iterator[Finding]:
    function = read.function
    holders = _holders(function, names, selects)
    tests: list[tuple[_Value, ast.Compare, list[ast.Constant], bool]] = []
    for node in every_node(function):
        if not isinstance(node, ast.Compare) or len(node.ops) != 1:
            continue
        left, right, operator = node.left, node.comparators[0], node.ops[0]
        value = _value_of(left, names, selects, holders)
        if value is None and isinstance(operator, ast.Eq | ast.NotEq):
            value, left, right = _value_of(right, names, selects, holders), right, left
        if value is None:
            continue
        if isinstance(operator, ast.Eq | ast.NotEq) and isinstance(right, ast.Constant):
            if isinstance(right.value, str):
                tests.append((value, node, [right], isinstance(operator, ast.Eq)))
        elif isinstance(operator, ast.In | ast.NotIn) and literal_strings(right) is not None:
            elements = [e for e in getattr(right, "elts", []) if isinstance(e, ast.Constant)]
            tests.append((value, node, elements, isinstance(operator, ast.In)))
    named: dict[str, set[str]] = {}
    for value, _node, literals, _equal in tests:
        named.setdefault(value.select.name, set()).update(str(literal.value) for literal in literals)
    for value, _node, literals, equal in tests:
        if any(literal.value in value.possible for literal in literals):
            continue  # a list with one value in it: the spare entries do no harm
        options_named = bool(named[value.select.name] & value.possible)
        for literal in literals:
            yield _finding(loaded, provider, read.display, value, literal, equal, options_named)


def _finding(
    loaded: LoadedPlugin,
    provider: Provider,
    display: str,
    value: _Value,
    literal: ast.Constant,
    equal: bool,
    options_named: bool,
) -> Finding:
    outcome = (
        "no saved value passes the test, so its branch never runs"
        if equal
        else "every saved value passes the test"
    )
    if not options_named:
        outcome += "; no test of it names an option, so every option takes the path meant for none of them"
    return NEVER_MATCHES.at(
        Location(display, literal.lineno, literal.col_offset + 1),
        provider=provider.name,
        credential=value.select.name,
        literal=repr(literal.value),
        offered=Listing([option.value for option in value.select.options]),
        outcome=Phrase(outcome),
        file=loaded.display_path(provider.file),
    )


def _value_of(
    node: ast.expr, names: set[str], selects: dict[str, Credential], holders: dict[str, _Value]
) -> _Value | None:
    """What `node` holds of a select credential: a name bound only to its reads, or a read."""
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
        return holders.get(node.id)
    found = _read(node, names, selects)
    return found[0] if found is not None and not found[1] else None


def _read(node: ast.expr, names: set[str], selects: dict[str, Credential]) -> tuple[_Value, bool] | None:
    """A read of a select credential (`c.get("k", d)`, `c["k"]`, `.lower()` of one, `read or "x"`),
    with the values it may give, and whether it holds a default that is no constant."""
    case: Callable[[str], str] | None = None
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in CASES
        and not node.args
        and not node.keywords
    ):
        case, node = CASES[node.func.attr], node.func.value
    fallback: ast.expr | None = None
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or) and len(node.values) == 2:
        node, fallback = node.values
    key: str | None = None
    if isinstance(node, ast.Subscript) and is_credentials(node.value, names):
        key = constant(node.slice)
    elif (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get"
        and is_credentials(node.func.value, names)
        and node.args
    ):
        key = constant(node.args[0])
        if len(node.args) > 1 and fallback is None:
            fallback = node.args[1]
    select = selects.get(key) if key is not None else None
    if select is None:
        return None
    possible = {option.value for option in select.options}
    loose = False
    if _may_be_unset(select):
        possible.add("")
        if fallback is not None:
            text = constant(fallback)
            loose = text is None and not (isinstance(fallback, ast.Constant) and fallback.value is None)
            possible.add(text or "")
    if case is not None:
        possible = {case(text) for text in possible}
    return _Value(select, frozenset(possible)), loose


def _holders(function: Function, names: set[str], selects: dict[str, Credential]) -> dict[str, _Value]:
    """Names the function binds only to reads of one select credential or to string constants (at
    least once to a read), with every value they may hold."""
    bound: dict[str, list[ast.expr | None]] = {}
    for node in every_node(function):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            bound.setdefault(node.targets[0].id, []).append(node.value)
        elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bound.setdefault(node.id, []).append(None)
        elif isinstance(node, ast.arg):
            bound.setdefault(node.arg, []).extend([None, None])
    found: dict[str, _Value] = {}
    for name, values in bound.items():
        assigned = [value for value in values if value is not None]
        if len(values) != 2 * len(assigned):
            continue  # bound some other way too (a loop, a `with`, a parameter)
        reads = [_read(value, names, selects) for value in assigned if constant(value) is None]
        constants = {constant(value) or "" for value in assigned if constant(value) is not None}
        if not reads or any(read is None or read[1] for read in reads):
            continue
        keys = {read[0].select.name for read in reads if read is not None}
        if len(keys) != 1:
            continue
        first = next(read[0] for read in reads if read is not None)
        possible = set().union(*(read[0].possible for read in reads if read is not None)) | constants
        found[name] = _Value(first.select, frozenset(possible))
    return found
