"""Calls of the plugin's own functions that fail whatever the inputs (R136, R137), or whenever the
tool's parameters spread into them miss or add one (R145).

A plugin's modules call each other's functions, and when one changes (a parameter added to a
helper, a sync helper made `async def`) the callers that were not updated break on every call:
`run_playwright(uri, "")` on `async def run_playwright(uri, commands, uri_type)` raises TypeError
before anything runs, and once it fits it still only makes a coroutine, which a line that neither
awaits it nor hands it to an event loop drops without running its body. The plugin's code says all
this plainly, so unlike R130 (a library's functions, read from the built environment) this runs
without any environment.

Only what the source states plainly is judged: a name bound once in the calling module, by a
top-level `def` or `class` or by an import of one of the plugin's modules, followed through that
module's re-exports (`call_signatures`); or `self.name(...)` in a method of a class of the plugin
that no class of the plugin derives from, `name` being a plain `def` of that class or of the
plugin's own bases it inherits from one by one. A decorator, `*args`/`**kwargs` in the definition
(R136) or the call, a metaclass, `__new__`, a class with a base that is not the plugin's own (its
`__init__` or metaclass may decide the call), a name bound twice or stored on an object anywhere
in the plugin (monkeypatching) is left alone.
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Iterable, Iterator
from pathlib import PurePath, PurePosixPath

from generator.check import CheckContext
from generator.check.call_signatures import Definition, Definitions, binds_elsewhere, misfits, signature_of
from generator.check.common import children, every_node, tool_modules
from generator.check.dead_code import mentioned_names, unreached_functions
from generator.check.optional_reads import FORM, LEFT_OUT_FORMS
from generator.check.own_attributes import derived_names, on_every_call, stored_attributes
from generator.check.plugin_code import (
    Function,
    PluginCode,
    plugin_code,
    reachable_functions,
    single_bindings,
)
from generator.check.sdk_file import own_nodes
from generator.check.undeclared import class_members, dictionary_name, invoke_of
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.plugin_model import Tool
from generator.rules import Phrase, rule

OWN_MISFITS = rule(
    "R136",
    "own-call-misfits",
    Severity.ERROR,
    "`{call}(...)` {problem}, but the plugin's `{target}` ({file}:{line}) takes {takes}, so this call"
    " raises TypeError each time it runs",
    "Pass what `{target}` takes (the names and the number of arguments), or change its parameters if"
    " this call is the one that is right.",
    """
A call that does not fit the parameters of what it calls (an unknown keyword, too many positional
arguments, a required parameter left out or given twice) raises TypeError before the first line of
the callee runs, as `R130` says for a library's functions; a method called on its instance binds
the arguments after `self`. An `async def` binds them when it is called, before
any coroutine exists. Nothing the user enters changes that: the line fails for every call that
reaches it (in a credential check, `except Exception` turns the TypeError into the check's refusal,
so the credentials can never be saved).

Found in the modules the SDK loads, without running anything, as `R130` is for libraries (the same
matching of a call with a signature), for calls of the plugin's own definitions:

- `name(...)` where the calling module binds `name` once, by a top-level `def` or `class`, or by a
  `from ... import` of one of the plugin's modules, followed there through its re-exports to a
  top-level `def`, `async def` or `class` bound once;
- `self.name(...)` in an undecorated method of a class of the plugin that no class of the plugin
  derives from (a subclass could override `name`), where `name` is a plain method of the class, or
  of the plugin's own class it inherits from (single inheritance, each base the plugin's own).

Left alone: a decorator (on the function, the method or the class), `*args`/`**kwargs` in the
definition or `*`/`**` in the call, a metaclass or class keywords, `__new__` in the class or a base,
a class without an `__init__` of its own, a class with a base other than the plugin's own classes,
`object` and Python's exception classes (a dataclass, a pydantic model, a NamedTuple, an Enum: their
`__init__` is made for them), a name bound more than once in the module, a name stored on any object
in the plugin's code (`helpers.run = ...`, `self.run = ...`; any, after a `setattr` with a computed
name), and functions the plugin's code never runs.

