"""Credential keys the plugin's code reads that its provider does not declare (R072).

Dify gives a tool `self.runtime.credentials`: the values of the provider's `credentials_for_provider`
and nothing else, and hands the provider's `_validate_credentials` the same keys. A key read under
another name is never there, for any user: `credentials["environment"]` raises KeyError and
`.get("environment")` is None. Found without running, so a run that stops earlier (at a credential
it has no value for) does not hide it; one finding per key, listing every read.

The reading (`credential_reading`, with the declared credentials of `declared_items`) is also
optional_credentials' (R093, R094): one reading of the credentials for every rule about them.
"""

from __future__ import annotations

import ast
import enum
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import cast

from generator.check import CheckContext
from generator.check.common import children, closest_name, every_node, module_tree
from generator.check.passed_on import Scope, receiving_parameter, resolve, scope_of
from generator.check.plugin_code import plugin_code
from generator.check.undeclared import Function, caught, constant
from generator.findings import Finding, Location, Severity
from generator.load.builders import credentials_key
from generator.load.crawl import LoadedPlugin
from generator.plugin_model import Provider
from generator.rules import Listing, Phrase, rule

UNDECLARED_CREDENTIAL = rule(
    "R072",
    "undeclared-credential-read",
    Severity.ERROR,
    "credential {key} is read ({reads}) but provider {provider} does not declare it (declared: {declared}):"
    " {outcome!s}",
    "Declare `{key}` under `credentials_for_provider:` in {file}, or read one of the declared names.",
    """
Dify hands a tool's `self.runtime.credentials` the provider's credentials as the user saved them:
the keys of `credentials_for_provider` in the provider YAML, no others; `_validate_credentials`
receives the same form. A key the provider does not declare is never there, for every user and every
tool: `credentials["environment"]` raises KeyError wherever it runs, `.get("environment")` is
always None. No run shows it when the run stops first at a credential it has no value for, so the
check reads the code: in the tool files and the provider's file, `self.runtime.credentials[...]`,
`.get(...)`, a name bound to `self.runtime.credentials` in the same function, and the credentials
parameter of `_validate_credentials`; and in the plugin's own functions these hand the credentials
to, in any module (`auth(self.runtime.credentials)` with `def auth(credential): ...
credential.get("environment")` in `tools/auth.py`), helpers of helpers too, when every reference to
that function's name in the plugin is such a call (then its parameter never holds anything else).
One finding per key, at its first read, listing the others.

The declared names are read as the daemon reads them (`ToolProviderDeclaration.UnmarshalYAML`):
`credentials_schema`, a list or a mapping, when it is not empty, else `credentials_for_provider`.
It stays silent for a provider with `oauth_schema` (the runtime then holds what the OAuth flow
returned), one whose credentials are not plainly named, a key the code itself
stores, and a name bound to anything else as well. Severity: an error when a read raises
(a subscript outside a `try` that catches KeyError, or a `.get` with no default whose None meets an
attribute at once, `.get("environment").lower()`, outside a `try` that catches Exception: an
AttributeError), or when the key differs only in case or
spelling from a declared credential that no code reads (the user's value is never used); a warning
when every read is a `.get` (the value is always None; the code may treat it as optional).
""",
)
MISSPELT_HINT = (
    "The provider declares `{close}`: read that name (keys are matched exactly, case included), or "
    "declare `{key}` in {file}."
)


class Kind(enum.Enum):
    """How the code names a credential key."""

    SUBSCRIPT = "subscript"  # `credentials["k"]`
    GET = "get"  # `credentials.get("k", ...)`
    TEST = "test"  # `"k" in credentials` (or `not in`)
    STORE = "store"  # `credentials["k"] = ...`


@dataclass(frozen=True, slots=True)
class Read:
    """One read of a credential key: where, how, in which function, and whether it raises when
    the key is missing. `entry` is True in the function Dify calls itself: the provider's
    `_validate_credentials`, or a tool's `_invoke`."""

    display: str
    node: ast.expr
    key: str
    raises: bool
    kind: Kind
    function: Function
    entry: bool

    def place(self) -> str:
        return f"{self.display}:{self.node.lineno}"

    @property
    def attribute_error(self) -> bool:
        """True for a `.get` read whose None meets an attribute at once (`.get("k").lower()`)."""
        return self.raises and self.kind is Kind.GET


@dataclass(frozen=True, slots=True)
class Reading:
    """Every read of a provider's credentials in its file and its tools' files, the keys the
    code stores itself, and the names that hold the credentials in each function (by `id`)."""

    reads: list[Read]
    stored: set[str]
    names: dict[int, set[str]]


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """Undeclared credential keys read by each provider's tools or its own class, for the providers
    read by their shape too when the manifest or a provider could not be read (`discovered`): a
    provider YAML that parses is judged whatever else fails."""
    for provider in (*(loaded.plugin.providers if loaded.plugin else ()), *loaded.discovered):
        declared = declared_credentials(loaded, provider)
        if declared is not None:
            yield from _provider_findings(loaded, provider, declared)


