"""Attributes looked up on the plugin's own objects that their class does not have (T012).

`pil.getpixel(...)` where `pil = ImageHelper(...)` and the plugin's `ImageHelper` defines `get_pixel`
fails with AttributeError whatever the inputs. Only receivers whose class is certain are judged: a
name every binding of which in the function creates the same class of the plugin, or `self` in a
method of a class nothing in the plugin derives from; and only classes whose attributes are all
visible: plain bodies, bases that are such classes of the plugin, no `__getattr__`, no `setattr`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from generator.check import CheckContext
from generator.check.common import children, closest_name, every_node, kept_on
from generator.check.dead_code import unreached_functions
from generator.check.plugin_code import PluginCode, imported_module, plugin_code, reachable_modules
from generator.check.sdk_api_index import PACKAGE, tool_attributes
from generator.check.sdk_file import own_nodes
from generator.check.undeclared import Parents, always_evaluates, class_members, constant
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.rules import Listing, rule

NO_ATTRIBUTE = rule(
    "T012",
    "attribute-not-defined",
    Severity.ERROR,
    "{receiver}.{attribute}: class {cls} of the plugin ({file}) defines no attribute {attribute} (it has"
    " {names}), so every call that reaches this line fails with AttributeError, whatever the inputs",
    "Use the name the class defines, or define `{attribute}` in class {cls}.",
    """
A tool that looks up an attribute its own object does not have fails with AttributeError on
every call that reaches the line, and no input can change that; a run on invented inputs would
blame the inputs. The check reads the plugin's code (the tool and provider files and the plugin's
modules they import) and judges only what is certain:

- the receiver is a name that every binding in the function sets to `C(...)`, with `C` a class of
  the plugin (defined in that file or imported from another of its files), or `self` in a method of
  `C` when no class of the plugin derives from `C` (a subclass could add the attribute);
- `C`'s attributes are all visible: its body holds only methods, assignments, annotations and nested
  classes, its bases are such classes of the plugin, or `dify_plugin`'s `Tool` (whose attributes,
  those of every published release together, are read from the SDK's wheels into
  `check/sdk_api_index.json`: a tool's `self.provider` or `self.create_error_message` exists in no
  release), or none; it has no metaclass, no decorator other than `dataclass`, and no
  `__getattr__` or `__getattribute__`;
- the file spells every attribute it sets (no `setattr` with a computed name, no `__dict__` or
  `vars(x)`);
- an attribute stored anywhere in the plugin's code (`x.name = ...`, `setattr(x, "name", ...)`), a
  dunder name, one tested with `hasattr` or read with `getattr` in the function, or a lookup inside
  a `try` that catches AttributeError by name is never reported (a handler of every exception is the
  tool's error answer, which then answers every call instead of the tool).

A lookup in a private helper (`_name`) that the plugin's code never runs is not reported: one
that nothing calls, or that only a branch no caller can take calls (`self._format(result,
"text")` is the only call of `_format`, so its `if fmt == "json": self._as_json(...)` never runs).
Nobody meets such a line; the SDK calls only public names and those of its `Tool`.

An error when the lookup runs on every call of its function (no branch, loop, handler or
short-circuit before it; a `try` body counts as run); a warning when it sits in a branch, which
only the calls that take it meet.

The message lists the names the class has; the hint names the closest one.
""",
)
CLOSE_HINT = (
    "The class defines `{close}`: write `{receiver}.{close}`, or define `{attribute}` in class {cls}."
)
# Statements that leave a class body plainly readable.
_PLAIN = (
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.Assign,
    ast.AnnAssign,
    ast.Expr,
    ast.Pass,
    ast.ClassDef,
)
_DYNAMIC = frozenset({"__getattr__", "__getattribute__"})
# A handler of AttributeError itself says the code probes for the attribute; a handler of every
# exception (`except Exception`, a bare `except`) is the tool's error answer, which then answers
# every call: the lookup is reported.
_CATCHES = frozenset({"AttributeError"})
_METHOD_DECORATORS = frozenset({"property", "cached_property", "setter", "getter", "deleter"})


@dataclass(frozen=True, slots=True)
class OwnClass:
    """A class of the plugin: where it is defined and, when all are visible, its attributes."""

    name: str
    file: str
    node: ast.ClassDef
    attributes: frozenset[str] | None


Classes = dict[str, OwnClass]


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """Lookups of attributes the plugin's own classes do not have, in the code the tools run."""
    if loaded.plugin is None:
        return
    code = plugin_code(loaded)
    reachable = reachable_modules(loaded, code)
    if not reachable:
        return
    stored = stored_attributes(code)
    derived = derived_names(code)
    known = _classes(code)
    unreached = unreached_functions(loaded)
    for module in reachable:
        relative, tree = code.modules[module]
        visible = _visible(code, known, module, tree)
        if not visible:
            continue
        display = loaded.display_path(relative)
        for function in every_node(tree):
            if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef) and id(function) not in unreached:
                parents = {child: parent for parent in own_nodes(function) for child in children(parent)}
                for node, receiver, own in _misses(function, visible, derived, stored, tree):
                    straight = on_every_call(node, function, parents)
                    yield _finding(loaded, display, node, receiver, own, straight)


