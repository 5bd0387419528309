"""The plugin's own functions a tool hands its parameters' dictionary to: `self.helper(params)`
(a method of the tool class), `helper(params)` (a function of the tool's module, or one it imports
from the plugin's own modules: `from .utils import helper`, `from tools.utils import helper`) or
`utils.helper(params)` (`import tools.utils as utils`, `from . import utils`), `client.m(params)` (a
method of a class of the module, `client = Client(...)` bound once in the caller), followed to any depth
up to `MAX_DEPTH`, so that the parameters they look up are read as `_invoke`'s own.

A function is followed only when every reference to it in the calling module is a call that hands it
the dictionary (or, inside a followed function, the parameter that received it), at a place that
binds one plain parameter, and, for a function of another module, when its own module never names
it: then its parameter is always a tool's dictionary, and what it looks up there is what the tool
looks up (also under a parameter that every call gives a string constant, `required(params,
"ticker")`: `Helper.named`). Anything else (a function also called with other dictionaries, `*args`,
a decorator other than `staticmethod` and `classmethod`, a name bound twice) leaves it unfollowed,
and the readers stay silent as they do for any other code the dictionary is handed to.

`Scope` and `target` (which function a call runs) serve the checks that follow a value rather than
the dictionary, too (`select_options.py`).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from generator.check.common import every_node, kept_on, tool_modules
from generator.check.plugin_code import PluginCode, imported_module, module_name, plugin_code
from generator.check.undeclared import Function, Keys, Parents, class_members, guarded_keys
from generator.findings import Finding
from generator.load.crawl import LoadedPlugin

# How deep calls are followed: helpers of helpers, and no further.
MAX_DEPTH = 3
# Decorators that leave a method's body what runs and its arguments where they were (after `self`
# or `cls`, which `receiving_parameter` skips): any other may wrap the function in anything.
PLAIN_DECORATORS = frozenset({"staticmethod", "classmethod"})


@dataclass(frozen=True, slots=True)
class Helper:
    """A function that receives the tool's dictionary as its parameter `name`; `display` is its
    file as findings name it, `shared` says it is a function of another module (which other tools
    may call with their own dictionaries); `named` maps each of its parameters that every call
    gives a string constant (`required(params, "ticker")`) to those strings: a key it names by
    that parameter (`params[key]`, `key in params`) is one of them."""

    function: Function
    name: str
    display: str
    shared: bool
    named: Mapping[str, frozenset[str]]


@dataclass(frozen=True, slots=True)
class Followed:
    """The keys each followed call's function names (by the call's `id`), and the functions."""

    passed: dict[int, Keys]
    helpers: tuple[Helper, ...]


@dataclass(frozen=True, slots=True)
class _Names:
    """What a module binds and uses: its functions and classes, every name it uses, and the names
    it imports from the plugin's own modules (local name -> (module, name in it): `from m import f
    as g` gives g -> (m, f); `import m as x` and `from p import m` give x -> (m, ""))."""

    functions: dict[str, list[ast.stmt]]
    references: dict[str, list[ast.AST]]
    imported: dict[str, tuple[str, str]]


@dataclass(frozen=True, slots=True)
class Scope:
    """One of the plugin's modules as calls in it are resolved."""

    loaded: LoadedPlugin
    code: PluginCode
    relative: str
    tree: ast.Module

    @property
    def display(self) -> str:
        return self.loaded.display_path(self.relative)

    @property
    def names(self) -> _Names:
        # found once per syntax tree, however many tools and checks follow calls through it
        return kept_on(self.tree, "follow_names", lambda: _names(self.code, self.relative, self.tree))

    @property
    def functions(self) -> dict[str, list[ast.stmt]]:
        return self.names.functions

    @property
    def references(self) -> dict[str, list[ast.AST]]:
        return self.names.references

    @property
    def imported(self) -> dict[str, tuple[str, str]]:
        return self.names.imported


def once_per_place(findings: Iterable[Finding]) -> Iterator[Finding]:
    """Each finding once per rule and place: a function that several tools hand their dictionaries
    to (one of another module, or a module holding several tools) is one cause, told for the
    first tool that reaches it."""
    told: set[tuple[str, str, int, int]] = set()
    for finding in findings:
        place = (finding.rule, finding.file, finding.line, finding.column)
        if place not in told:
            told.add(place)
            yield finding


def tool_functions(loaded: LoadedPlugin) -> Iterator[tuple[Function, Scope]]:
    """Every function of every module the SDK executes for the plugin's tools, with that module as
    calls in it are resolved."""
    tools = loaded.plugin.tools if loaded.plugin else ()
    for relative, tree, _tool in tool_modules(loaded, tools):
        scope = scope_of(loaded, relative, tree)
        for node in every_node(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                yield node, scope


def scope_of(loaded: LoadedPlugin, relative: str, tree: ast.Module) -> Scope:
    """The module `relative` (with its syntax tree) as calls in it are resolved."""
    return Scope(loaded, plugin_code(loaded), relative, tree)


def _names(code: PluginCode, relative: str, tree: ast.Module) -> _Names:
    return _Names(_module_functions(tree), _references(tree), _imports(code, relative, tree))


def follow(loaded: LoadedPlugin, module: tuple[str, ast.Module], invoke: Function, name: str) -> Followed:
    """The helpers `invoke` (in the file and syntax tree `module`) hands its dictionary `name` to,
    and what they name of it."""
    scope = scope_of(loaded, *module)
    passed: dict[int, Keys] = {}
    helpers: list[Helper] = []
    _follow(invoke, name, scope, passed, helpers, 0)
    return Followed(passed, tuple(helpers))


def _follow(
    function: Function, name: str, scope: Scope, passed: dict[int, Keys], helpers: list[Helper], depth: int
) -> None:
    if depth >= MAX_DEPTH:
        return
    for _call, (helper, inside), parameter in _calls_with(function, name, scope):
        if any(found.function is helper for found in helpers):
            continue  # called twice (or recursively): its keys are known once
        before = len(helpers)
        calls = _calls_of(function, name, helper, scope)
        named = _named_keys(helper, calls)
        helpers.append(Helper(helper, parameter, inside.display, inside.relative != scope.relative, named))
        _follow(helper, parameter, inside, passed, helpers, depth + 1)
        parents: Parents = {
            child: node for node in every_node(helper) for child in ast.iter_child_nodes(node)
        }
        keys = guarded_keys(helper, parameter, parents, passed, _listed_keys(helper, calls), named)
        if keys is None:
            del helpers[before:]  # it may add keys: neither it nor what it calls is read as the tool's
            continue
        for same in calls:
            passed[id(same)] = keys


def _calls_with(
    function: Function, name: str, scope: Scope
) -> list[tuple[ast.Call, tuple[Function, Scope], str]]:
    """Each call in `function` handing `name` to a helper that only ever receives the dictionary."""
    found = []
    for node in every_node(function):
        if not isinstance(node, ast.Call):
            continue
        target = resolve(node, function, scope)
        parameter = _receiving(node, target[0], name) if target is not None else None
        if target is None or parameter is None:
            continue
        if every_reference(_calls_of(function, name, target[0], scope), target, scope):
            found.append((node, target, parameter))
    return found


def every_reference(calls: list[ast.Call], target: tuple[Function, Scope], scope: Scope) -> bool:
    """True when `calls` (of the function `target`, in the module `scope`) are every reference
    to it there, and it lives in that module or its own module never names it (no call of it
    there with another argument): then what those calls hand it is all it ever receives."""
    helper, home = target
    local = _local_name(calls[0]) if calls else ""
    unnamed_at_home = home.relative == scope.relative or not home.references.get(helper.name)
    return bool(calls) and len(scope.references.get(local, [])) == len(calls) and unnamed_at_home


def _calls_of(function: Function, name: str, helper: Function, scope: Scope) -> list[ast.Call]:
    return [
        node
        for node in every_node(function)
        if isinstance(node, ast.Call)
        and (found := resolve(node, function, scope)) is not None
        and found[0] is helper
        and _receiving(node, helper, name) is not None
    ]


def _local_name(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def resolve(call: ast.Call, caller: Function, scope: Scope) -> tuple[Function, Scope] | None:
    """The function a call runs and the module it lives in: `self.m(...)` a method of the class
    `caller` belongs to, `f(...)` a function of the module or one it imports from the plugin's own
    modules, `mod.f(...)` a function of a plugin module imported as `mod`, `C(...).m(...)` a method
    of a class of the module (also through a name the caller binds once to `C(...)`); each bound once
    and undecorated (but for `staticmethod` and `classmethod`)."""
    func = call.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self":
        owner = owner_class(scope.tree, caller)
        return _one(class_members(owner).get(func.attr, []), scope) if owner is not None else None
    if isinstance(func, ast.Name):
        if func.id in scope.functions:
            return _one(scope.functions[func.id], scope)
        return _imported(scope, *scope.imported[func.id]) if func.id in scope.imported else None
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        module, attribute = scope.imported.get(func.value.id, ("", "x"))
        if module:
            return _imported(scope, module, func.attr) if not attribute else None
        made = _made(caller, func.value.id)  # `x = C(...)` then `x.m(...)`
        return _method(made, func.attr, scope) if made is not None else None
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call):
        return _method(func.value, func.attr, scope)  # `C(...).m(...)`
    return None


def _method(made: ast.Call, name: str, scope: Scope) -> tuple[Function, Scope] | None:
    """The method `name` of the instance `made` makes: `C(...)` for a class `C` of the module bound
    once and undecorated."""
    bound = scope.functions.get(made.func.id, []) if isinstance(made.func, ast.Name) else []
    if len(bound) == 1 and isinstance(bound[0], ast.ClassDef) and not bound[0].decorator_list:
        return _one(class_members(bound[0]).get(name, []), scope)
    return None


def _made(caller: Function, name: str) -> ast.Call | None:
    """The call `C(...)` that the one binding of `name` in `caller` gives it, if that binding is a
    plain assignment of a call."""
    stores = [
        node
        for node in every_node(caller)
        if isinstance(node, ast.Name) and node.id == name and not isinstance(node.ctx, ast.Load)
    ]
    if len(stores) != 1 or any(isinstance(node, ast.arg) and node.arg == name for node in every_node(caller)):
        return None
    return next(
        (
            node.value
            for node in every_node(caller)
            if isinstance(node, ast.Assign)
            and node.targets == [stores[0]]
            and isinstance(node.value, ast.Call)
        ),
        None,
    )


def _imported(scope: Scope, module: str, name: str) -> tuple[Function, Scope] | None:
    """`name` as the plugin's own module `module` binds it."""
    found = scope.code.modules.get(module)
    if found is None or found[0] == scope.relative:
        return None
    home = scope_of(scope.loaded, *found)
    return _one(home.functions.get(name, []), home)


def _one(bound: list[ast.stmt], scope: Scope) -> tuple[Function, Scope] | None:
    if len(bound) != 1 or not isinstance(bound[0], ast.FunctionDef | ast.AsyncFunctionDef):
        return None
    plain = all(isinstance(d, ast.Name) and d.id in PLAIN_DECORATORS for d in bound[0].decorator_list)
    return (bound[0], scope) if plain else None


def owner_class(tree: ast.Module, function: Function) -> ast.ClassDef | None:
    return next(
        (node for node in tree.body if isinstance(node, ast.ClassDef) and function in node.body), None
    )


def _receiving(call: ast.Call, helper: Function, name: str) -> str | None:
    """The parameter of `helper` that receives `name` in `call`; None when it is not handed over
    exactly once as a plain parameter."""
    given = [index for index, value in enumerate(call.args) if _is(value, name)]
    named = [keyword.arg for keyword in call.keywords if _is(keyword.value, name)]
    if any(isinstance(value, ast.Starred) for value in call.args) or len(given) + len(named) != 1:
        return None
    return receiving_parameter(call, helper, given[0] if given else named[0])


def receiving_parameter(call: ast.Call, helper: Function, argument: int | str | None) -> str | None:
    """The parameter of `helper` that the positional argument at index `argument` (or the keyword
    argument of that name) of `call` binds; None when `*args` or `**kwargs` make it unclear."""
    arguments = helper.args
    if arguments.vararg or arguments.kwarg or argument is None:
        return None
    positional = [*arguments.posonlyargs, *arguments.args]
    if isinstance(call.func, ast.Attribute) and positional and positional[0].arg in ("self", "cls"):
        positional = positional[1:]
    if isinstance(argument, int):
        return positional[argument].arg if argument < len(positional) else None
    every = {parameter.arg for parameter in [*positional, *arguments.kwonlyargs]}
    return argument if argument in every else None


def _listed_keys(helper: Function, calls: list[ast.Call]) -> Mapping[str, frozenset[str]]:
    """For each parameter of `helper` that every one of `calls` gives a literal list of strings
    (`validate(params, ["model", "title"])`), those strings, together: a computed key the helper
    tests that runs over that parameter can only be one of them."""
    found: dict[str, set[str]] = {}
    for call in calls:
        for index, value in enumerate(call.args):
            parameter = receiving_parameter(call, helper, index)
            strings = literal_strings(value)
            if parameter is not None and strings is not None:
                found.setdefault(parameter, set()).update(strings)
    return {parameter: frozenset(keys) for parameter, keys in found.items()}


def _named_keys(helper: Function, calls: list[ast.Call]) -> Mapping[str, frozenset[str]]:
    """For each parameter of `helper` that every one of `calls` gives a string constant
    (`required(params, "ticker")`, `required(params, name="year")`) and that the helper never
    rebinds, those strings, together: the helper's `params[name]`, `params.get(name)` or `name in
    params` names one of them, which is the key the caller reads."""
    found: dict[str, set[str]] | None = None
    for call in calls:
        given: dict[str, str] = {}
        arguments: list[tuple[int | str, ast.expr]] = [*enumerate(call.args)]
        arguments += [(keyword.arg, keyword.value) for keyword in call.keywords if keyword.arg]
        for argument, value in arguments:
            parameter = receiving_parameter(call, helper, argument)
            if parameter is not None and isinstance(value, ast.Constant) and isinstance(value.value, str):
                given[parameter] = value.value
        # a parameter stays a key name only while every call gives it a string constant
        found = {
            parameter: (found[parameter] if found is not None else set()) | {value}
            for parameter, value in given.items()
            if found is None or parameter in found
        }
    rebound = {
        node.id
        for node in every_node(helper)
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load)
    }
    kept = (found or {}).items()
    return {parameter: frozenset(keys) for parameter, keys in kept if parameter not in rebound}


def literal_strings(node: ast.expr) -> frozenset[str] | None:
    """The strings of a literal list, tuple or set of string constants; None for anything else."""
    if not isinstance(node, ast.List | ast.Tuple | ast.Set):
        return None
    values = [element.value for element in node.elts if isinstance(element, ast.Constant)]
    if len(values) != len(node.elts) or not all(isinstance(value, str) for value in values):
        return None
    return frozenset(str(value) for value in values)


def _imports(code: PluginCode, relative: str, tree: ast.Module) -> dict[str, tuple[str, str]]:
    """The names the module's top level imports from the plugin's own modules."""
    found: dict[str, tuple[str, str]] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            base = imported_module(relative, node)
            for alias in node.names if base is not None else ():
                local = alias.asname or alias.name
                if f"{base}.{alias.name}" in code.modules:
                    found[local] = (f"{base}.{alias.name}", "")  # `from . import utils`
                elif base in code.modules:
                    found[local] = (str(base), alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname and alias.name in code.modules:
                    found[alias.asname] = (alias.name, "")
    own = module_name(relative)
    return {local: bound for local, bound in found.items() if bound[0] != own}


def _module_functions(tree: ast.Module) -> dict[str, list[ast.stmt]]:
    found: dict[str, list[ast.stmt]] = {}
    for node in every_node(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found.setdefault(node.name, []).append(node)  # nested or not: a name bound twice is unclear
    return {name: bound for name, bound in found.items() if bound[0] in tree.body}


def _references(tree: ast.Module) -> dict[str, list[ast.AST]]:
    """Every use of a name in the module, as a bare name or an attribute (`self.m`, `obj.m`)."""
    found: dict[str, list[ast.AST]] = {}
    for node in every_node(tree):
        if isinstance(node, ast.Name):
            found.setdefault(node.id, []).append(node)
        elif isinstance(node, ast.Attribute):
            found.setdefault(node.attr, []).append(node)
    return found


def _is(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name