def declared_credentials(loaded: LoadedPlugin, provider: Provider) -> list[str] | None:
    """The credential names the provider declares; None when they cannot be known plainly."""
    items = declared_items(loaded, provider)
    return list(items) if items is not None else None


def declared_items(loaded: LoadedPlugin, provider: Provider) -> dict[str, Mapping[str, object]] | None:
    """The credentials the provider declares, by name, each as written in its YAML; None when
    they cannot be known plainly (an `oauth_schema`, an entry without a name)."""
    document = loaded.documents.get(provider.file)
    data = document.data if document is not None else None
    if not isinstance(data, dict) or data.get("oauth_schema") is not None:
        return None
    raw = data.get(credentials_key(data))
    if not raw:
        return {}
    if isinstance(raw, dict):
        return {str(name): item if isinstance(item, dict) else {} for name, item in raw.items()}
    items = raw if isinstance(raw, list) else []
    named = [item for item in items if isinstance(item, dict) and isinstance(item.get("name"), str)]
    return {item["name"]: item for item in named} if named and len(named) == len(items) else None


def credential_reading(loaded: LoadedPlugin, provider: Provider) -> Reading | None:
    """The reads of the provider's credentials in its own file and its tools' files; None when
    the credentials are handed on or changed in ways we cannot follow."""
    reading = Reading([], set(), {})
    files = dict.fromkeys([provider.source, *(tool.source for tool in provider.reachable_tools)])
    seen: set[str] = set()
    pending: list[tuple[Function, Scope, int]] = []
    for source in files:
        found = module_tree(loaded, source) if source else None
        if found is None or found[0] in seen:
            continue
        seen.add(found[0])
        display = loaded.display_path(found[0])
        functions = [
            node for node in every_node(found[1]) if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        ]
        scope = scope_of(loaded, *found)
        for function in functions:
            if not _in_function(function, display, source == provider.source, reading):
                return None
            pending.append((function, scope, 0))
    _helpers(loaded, pending, reading)
    once = {id(read.node): read for read in reading.reads}  # a helper of the tool's module read twice
    reading.reads[:] = list(once.values())
    return reading


# How deep helpers handed the credentials are followed: helpers of helpers, and no further.
MAX_DEPTH = 3


def _helpers(loaded: LoadedPlugin, pending: list[tuple[Function, Scope, int]], reading: Reading) -> None:
    """Adds to `reading` the reads of the plugin's own functions that the credentials are handed to
    (`auth(self.runtime.credentials)`, in the tool's module or another), followed `MAX_DEPTH` deep:
    a function only when every reference to its name in the plugin is such a call (then its
    parameter always holds the credentials), and its parameter is bound nowhere else in it."""
    handed: dict[int, tuple[Function, Scope, set[str], int]] = {}
    calls: dict[int, int] = {}
    while pending:
        function, scope, depth = pending.pop()
        names = reading.names.get(id(function), set())
        for node in every_node(function) if depth < MAX_DEPTH else ():
            if not isinstance(node, ast.Call):
                continue
            given: list[int | str] = [i for i, arg in enumerate(node.args) if is_credentials(arg, names)]
            given += [k.arg for k in node.keywords if k.arg is not None and is_credentials(k.value, names)]
            target = resolve(node, function, scope) if len(given) == 1 else None
            parameter = receiving_parameter(node, target[0], given[0]) if target is not None else None
            if target is None or parameter is None:
                continue
            helper, home = target
            calls[id(helper)] = calls.get(id(helper), 0) + 1
            known = handed.setdefault(id(helper), (helper, home, set(), depth + 1))
            known[2].add(parameter)
    for helper, home, parameters, depth in handed.values():
        if len(parameters) != 1 or reading.names.get(id(helper)):
            continue  # it holds the credentials under several names, or was read already
        if calls[id(helper)] != _references(loaded, helper.name):
            continue  # also named elsewhere: it may receive other dictionaries
        display = loaded.display_path(home.relative)
        if _in_function(helper, display, False, reading, next(iter(parameters))):
            pending.append((helper, home, depth))
    if pending:
        _helpers(loaded, pending, reading)


def _references(loaded: LoadedPlugin, name: str) -> int:
    """How often the plugin's modules name `name` (bare or as an attribute), its definitions aside."""
    code = plugin_code(loaded)
    return sum(
        len(scope_of(loaded, relative, tree).references.get(name, []))
        for relative, tree in code.modules.values()
    )