def _finding(
    loaded: LoadedPlugin, display: str, node: ast.Attribute, receiver: str, own: OwnClass, straight: bool
) -> Finding:
    names = sorted(name for name in own.attributes or () if not name.startswith("__"))
    close = closest_name(node.attr, names)
    return NO_ATTRIBUTE.at(
        Location(display, node.lineno, node.col_offset + 1),
        Severity.ERROR if straight else Severity.WARNING,
        hint=CLOSE_HINT if close else None,
        receiver=receiver,
        attribute=node.attr,
        cls=own.name,
        file=loaded.display_path(own.file),
        names=Listing(names, most=12) if names else "no attributes of its own",
        close=close or "",
    )


def on_every_call(node: ast.AST, function: ast.FunctionDef | ast.AsyncFunctionDef, parents: Parents) -> bool:
    """True when every call of `function` reaches `node`: no branch, loop, handler or short-circuit
    between them (a `try` or `with` body counts as run: a failure there still answers every call
    with the handler's error), and no `return` or `raise` before it in the function's body."""
    child, parent = node, parents.get(node)
    while parent is not None and parent is not function:
        in_body = isinstance(parent, ast.Try | ast.TryStar | ast.With | ast.AsyncWith) and any(
            child is statement for statement in parent.body
        )
        if not (in_body or always_evaluates(parent, child)):
            return False
        child, parent = parent, parents.get(parent)
    if not isinstance(child, ast.stmt) or all(child is not s for s in function.body):
        return False  # a default value or a decorator, not the body
    earlier = function.body[: [id(s) for s in function.body].index(id(child))]
    return not any(isinstance(statement, ast.Return | ast.Raise) for statement in earlier)


def stored_attributes(code: PluginCode) -> frozenset[str]:
    """Every attribute name the plugin's code stores or deletes on any object, or names in
    `setattr`/`delattr`."""
    names: set[str] = set()
    for _relative, tree in code.modules.values():
        for node in every_node(tree):
            if isinstance(node, ast.Attribute) and not isinstance(node.ctx, ast.Load):
                names.add(node.attr)
            elif named := named_in_call(node, ("setattr", "delattr")):
                names.add(named)
    return frozenset(names)


def named_in_call(node: ast.AST, names: tuple[str, ...]) -> str | None:
    """For `setattr(x, NAME, ...)` (or another of `names`): NAME when a string constant, "" when
    computed; None for any other node."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in names):
        return None
    return (constant(node.args[1]) or "") if len(node.args) >= 2 else None


def derived_names(code: PluginCode) -> set[str]:
    """The names of the classes some class of the plugin derives from (`Base`, or `mod.Base`'s
    `Base`): a subclass may override what such a class defines."""
    return {_base_name(base) for _name, (_file, tree) in code.modules.items() for base in _bases(tree)}


def _bases(tree: ast.Module) -> Iterator[ast.expr]:
    for node in every_node(tree):
        if isinstance(node, ast.ClassDef):
            yield from node.bases


def _base_name(base: ast.expr) -> str:
    if isinstance(base, ast.Attribute):
        return base.attr
    return base.id if isinstance(base, ast.Name) else ""


def _classes(code: PluginCode) -> dict[tuple[str, str], ast.ClassDef]:
    """The top-level classes of each module bound once there, by (module, name)."""
    found: dict[tuple[str, str], ast.ClassDef] = {}
    for module, (_relative, tree) in code.modules.items():
        counts: dict[str, int] = {}
        for statement in tree.body:
            for name in _bound_names(statement):
                counts[name] = counts.get(name, 0) + 1
        for statement in tree.body:
            if isinstance(statement, ast.ClassDef) and counts.get(statement.name) == 1:
                found[(module, statement.name)] = statement
    return found


def _bound_names(statement: ast.stmt) -> Iterator[str]:
    if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        yield statement.name
    elif isinstance(statement, ast.Import | ast.ImportFrom):
        yield from ((alias.asname or alias.name).split(".")[0] for alias in statement.names)
    else:
        for node in ast.walk(statement):
            if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                yield node.id


def _visible(
    code: PluginCode, known: dict[tuple[str, str], ast.ClassDef], module: str, tree: ast.Module
) -> Classes:
    """The plugin's classes a module can name, by the name it uses, with their attributes."""
    names: dict[str, tuple[str, str]] = {name: (mod, name) for (mod, name) in known if mod == module}
    for statement in tree.body:
        if isinstance(statement, ast.ImportFrom):
            source = imported_module(code.modules[module][0], statement)
            for alias in statement.names:
                if source is not None and (source, alias.name) in known:
                    names[alias.asname or alias.name] = (source, alias.name)
    return {
        name: OwnClass(key[1], code.modules[key[0]][0], known[key], _attributes(code, known, key, set()))
        for name, key in names.items()
    }