An error where the call runs on every call of its function (T012's policy: a `try` or `with` body
counts as run); a warning where it sits in a branch, loop, handler or short-circuit, or in a method
whose name neither the plugin's code nor the SDK mentions (a tool's `validate_credentials`, which
the SDK's `Tool` does not have: nothing may ever call it).
""",
)
SPREAD_MISFITS = rule(
    "R145",
    "parameters-spread-misfit",
    Severity.WARNING,
    "`{call}(**{dict})` hands the tool's parameters to the plugin's `{target}` ({file}:{line}), which"
    " takes {takes}: {problem!s}, and then the call raises TypeError",
    'Pass the parameters by name ({dict}.get("...")), or give `{target}` a default (`=None`) for each'
    " optional parameter and `**kwargs` for those it does not use.",
    """
`f(**tool_parameters)` binds the dictionary Dify hands `_invoke` to `f`'s parameters by name, so
what that dictionary holds decides whether the call fits. It holds (`required_only_example` in the
runner says the same): each required parameter; each `form: form` parameter (the configured value,
its default, or None, always present); and an optional `form: llm` or `schema` parameter only when
the workflow node or the agent set it: Dify's tool node passes only the parameters the node
configures (`ToolNode._generate_parameters` iterates `node_data.tool_parameters`). So:

- a parameter `f` requires (no default) that the YAML declares optional with `form: llm` or
  `schema` is missing whenever a user leaves it empty: TypeError "missing 1 required positional
  argument";
- a parameter `f` requires that the YAML does not declare at all is never passed: TypeError on
  every call;
- a declared parameter `f` does not take (and `f` has no `**kwargs`) is an unexpected keyword
  whenever it is present: on every call when it is required or a form field, else whenever it is set.

Found without running, at `_invoke`'s calls that spread its dictionary (`**tool_parameters`, the
only `**` of the call, no `*args`), of the plugin's own definitions as R136 resolves them. A
warning: the rule does not tell which of these paths every user takes.
""",
)
NEVER_AWAITED = rule(
    "R137",
    "own-coroutine-never-awaited",
    Severity.ERROR,
    "`{call}(...)` calls the plugin's `async def {target}` ({file}:{line}) as a statement of its own:"
    " that only makes a coroutine, which is dropped without being awaited, so the body of"
    " `{target}` never runs",
    "{hint}",
    """
Calling an `async def` function runs none of its body: it returns a coroutine object, and the body
runs only when something awaits that coroutine or hands it to an event loop (`await f()`,
`asyncio.run(f())`, `loop.run_until_complete(...)`, `asyncio.gather`, `create_task`). A call written
as a statement of its own drops the coroutine at once; Python then warns `RuntimeWarning: coroutine
'f' was never awaited` and nothing of what `f` does happens, for every input: a credential check
that calls its probe this way accepts every credential, a tool that sends something this way sends
nothing.