def _provider_findings(loaded: LoadedPlugin, provider: Provider, declared: list[str]) -> Iterator[Finding]:
    reading = credential_reading(loaded, provider)
    if reading is None:
        return  # credentials handed on or changed in ways we cannot follow: say nothing
    reads = [read for read in reading.reads if read.kind in (Kind.SUBSCRIPT, Kind.GET)]
    stored = reading.stored
    read_keys = {read.key for read in reads}
    by_key: dict[str, list[Read]] = {}
    for read in reads:
        if read.key not in declared and read.key not in stored:
            by_key.setdefault(read.key, []).append(read)
    shown = Listing(declared) if declared else Phrase("none")
    for key, uses in by_key.items():
        close = closest_name(key, declared)
        dropped = close is not None and close not in read_keys
        raises = any(use.raises for use in uses)
        attribute = all(use.attribute_error for use in uses if use.raises)
        severity = Severity.ERROR if raises or dropped else Severity.WARNING
        first = uses[0]
        places = [use.place() for use in uses]
        yield UNDECLARED_CREDENTIAL.at(
            Location(first.display, first.node.lineno, first.node.col_offset + 1),
            severity,
            MISSPELT_HINT if close else None,
            key=key,
            reads=Listing(places, most=8),
            provider=provider.name,
            declared=shown,
            outcome=Phrase(_outcome(raises, close, dropped, attribute)),
            close=close or "",
            file=loaded.display_path(provider.file),
        )


def _outcome(raises: bool, close: str | None, dropped: bool, attribute: bool) -> str:
    if raises and attribute:
        said = "Dify never passes it, so `.get` gives None and the attribute read on it raises AttributeError"
        said += " for every user who reaches it"
    elif raises:
        said = "Dify never passes it, so the read raises KeyError for every user who reaches it"
    else:
        said = "Dify never passes it, so it is always None"
    if dropped:
        said += f", and the `{close}` every user enters is never read"
    return said


def _in_function(
    function: Function, display: str, is_provider: bool, reading: Reading, handed: str | None = None
) -> bool:
    """Adds the credential reads and stores of one function to `reading` (`handed`: the parameter
    that receives the credentials from its callers); False when the credentials are updated or
    bound to a name that is also bound to something else."""
    names = _aliases(function, is_provider, handed)
    if names is None:
        return False
    reading.names[id(function)] = names
    entry = function.name == ("_validate_credentials" if is_provider else "_invoke")
    parents = {child: node for node in every_node(function) for child in children(node)}
    for node in every_node(function):
        if not is_credentials(node, names):
            continue
        parent = parents.get(node)
        found: tuple[ast.expr, str | None, Kind] | None = None
        if isinstance(parent, ast.Subscript) and parent.value is node:
            key = constant(parent.slice)
            stores = not isinstance(parent.ctx, ast.Load)
            reading.stored.update([key] if key is not None and stores else [])
            found = (parent, key, Kind.STORE if stores else Kind.SUBSCRIPT)
        elif isinstance(parent, ast.Attribute) and parent.value is node:
            call = parents.get(parent)
            if parent.attr in ("update", "setdefault", "__setitem__"):
                return False
            if parent.attr == "get" and isinstance(call, ast.Call) and call.func is parent and call.args:
                found = (call, constant(call.args[0]), Kind.GET)
                # `.get("k").lower()`: with no default, the None meets the attribute at once
                met = isinstance(parents.get(call), ast.Attribute) and len(call.args) == 1
                if met and not caught(call, function, parents):
                    key = constant(call.args[0])
                    if key is not None:
                        reading.reads.append(Read(display, call, key, True, Kind.GET, function, entry))
                    continue
        elif _membership(parent, node):
            found = (cast(ast.Compare, parent), constant(cast(ast.Compare, parent).left), Kind.TEST)
        if found is not None and (key := found[1]) is not None:
            where, kind = found[0], found[2]
            raises = kind is Kind.SUBSCRIPT and not caught(where, function, parents)
            reading.reads.append(Read(display, where, key, raises, kind, function, entry))
    return True


def _membership(parent: ast.AST | None, node: ast.AST) -> bool:
    """True for `"k" in credentials` (or `not in`), `node` being the credentials."""
    return (
        isinstance(parent, ast.Compare)
        and len(parent.ops) == 1
        and isinstance(parent.ops[0], ast.In | ast.NotIn)
        and parent.comparators[0] is node
    )


def _aliases(function: Function, is_provider: bool, handed: str | None = None) -> set[str] | None:
    """Names that hold the credentials in the function: bound only to `self.runtime.credentials`
    (or the credentials parameter of the provider's `_validate_credentials`, or `handed`); None when
    a name is bound to them and to something else."""
    bound: dict[str, list[bool]] = {handed: [True]} if handed is not None else {}
    if is_provider and function.name == "_validate_credentials":
        positional = [*function.args.posonlyargs, *function.args.args]
        if len(positional) >= 2:
            bound[positional[1].arg] = [True]
    for node in every_node(function):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    bound.setdefault(target.id, []).append(_is_runtime_credentials(node.value))
        elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bound.setdefault(node.id, [])
    names = {name for name, kinds in bound.items() if kinds and all(kinds)}
    if any(any(kinds) and not all(kinds) for kinds in bound.values()):
        return None
    return names


def is_credentials(node: ast.AST, names: set[str]) -> bool:
    return (isinstance(node, ast.Name) and node.id in names) or _is_runtime_credentials(node)


def _is_runtime_credentials(node: ast.AST) -> bool:
    """`self.runtime.credentials` (any receiver name: a helper may call it `tool`)."""
    return (
        isinstance(node, ast.Attribute)
        and node.attr == "credentials"
        and isinstance(node.value, ast.Attribute)
        and node.value.attr == "runtime"
    )