def _attributes(
    code: PluginCode,
    known: dict[tuple[str, str], ast.ClassDef],
    key: tuple[str, str],
    seen: set[tuple[str, str]],
) -> frozenset[str] | None:
    """Every attribute the class defines or inherits; None when they are not all visible."""
    node = known[key]
    if key in seen or node.keywords or not all(_is_dataclass(d) for d in node.decorator_list):
        return None
    if any(not isinstance(statement, _PLAIN) for statement in node.body):
        return None
    _relative, tree = code.modules[key[0]]
    if kept_on(tree, "writes_unnamed", lambda: any(_writes_unnamed(n) for n in every_node(tree))):
        return None  # names set on some object that the code does not spell: this class's may be among them
    members = set(class_members(node)) | {s.name for s in node.body if isinstance(s, ast.ClassDef)}
    members |= _instance_attributes(node)
    if members & _DYNAMIC:
        return None
    for base in node.bases:
        if isinstance(base, ast.Name) and base.id == "object":
            continue
        parent = _visible_key(code, known, key[0], tree, base)
        if parent is not None:
            inherited = _attributes(code, known, parent, seen | {key})
        else:
            inherited = tool_attributes() if _is_sdk_tool(tree, base) else None
        if inherited is None:
            return None
        members |= inherited
    return frozenset(members)


def _instance_attributes(node: ast.ClassDef) -> set[str]:
    """Attributes the class's methods store on their first parameter (`self.width = ...`)."""
    found: set[str] = set()
    for method in node.body:
        positional = (
            [*method.args.posonlyargs, *method.args.args]
            if isinstance(method, ast.FunctionDef | ast.AsyncFunctionDef)
            else []
        )
        if not positional:
            continue
        for inner in every_node(method):
            if (
                isinstance(inner, ast.Attribute)
                and not isinstance(inner.ctx, ast.Load)
                and isinstance(inner.value, ast.Name)
                and inner.value.id == positional[0].arg
            ):
                found.add(inner.attr)
    return found


def _writes_unnamed(node: ast.AST) -> bool:
    return named_in_call(node, ("setattr",)) == "" or _touches_dict(node)


def _touches_dict(node: ast.AST) -> bool:
    """`x.__dict__` or `vars(x)`: attributes written without their names."""
    if isinstance(node, ast.Attribute):
        return node.attr == "__dict__"
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "vars"
        and bool(node.args)
    )


def _visible_key(
    code: PluginCode,
    known: dict[tuple[str, str], ast.ClassDef],
    module: str,
    tree: ast.Module,
    base: ast.expr,
) -> tuple[str, str] | None:
    if not isinstance(base, ast.Name):
        return None
    if (module, base.id) in known:
        return (module, base.id)
    for statement in tree.body:
        if isinstance(statement, ast.ImportFrom):
            source = imported_module(code.modules[module][0], statement)
            for alias in statement.names:
                if (
                    (alias.asname or alias.name) == base.id
                    and source is not None
                    and (source, alias.name) in known
                ):
                    return (source, alias.name)
    return None


def _is_sdk_tool(tree: ast.Module, base: ast.expr) -> bool:
    """True when `base` names `dify_plugin`'s `Tool` (`Tool` imported from the SDK, or
    `dify_plugin.Tool`)."""
    if isinstance(base, ast.Attribute):
        return base.attr == "Tool" and isinstance(base.value, ast.Name) and base.value.id == PACKAGE
    if not isinstance(base, ast.Name):
        return False
    return any(
        isinstance(statement, ast.ImportFrom)
        and (statement.module or "").split(".")[0] == PACKAGE
        and not statement.level
        and any(alias.name == "Tool" and (alias.asname or alias.name) == base.id for alias in statement.names)
        for statement in tree.body
    )