Found without running anything, for the plugin's own `async def` functions and methods, resolved as
`R136` resolves them (a name bound once in the module by a top-level `async def` or an import of one
of the plugin's modules, or `self.name(...)` on a class of the plugin no class derives from), when
the call is an expression statement: not awaited, not returned, not stored, not passed to anything
(an argument of `asyncio.run`, `gather`, `create_task`, `run_until_complete`, `ensure_future` is not
a statement of its own). Decorated functions (a decorator may run the coroutine) and async
generators are left alone.

An error where the statement runs on every call of its function (a `try` or `with` body counts as
run); a warning where it sits in a branch, loop, handler or short-circuit, or in a method whose name
neither the plugin's code nor the SDK mentions.
""",
)
SYNC_HINT = (
    "Run it: `asyncio.run({call}(...))` from this synchronous function (or make the caller `async def`"
    " and `await` it)."
)
ASYNC_HINT = "Write `await {call}(...)`."
# Base classes whose instances are made by `type.__call__` with the class's own `__init__`:
# `object` and Python's exceptions (their `__new__` takes any arguments).
_PLAIN_BASES = frozenset(
    {"object"}
    | {
        name
        for name, value in vars(builtins).items()
        if isinstance(value, type) and issubclass(value, BaseException)
    }
)


class _OwnCode(Definitions):
    """The plugin's modules, as `call_signatures` follows definitions through them."""

    def __init__(self, loaded: LoadedPlugin, code: PluginCode) -> None:
        self.loaded = loaded
        self.code = code

    def module(self, dotted: str) -> tuple[PurePath, ast.Module] | None:
        """The plugin's module of that name."""
        found = self.code.modules.get(dotted)
        return None if found is None else (PurePosixPath(found[0]), found[1])

    def file(self, path: PurePath) -> str:
        """The file as the plugin's findings show it."""
        return self.loaded.display_path(path.as_posix())


class OwnCalls:
    """What the calls in the plugin's reachable functions name among its own definitions, when that
    is certain (the module docstring says when): one per plugin, for R136, R137, R145 and R144."""

    def __init__(self, loaded: LoadedPlugin) -> None:
        self.code = plugin_code(loaded)
        self.own = _OwnCode(loaded, self.code)
        self.stored = stored_attributes(self.code)
        self.derived = derived_names(self.code)
        modules = self.code.modules.items()
        self.modules = {id(tree): (module, relative) for module, (relative, tree) in modules}
        self._names: dict[int, dict[str, tuple[str, str]]] = {}

    def names(self, tree: ast.Module) -> dict[str, tuple[str, str]]:
        """The names a module binds once to a definition of the plugin's modules: (module, name)."""
        if id(tree) not in self._names:  # once for all the module's functions
            module, relative = self.modules[id(tree)]
            self._names[id(tree)] = {
                local: bound
                for local, bound in single_bindings(relative, tree, module).items()
                if bound[1] and bound[0] in self.code.modules and local not in self.stored
            }
        return self._names[id(tree)]

    def owner(self, function: Function, tree: ast.Module) -> tuple[str, ast.ClassDef] | None:
        """The (module, class) whose methods `self.m(...)` in `function` is followed to."""
        return _owner(function, tree, self.names(tree), self.derived)

    def called(self, call: ast.Call, function: Function, tree: ast.Module) -> Called | None:
        """The plugin's definition `call` (in `function` of the module `tree`) names, when certain."""
        return _called(call, function, self.owner(function, tree), self.names(tree), self.own, self.stored)


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """R136 and R137 at the calls of the plugin's own definitions in the code the SDK loads."""
    calls = OwnCalls(loaded)
    unreached = unreached_functions(loaded)
    named = mentioned_names(loaded)
    invokes = {  # each tool's `_invoke`, by node: the calls that spread its parameters
        id(invoke): tool
        for _file, tree, tool in tool_modules(loaded, loaded.plugin.tools if loaded.plugin else ())
        if (invoke := invoke_of(tree)) is not None
    }
    for display, tree, function in reachable_functions(loaded):
        if id(function) in unreached:
            continue
        # a method of a class of the plugin that nothing names (neither the plugin's code nor the
        # SDK, which calls its own methods' names): it may never run, a warning at most
        called_by_name = function.name in named or not _in_class(function, tree)
        parents = {child: parent for parent in own_nodes(function) for child in children(parent)}
        tool = invokes.get(id(function))
        for node in own_nodes(function):
            if isinstance(node, ast.Call):
                called = calls.called(node, function, tree)
                if called is not None:
                    yield from _findings(node, function, parents, display, called, calls.own, called_by_name)
                    if tool is not None:
                        yield from _spread(node, function, tool, display, called, calls.own)


# What a call names: the definition as a message names it, its file and node, and whether it is
# called on an instance.
Called = tuple[str, PurePath, Definition, bool]


def _findings(
    call: ast.Call,
    function: Function,
    parents: dict[ast.AST, ast.AST],
    display: str,
    called: Called,
    own: _OwnCode,
    called_by_name: bool,
) -> Iterator[Finding]:
    target, path, definition, bound = called
    straight = called_by_name and on_every_call(call, function, parents)
    severity = Severity.ERROR if straight else Severity.WARNING
    location = Location(display, call.lineno, call.col_offset + 1)
    shown = ast.unparse(call.func)
    signature = signature_of(definition, definition.name, own.file(path), "", bound)
    problems = misfits(call, signature) if signature is not None else []
    if signature is not None and problems:
        yield OWN_MISFITS.at(
            location,
            severity,
            call=shown,
            problem=Phrase("; ".join(problems)),
            target=target,
            file=signature.file,
            line=signature.line,
            takes=Phrase(signature.shown()),
        )
    if (
        isinstance(definition, ast.AsyncFunctionDef)
        and not definition.decorator_list
        and isinstance(parents.get(call), ast.Expr)
        and not _yields(definition)
    ):
        yield NEVER_AWAITED.at(
            location,
            severity,
            hint=ASYNC_HINT if isinstance(function, ast.AsyncFunctionDef) else SYNC_HINT,
            call=shown,
            target=target,
            file=own.file(path),
            line=definition.lineno,
        )


def _spread(
    call: ast.Call, function: Function, tool: Tool, display: str, called: Called, own: _OwnCode
) -> Iterator[Finding]:
    """R145 at a call of `_invoke` that spreads its parameters' dictionary into the plugin's own
    definition."""
    dictionary = dictionary_name(function)
    spread = [k.value for k in call.keywords if k.arg is None]
    if (
        dictionary is None
        or len(spread) != 1
        or not isinstance(spread[0], ast.Name)
        or spread[0].id != dictionary
        or any(isinstance(a, ast.Starred) for a in call.args)
        or _rebinds(function, dictionary)
    ):
        return
    target, path, definition, bound = called
    signature = signature_of(definition, definition.name, own.file(path), "", bound)
    if signature is None:
        return
    given = set(signature.positional[: len(call.args)]) | {k.arg for k in call.keywords if k.arg}
    declared = {p.name: p for p in tool.parameters if p.name}
    problems: list[str] = []
    for name in signature.required:
        parameter = declared.get(name)
        if name in given or (parameter is not None and (parameter.required or parameter.form == FORM)):
            continue
        if parameter is None:
            problems.append(f"it requires `{name}`, which the tool does not declare, so it is never passed")
        elif parameter.form in LEFT_OUT_FORMS:
            problems.append(f"it requires `{name}`, absent whenever that optional parameter is left empty")
    if not signature.any_keyword:
        for name, parameter in declared.items():
            if name not in signature.keywords and name not in given:
                when = (
                    "on every call" if parameter.required or parameter.form == FORM else "whenever it is set"
                )
                problems.append(f"it does not take `{name}`, which the dictionary holds {when}")
    if problems:
        yield SPREAD_MISFITS.at(
            Location(display, call.lineno, call.col_offset + 1),
            call=ast.unparse(call.func),
            dict=dictionary,
            target=target,
            file=signature.file,
            line=signature.line,
            takes=Phrase(signature.shown()),
            problem=Phrase("; ".join(problems)),
        )


def _called(
    call: ast.Call,
    function: Function,
    owner: tuple[str, ast.ClassDef] | None,
    names: dict[str, tuple[str, str]],
    own: _OwnCode,
    stored: frozenset[str],
) -> Called | None:
    """The plugin's definition a call names, when that is certain; None otherwise."""
    if "" in stored:
        return None  # `setattr(x, name, ...)` with a computed name: any function may be replaced
    callee = call.func
    if isinstance(callee, ast.Name) and callee.id in names:
        found = own.definition(*names[callee.id], coroutines=True)
        if found is None or found[2].name in stored:
            return None
        module, path, definition = found
        if isinstance(definition, ast.ClassDef) and not _plain_class(own, module, definition, set()):
            return None
        return f"{module}.{definition.name}", path, definition, False
    positional = [*function.args.posonlyargs, *function.args.args]
    if (
        owner is None
        or not isinstance(callee, ast.Attribute)
        or not isinstance(callee.value, ast.Name)
        or not positional
        or callee.value.id != positional[0].arg
        or callee.attr in stored
        or callee.attr.startswith("__")
        or _rebinds(function, positional[0].arg)
    ):
        return None
    method = _method(own, *owner, callee.attr, set())
    if method is None:
        return None
    cls, path, definition = method
    return f"{cls}.{definition.name}", path, definition, True


def _owner(
    function: Function, tree: ast.Module, names: dict[str, tuple[str, str]], derived: set[str]
) -> tuple[str, ast.ClassDef] | None:
    """(module, class) when `function` is an undecorated method of a class of the plugin, bound
    once at the top of its module, that no class of the plugin derives from."""
    if function.decorator_list:
        return None
    for statement in tree.body:
        if isinstance(statement, ast.ClassDef) and function in statement.body:
            bound = names.get(statement.name)
            if bound is None or statement.name in derived:
                return None
            return bound[0], statement
    return None


def _yields(function: Function) -> bool:
    """True for an async generator (its call makes no coroutine; R137's words do not fit it)."""
    return any(isinstance(node, ast.Yield | ast.YieldFrom) for node in own_nodes(function))


def _in_class(function: Function, tree: ast.Module) -> bool:
    """True when `function` is a method of one of the module's classes, at any depth."""
    return any(isinstance(node, ast.ClassDef) and function in node.body for node in every_node(tree))


def _method(
    own: _OwnCode, module: str, cls: ast.ClassDef, name: str, seen: set[int]
) -> tuple[str, PurePath, Definition] | None:
    """(the defining class's name, its file, the method) for the plain method `name` that instances
    of `cls` run: its own, or its single base's when that is the plugin's own class; None when
    unsure."""
    if id(cls) in seen or cls.decorator_list or cls.keywords:
        return None
    members = class_members(cls)
    if "__getattribute__" in members:
        return None
    statements = members.get(name)
    parsed = own.module(module)
    if parsed is None:
        return None
    path, _tree = parsed
    if statements is not None:
        (statement, *rest) = statements
        if rest or not isinstance(statement, Function) or statement.decorator_list:
            return None
        return cls.name, path, statement
    if len(cls.bases) != 1:
        return None
    base = _own_class(own, module, cls.bases[0])
    return None if base is None else _method(own, *base, name, seen | {id(cls)})


def _own_class(own: _OwnCode, module: str, base: ast.expr) -> tuple[str, ast.ClassDef] | None:
    """The plugin's class a base names (defined in the module or imported from another of the
    plugin's modules); None otherwise."""
    if not isinstance(base, ast.Name):
        return None
    found = own.definition(module, base.id)
    if found is None or not isinstance(found[2], ast.ClassDef):
        return None
    return found[0], found[2]


def _plain_class(own: _OwnCode, module: str, cls: ast.ClassDef, seen: set[int]) -> bool:
    """True when calling the class surely runs `type.__call__` with its `__init__`: no decorator,
    metaclass or `__new__` on it or its bases, which are the plugin's own such classes, `object` or
    Python's exceptions."""
    if id(cls) in seen or cls.decorator_list or cls.keywords or "__new__" in class_members(cls):
        return False
    for base in cls.bases:
        parent = _own_class(own, module, base)
        if parent is None:
            if not (
                isinstance(base, ast.Name) and base.id in _PLAIN_BASES and _unbound(own, module, base.id)
            ):
                return False
        elif not _plain_class(own, *parent, seen | {id(cls)}):
            return False
    return True


def _unbound(own: _OwnCode, module: str, name: str) -> bool:
    """True when nothing in the module binds `name` (a builtin's name is then the builtin)."""
    parsed = own.module(module)
    return parsed is not None and not any(binds_elsewhere(statement, name) for statement in parsed[1].body)


def _rebinds(function: Function, name: str) -> bool:
    """True when the function binds `name` other than as its parameter."""
    return any(
        isinstance(node, ast.Name) and node.id == name and not isinstance(node.ctx, ast.Load)
        for node in every_node(function)
    )