def _is_dataclass(decorator: ast.expr) -> bool:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    return _base_name(target) == "dataclass"


Miss = tuple[ast.Attribute, str, OwnClass]


def _misses(
    function: ast.FunctionDef | ast.AsyncFunctionDef,
    visible: Classes,
    derived: set[str],
    stored: frozenset[str],
    tree: ast.Module,
) -> Iterator[Miss]:
    receivers = _receivers(function, visible, derived, tree)
    if not receivers:
        return
    nodes = own_nodes(function)
    probed = {named for n in nodes if (named := named_in_call(n, ("hasattr", "getattr")))}
    parents = {child: node for node in nodes for child in children(node)}
    for node in nodes:
        if not (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load)):
            continue
        if not isinstance(node.value, ast.Name) or node.value.id not in receivers:
            continue
        own = receivers[node.value.id]
        attribute = node.attr
        if (
            own.attributes is None
            or attribute in own.attributes
            or attribute in stored
            or attribute in probed
        ):
            continue
        if attribute.startswith("__") or _caught(node, parents):
            continue
        yield node, node.value.id, own


def _receivers(
    function: ast.FunctionDef | ast.AsyncFunctionDef, visible: Classes, derived: set[str], tree: ast.Module
) -> dict[str, OwnClass]:
    """Names whose class is certain in the function."""
    bindings: dict[str, list[str | None]] = {}
    arguments = function.args
    for argument in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]:
        bindings.setdefault(argument.arg, []).append(None)
    for rest in (arguments.vararg, arguments.kwarg):
        if rest is not None:
            bindings.setdefault(rest.arg, []).append(None)
    for node in every_node(function):  # a nested function may rebind a name of this one
        if isinstance(node, ast.Global | ast.Nonlocal):
            for name in node.names:
                bindings.setdefault(name, []).append(None)
    nodes = own_nodes(function)
    judged = {id(n.targets[0]) for n in nodes if isinstance(n, ast.Assign) and _single_name(n)}
    for node in nodes:
        if isinstance(node, ast.Assign) and _single_name(node):
            created = node.value
            made = (
                created.func.id
                if isinstance(created, ast.Call) and isinstance(created.func, ast.Name)
                else None
            )
            target = node.targets[0]
            assert isinstance(target, ast.Name)  # what _single_name accepts
            bindings.setdefault(target.id, []).append(made if made in visible else None)
        elif id(node) not in judged:
            for name in _stored_names(node):
                bindings.setdefault(name, []).append(None)
    found = {
        name: visible[kinds[0]]
        for name, kinds in bindings.items()
        if kinds and kinds[0] is not None and all(kind == kinds[0] for kind in kinds)
    }
    owner = _owner(function, tree, visible)
    positional = [*arguments.posonlyargs, *arguments.args]
    if owner is not None and owner.name not in derived and positional and _is_method(function):
        own_self = positional[0].arg
        if bindings.get(own_self) == [None]:
            found[own_self] = owner
    return found


def _single_name(node: ast.Assign) -> bool:
    return len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)


def _stored_names(node: ast.AST) -> Iterator[str]:
    if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
        yield node.id
    elif isinstance(node, ast.alias):
        yield (node.asname or node.name).split(".")[0]
    elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        yield node.name
    elif isinstance(node, ast.ExceptHandler | ast.MatchAs | ast.MatchStar):
        yield from [node.name] if node.name else []


def _owner(
    function: ast.FunctionDef | ast.AsyncFunctionDef, tree: ast.Module, visible: Classes
) -> OwnClass | None:
    """The class of the module whose body defines `function` directly."""
    for statement in tree.body:
        if isinstance(statement, ast.ClassDef) and function in statement.body:
            own = visible.get(statement.name)
            return own if own is not None and own.node is statement else None
    return None


def _is_method(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A plain method or property: its first parameter is the instance."""
    return all(
        _base_name(d.func if isinstance(d, ast.Call) else d) in _METHOD_DECORATORS
        for d in function.decorator_list
    )


def _caught(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    child, parent = node, parents.get(node)
    while parent is not None:
        if isinstance(parent, ast.Try | ast.TryStar) and child in parent.body:
            for handler in parent.handlers:
                kind = handler.type
                kinds = kind.elts if isinstance(kind, ast.Tuple) else [kind]
                if any(_base_name(k) in _CATCHES for k in kinds if k is not None):
                    return True
        child, parent = parent, parents.get(parent)
    return False
