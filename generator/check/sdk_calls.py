"""Calls of the SDK's helpers with arguments the helper does not take (R083).

`self.create_blob_message(blob, save_as="x.xlsx")` in a tool raises TypeError ("got an unexpected
keyword argument 'save_as'") whenever that line runs, whatever the inputs. The signatures of what
a plugin's `self` reaches on the SDK's base classes (`create_*_message`, `session.storage.set`,
`session.model.llm.invoke`, ...) are read per release from the published wheels
(`sdk_signatures.py`), and each such call in a method of the plugin's subclass is bound to the
signature of the release the plugin installs.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from packaging.version import Version

from generator.check import CheckContext
from generator.check.common import children, closest_name, every_node
from generator.check.own_attributes import named_in_call
from generator.check.plugin_code import (
    PluginCode,
    imported_module,
    plugin_code,
    reachable_from,
    reachable_modules,
)
from generator.check.sdk_api_index import release_versions, signatures, signatures_anywhere
from generator.check.sdk_file import own_nodes
from generator.check.sdk_index import installed_sdk
from generator.check.sdk_names import bound_names, sdk_imports
from generator.check.sdk_signatures import OBJECT, PACKAGE, SIGNED, Signature
from generator.check.undeclared import class_members, handlers_around, running_handler
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.rules import Phrase, Rule, rule

BAD_ARGUMENTS = rule(
    "R083",
    "sdk-call-arguments",
    Severity.ERROR,
    "{call}: {problem} ({what} of the SDK's {cls} in {releases!s}), so every call that reaches this"
    " line fails with TypeError, whatever the inputs{caught!s}",
    "{fix!s}.",
    """
A tool (or agent strategy, trigger, event, datasource or endpoint) calls the helpers its SDK base class gives
`self`: the messages (`create_text_message(text)`, `create_blob_message(blob, meta=None)`,
`create_variable_message(variable_name, variable_value)`, `create_log_message(label, data, ...)`)
and the session's invocations (`self.session.storage.set(key, val)`,
`self.session.model.llm.invoke(model_config, prompt_messages, ...)`,
`self.session.file.upload(filename, content, mimetype)`, `self.session.tool.invoke(...)`). They
are plain Python methods (`dify_plugin/interfaces/tool`: `def create_blob_message(self, blob: bytes,
meta: dict | None = None)`, `def create_text_message(self, text: str)`; `dify_plugin/invocations/
storage.py`: `def set(self, key: str, val: bytes) -> None`), wrapped by nothing that takes other
arguments: a keyword the helper does not have (`create_blob_message(blob, save_as="a.xlsx")`: the
file's name and type go in `meta`, whose `filename` and `mime_type` Dify reads), more positional
arguments than it takes, a required argument left out, or one given twice raises TypeError before
the helper runs, each time the line is reached and whatever the user gave. No input, credential or
setting of Dify changes that, so it is an error, graded as an attribute the SDK or the plugin's own
class does not have (T012, T014) and for the same reason: the line breaks for every user who
reaches it. Inside a `try` whose handler catches every exception (`except Exception`, a bare
`except`) it is a warning that names the handler: the tool then answers with that handler's text
or fallback each time (a summary never made, a tool never called), a feature that never works
rather than a tool that fails. In an `except` handler's body it is a warning too: that line runs
only when the code its `try` guards fails, and the failure is then told as a TypeError.

The signatures are read from the published wheels, per release (`check/sdk_api_index.json`, 0.0.1b15
to 0.10.2): the methods of the SDK's class and of the objects its attributes hold, by the path from
`self`. They differ between releases (`session.app.workflow.invoke` takes `user` from 0.8.0,
`session.tool.invoke` takes `credential_id` from 0.4.5), so a call is bound to the signature of the
version the plugin's dependency files install (the pin of `uv.lock`, else the newest release the
requirement allows); for a version between two releases read, to both, and it is reported only
when it fits neither; for one older than every release read, not at all; when no version can be
told, only when it fits no release read.

The check is silent when it cannot be sure: a call that spreads `*args` or `**kwargs`; a receiver
other than `self` in a plain method of a class that derives, through the plugin's own classes, from
the SDK's class imported from `dify_plugin`, a parameter annotated with such a class (`tool: Tool`)
or with the SDK's `Session` (what `self.session` holds), or a name every binding of which in the
function is the same path from one of these (`storage = self.session.storage`); a class with a
base it cannot see (a mixin from another package may define the method); a helper any class of the
plugin defines or that the plugin's code stores on an object (`self.session = ...`); a call inside
a `try` that catches TypeError by name when some release read takes it (a fallback for older or
newer releases). When no release takes it, the `try` with its `except TypeError` is a warning
like the handlers of every exception: `try: yield self.create_blob_message(blob, save_as=name)
except TypeError: yield self.create_blob_message(blob)` never makes its first form, so the file
never gets the name the keyword carries, for every call. Only the modules the SDK loads are
read: the class files the YAML names (`extra.python.source`), `main.py`, and the plugin's
modules they import.
""",
)
# What a caller of `create_blob_message` means by a keyword the helper lacks: the file's name or
# type, which Dify reads from `meta`.
_META_KEYS = {
    "filename": "filename",
    "file_name": "filename",
    "name": "filename",
    "save_as": "filename",
    "mime_type": "mime_type",
    "mimetype": "mime_type",
    "content_type": "mime_type",
}
_NOT_INSTANCE = frozenset({"classmethod", "staticmethod"})
# A handler of TypeError itself says the code expects this call to fail on some release: silent when
# one release takes it, else a warning (its fallback runs every time). A handler of every exception
# answers the failure each time (an error text, or the tool's fallback): a warning.
_CATCHES = frozenset({"TypeError"})
_EVERYTHING = frozenset({"Exception", "BaseException", ""})


@dataclass(frozen=True, slots=True)
class _Parameter:
    name: str
    kind: str  # "positional" (positional-only), "either", "keyword", "*", "**"
    default: bool


@dataclass(frozen=True, slots=True)
class SdkCall:
    """A call of a helper on one of the SDK's objects (`self.session.storage.set(...)` in a tool):
    where it is, the SDK class of its root, the path from the root, and the exception handlers
    around it (innermost first) and holding it."""

    display: str
    call: ast.Call
    cls: str
    path: str
    handlers: tuple[tuple[ast.ExceptHandler, frozenset[str]], ...]
    running: ast.ExceptHandler | None
    # the function the call is in, and its module's tree
    function: ast.FunctionDef | ast.AsyncFunctionDef
    tree: ast.Module

    def finding(self, rule: Rule, failure: str, **values: object) -> Finding:
        """A finding of `rule` at the call, named as written (`call`), a warning when a handler
        answers its failure (`caught`, saying it is told as `failure`)."""
        place = self.place
        filled: dict[str, object] = {"call": ast.unparse(self.call.func), "caught": place.told(failure)}
        return rule.at(place.at(self.call), place.severity, None, **filled, **values)

    @property
    def place(self) -> Place:
        """Its place, with the innermost handler around it that catches every exception."""
        broad = next((handler for handler, names in self.handlers if names & _EVERYTHING), None)
        return Place(self.display, broad, self.running)


def sdk_object_calls(loaded: LoadedPlugin) -> tuple[SdkCall, ...]:
    """Every call `root.a.b(...)` in the modules the SDK loads whose root holds one of the SDK's
    objects (see `_roots`). Found once per plugin: three checks ask."""
    return loaded.reader.derived("sdk-object-calls", "", lambda: tuple(_sdk_object_calls(loaded)))


def _sdk_object_calls(loaded: LoadedPlugin) -> Iterator[SdkCall]:
    code = plugin_code(loaded)
    owners = {id(method): cls for _module, node, cls in _derived(code) for method in node.body}
    for module in sorted(loaded_modules(loaded, code)):
        relative, tree = code.modules[module]
        display = loaded.display_path(relative)
        for function in every_node(tree):
            if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                for call, (cls, path), handlers, running in _calls(
                    function, _roots(function, tree, owners.get(id(function)))
                ):
                    yield SdkCall(display, call, cls, path, handlers, running, function, tree)


def _derived(code: PluginCode) -> list[tuple[str, ast.ClassDef, str]]:
    """The plugin's classes that derive from one of the SDK's classes, with their module and it."""
    return [
        (module, node, cls)
        for module, (_relative, tree) in code.modules.items()
        for node in tree.body
        if isinstance(node, ast.ClassDef) and (cls := _sdk_class(code, module, node, set())) is not None
    ]


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """Calls of the SDK's helpers on its objects (a tool's `self`, its session) whose arguments
    cannot bind to the helper."""
    # Both told once, and only for a call that some release refuses: most calls fit every release,
    # and telling the version parses the plugin's uv.lock, hundreds of kilobytes of TOML.
    defined: list[frozenset[str]] = []
    version: list[Version | None] = []
    for found in sdk_object_calls(loaded):
        call = found.call
        if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            continue
        typed = next((handler for handler, names in found.handlers if names & _CATCHES), None)
        if typed is not None and _some_release_takes(call, found.cls, found.path):
            continue  # a fallback for the releases whose helper does not take it
        if not _some_release_refuses(call, found.cls, found.path):
            continue
        if not defined:
            defined.append(
                _defined(plugin_code(loaded), [node for _module, node, _cls in _derived(plugin_code(loaded))])
            )
            version.append(installed_sdk(loaded.reader))
        if "*" in defined[0] or found.path.split(".")[0] in defined[0]:
            continue
        place = found.place if typed is None else Place(found.display, typed, found.running)
        judged = _judge(call, found.path, found.cls, version[0], place)
        if judged is not None:
            yield judged


def _some_release_refuses(call: ast.Call, cls: str, path: str) -> bool:
    """True when the call cannot bind to the helper of some release read that has it."""
    return any(
        _is_object(signature) or _problem(call, _parameters(signature)) is not None
        for _release, signature in signatures_anywhere(cls, path)
    )


def _some_release_takes(call: ast.Call, cls: str, path: str) -> bool:
    """True when the call binds to the helper of some release read (or the check cannot tell)."""
    found = signatures_anywhere(cls, path)
    return not found or any(
        not _is_object(signature) and _problem(call, _parameters(signature)) is None
        for _release, signature in found
    )


def _is_object(signature: Signature) -> bool:
    """An attribute that holds one of the SDK's objects, not a method (see `sdk_signatures.py`)."""
    return bool(signature) and signature[0].startswith(OBJECT)


def _roots(
    function: ast.FunctionDef | ast.AsyncFunctionDef, tree: ast.Module, owner: str | None
) -> dict[str, tuple[str, list[str]]]:
    """The function's parameters that hold one of the SDK's objects, with its class and the path
    from it: the instance of a plain method of the plugin's subclass of the SDK's class (`self`),
    a parameter annotated with that class (`tool: Tool`), or with the SDK's `Session`, which is
    what a tool's `self.session` holds."""
    positional = [*function.args.posonlyargs, *function.args.args]
    roots: dict[str, tuple[str, list[str]]] = {}
    decorators = {_name(d.func if isinstance(d, ast.Call) else d) for d in function.decorator_list}
    if owner is not None and positional and not decorators & _NOT_INSTANCE:
        roots[positional[0].arg] = (owner, [])
    for argument in [*positional, *function.args.kwonlyargs]:
        if argument.arg in roots or argument.annotation is None:
            continue
        sdk = _sdk_name(tree, argument.annotation)
        if sdk is not None:
            roots[argument.arg] = (sdk, [])
        elif _sdk_name(tree, argument.annotation, ("Session",)):
            roots[argument.arg] = ("Tool", ["session"])
    return roots


def loaded_modules(loaded: LoadedPlugin, code: PluginCode) -> set[str]:
    """The modules the SDK loads: a tool plugin's (see `reachable_modules`), and for every kind
    (endpoints, datasources, triggers, agent strategies too) those of each `extra.python.source`
    its YAML files name, and what these import."""
    found = set(reachable_modules(loaded, code))
    plugin = loaded.plugin
    known = {t.source for t in plugin.tools} | {p.source for p in plugin.providers} if plugin else set()
    # a tool plugin's YAML names the same files: follow the imports again only for other ones
    sources = {source for document in loaded.documents.values() for source in _sources(document.data)} - known
    return found | set(reachable_from(loaded, code, sorted(sources))) if sources else found


def _sources(data: object) -> Iterator[str]:
    """Every `extra.python.source` in a YAML document, at any depth (an event's, a provider's,
    a subscription constructor's)."""
    if isinstance(data, dict):
        extra = data.get("extra")
        python = extra.get("python") if isinstance(extra, dict) else None
        source = python.get("source") if isinstance(python, dict) else None
        if isinstance(source, str) and source:
            yield source
        for value in data.values():
            yield from _sources(value)
    elif isinstance(data, list):
        for item in data:
            yield from _sources(item)


def _defined(code: PluginCode, derived: list[ast.ClassDef]) -> frozenset[str]:
    """The names on a tool's `self` that may not be the SDK's: what the plugin's classes derived
    from the SDK's bind in their bodies or store on their instance, and what the plugin's code
    stores on any object but the instance of one of its other classes ("*" when `setattr` computes
    a name)."""
    names: set[str] = set()
    for node in derived:
        names.update(class_members(node))
    others: set[int] = set()
    for _relative, tree in code.modules.values():
        for found in every_node(tree):
            if isinstance(found, ast.ClassDef) and found not in derived:
                others.update(id(store) for store in _instance_stores(found))
    for _relative, tree in code.modules.values():
        for found in every_node(tree):
            if isinstance(found, ast.Attribute) and not isinstance(found.ctx, ast.Load):
                names.update([] if id(found) in others else [found.attr])
            elif (named := named_in_call(found, ("setattr",))) is not None:
                names.add(named or "*")
    return frozenset(names)


def _instance_stores(node: ast.ClassDef) -> Iterator[ast.Attribute]:
    """`self.name = ...` in the class's methods."""
    for method in node.body:
        positional = (
            [*method.args.posonlyargs, *method.args.args]
            if isinstance(method, ast.FunctionDef | ast.AsyncFunctionDef)
            else []
        )
        for inner in own_nodes(method) if positional else ():  # type: ignore[arg-type]
            if (
                isinstance(inner, ast.Attribute)
                and not isinstance(inner.ctx, ast.Load)
                and isinstance(inner.value, ast.Name)
                and inner.value.id == positional[0].arg
            ):
                yield inner


def _sdk_class(code: PluginCode, module: str, node: ast.ClassDef, seen: set[str]) -> str | None:
    """The SDK class of `SIGNED` the plugin's class derives from, through the plugin's own classes;
    None when it derives from none, or from a class the check cannot see."""
    if node.keywords or f"{module}.{node.name}" in seen:
        return None
    _relative, tree = code.modules[module]
    found: set[str] = set()
    for base in node.bases:
        if isinstance(base, ast.Name) and base.id in {"object", "ABC"}:
            continue
        sdk = _sdk_name(tree, base)
        if sdk is not None:
            found.add(sdk)
            continue
        own = _own_class(code, module, tree, base)
        inherited = _sdk_class(code, own[0], own[1], seen | {f"{module}.{node.name}"}) if own else None
        if inherited is None:
            return None
        found.add(inherited)
    return found.pop() if len(found) == 1 else None


def _sdk_name(tree: ast.Module, base: ast.expr, names: tuple[str, ...] = SIGNED) -> str | None:
    """The class of `names` that `base` names: imported from `dify_plugin` (any module of it), or
    `dify_plugin.Tool`."""
    if isinstance(base, ast.Attribute):
        root = base.value
        while isinstance(root, ast.Attribute):
            root = root.value
        sdk = isinstance(root, ast.Name) and root.id == PACKAGE
        return base.attr if sdk and base.attr in names else None
    if not isinstance(base, ast.Name):
        return None
    imported = sdk_imports(tree)
    return next((name for name in names if base.id in imported.get(name, ())), None)


def _own_class(
    code: PluginCode, module: str, tree: ast.Module, base: ast.expr
) -> tuple[str, ast.ClassDef] | None:
    """The plugin's class `base` names: one of the module's, or one it imports from another of its
    modules."""
    if not isinstance(base, ast.Name):
        return None
    for statement in tree.body:
        if isinstance(statement, ast.ClassDef) and statement.name == base.id:
            return module, statement
    for statement in tree.body:
        if not isinstance(statement, ast.ImportFrom):
            continue
        source = imported_module(code.modules[module][0], statement)
        for alias in statement.names:
            if (alias.asname or alias.name) == base.id and source in code.modules:
                for node in code.modules[source][1].body:
                    if isinstance(node, ast.ClassDef) and node.name == alias.name:
                        return source, node
    return None


def _calls(
    function: ast.FunctionDef | ast.AsyncFunctionDef,
    roots: dict[str, tuple[str, list[str]]],
) -> Iterator[
    tuple[
        ast.Call,
        tuple[str, str],
        tuple[tuple[ast.ExceptHandler, frozenset[str]], ...],
        ast.ExceptHandler | None,
    ]
]:
    """Calls `root.a.b(...)` in the function's own body, with the class of the root and the path
    from it, the handlers of the exceptions around it, and the handler whose body holds it, where
    the root holds its object throughout; and
    calls through a name that every binding in the function sets to the same `root.a`
    (`storage = self.session.storage`)."""
    if not roots:
        return
    nodes = own_nodes(function)
    receivers = _receivers(function, roots, nodes)
    parents = {child: node for node in nodes for child in children(node)}
    for node in nodes:
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        found = _path(node.func)
        if found is None or found[0] not in receivers:
            continue
        cls, prefix = receivers[found[0]]
        parts = [*prefix, *found[1]]
        handlers = tuple(
            (handler, frozenset(names)) for handler, names in handlers_around(node, function, parents)
        )
        yield node, (cls, ".".join(parts)), handlers, running_handler(node, function, parents)


def _path(node: ast.expr) -> tuple[str, list[str]] | None:
    """`name.a.b` as `name` and `[a, b]`; None for another expression."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.insert(0, node.attr)
        node = node.value
    return (node.id, parts) if isinstance(node, ast.Name) else None


def _receivers(
    function: ast.FunctionDef | ast.AsyncFunctionDef,
    roots: dict[str, tuple[str, list[str]]],
    nodes: list[ast.AST],
) -> dict[str, tuple[str, list[str]]]:
    """The names that hold a root's object or one reached from it, with its class and path: each
    root unless the function rebinds it, and each name whose every binding in the function is
    `name = root.a.b` with the same root and path."""
    bindings: dict[str, list[tuple[str, tuple[str, ...]] | None]] = {
        name: [(cls, tuple(prefix))] for name, (cls, prefix) in roots.items()
    }
    single = {id(n.targets[0]): n for n in nodes if isinstance(n, ast.Assign) and len(n.targets) == 1}
    for node in (*nodes, *ast.walk(function.args)):
        if isinstance(node, ast.arg) and node.arg in roots:
            continue
        statement = single.get(id(node))
        found = _path(statement.value) if statement is not None else None
        root = roots.get(found[0]) if found is not None and found[1] else None
        held = (root[0], (*root[1], *found[1])) if root is not None and found is not None else None
        names = [node.name] if isinstance(node, ast.ExceptHandler) and node.name else bound_names(node)
        for name in names:
            bindings.setdefault(name, []).append(held)
    return {
        name: (paths[0][0], list(paths[0][1]))
        for name, paths in bindings.items()
        if paths[0] is not None and all(path == paths[0] for path in paths)
    }


@dataclass(frozen=True, slots=True)
class Place:
    """Where a call is: its file as findings name it, and the handler of every exception around it."""

    display: str
    handler: ast.ExceptHandler | None
    # the `except` whose body holds the call: it runs only when the code it guards fails
    running: ast.ExceptHandler | None = None

    def at(self, call: ast.Call) -> Location:
        return Location(self.display, call.lineno, call.col_offset + 1)

    @property
    def severity(self) -> Severity | None:
        """A warning when a handler of every exception answers the failure (the tool then gives its
        fallback every time, a feature that never works, not a tool that fails); else the rule's."""
        return Severity.WARNING if self.handler or self.running else None

    @property
    def caught(self) -> Phrase:
        return self.told("a TypeError")

    def told(self, failure: str) -> Phrase:
        """What the handlers make of the call's failure, `failure` saying how it is told."""
        if self.handler is not None:
            line = self.handler.lineno
            return Phrase(
                f"; the `except` at line {line} catches it, so that handler answers every time instead"
            )
        if self.running is not None:
            line = self.running.lineno
            return Phrase(
                f"; the call is in the `except` at line {line}, which runs only when the code it guards"
                f" fails: that failure is then told as {failure} instead of answered"
            )
        return Phrase("")


def _judge(call: ast.Call, path: str, cls: str, version: Version | None, place: Place) -> Finding | None:
    """A finding when the call binds to the helper in none of the releases `version` may have."""
    found = signatures(cls, path, version)
    if found is None:
        return None
    objects = [signature for _release, signature in found if _is_object(signature)]
    if objects:
        return _not_callable(call, path, cls, version, place, found) if len(objects) == len(found) else None
    problems = [_problem(call, _parameters(signature)) for _release, signature in found]
    if any(problem is None for problem in problems):
        return None
    first = problems[0]
    assert first is not None
    problem, keyword = first
    release, signature = found[-1]
    later = _fits_later(call, path, cls, Version(release)) if version is not None else None
    helper = f"self.{path}({_spelled(signature)})"
    return BAD_ARGUMENTS.at(
        place.at(call),
        place.severity,
        caught=place.caught,
        call=_shown(call),
        problem=problem,
        what=helper,
        cls=cls,
        releases=Phrase(_releases(version, found)),
        fix=Phrase(
            f"Call it as `{helper}`"
            + (
                f", or require dify_plugin {later} or later, whose helper takes this call"
                if later
                else _advice(path, keyword, signature)
            )
        ),
    )


def _not_callable(
    call: ast.Call,
    path: str,
    cls: str,
    version: Version | None,
    place: Place,
    found: list[tuple[str, Signature]],
) -> Finding:
    """The call of an attribute that holds one of the SDK's objects, which has no `__call__`."""
    held = found[-1][1][0].removeprefix(OBJECT)
    method = signatures(cls, f"{path}.invoke", version)
    fix = (
        f"Call its method: `self.{path}.invoke({_spelled(method[-1][1])})`"
        if method
        else f"Call one of the methods of the SDK's {held}"
    )
    return BAD_ARGUMENTS.at(
        place.at(call),
        place.severity,
        caught=place.caught,
        call=_shown(call),
        problem=f"self.{path} is the SDK's {held}, an object that cannot be called",
        what=f"self.{path}",
        cls=cls,
        releases=Phrase(_releases(version, found)),
        fix=Phrase(fix),
    )


def _releases(version: Version | None, found: list[tuple[str, Signature]]) -> str:
    """The releases a call was judged by, as the message names them."""
    if version is not None and len(found) == 1:
        return f"dify_plugin {version}, the version the plugin installs"
    if version is not None:
        return f"dify_plugin {found[0][0]} and {found[-1][0]}, around {version}, which the plugin installs"
    return "every release of dify_plugin read, the version the plugin installs being unknown"


def _fits_later(call: ast.Call, path: str, cls: str, newest: Version) -> Version | None:
    """The first release read after `newest` whose helper takes the call as it is written."""
    for release in release_versions():
        if release > newest:
            found = signatures(cls, path, release)
            if found and _problem(call, _parameters(found[0][1])) is None:
                return release
    return None


def _spelled(signature: Signature) -> str:
    """The signature as Python spells it, a default shown as `...`."""
    return ", ".join(entry + "..." if entry.endswith("=") else entry for entry in signature)


def _shown(call: ast.Call) -> str:
    text = ast.unparse(call)
    return text if len(text) <= 80 else ast.unparse(call.func) + "(...)"


def _advice(path: str, keyword: str | None, signature: Signature) -> str:
    if keyword is None:
        return ""
    if path == "create_blob_message" and keyword in _META_KEYS:
        key = _META_KEYS[keyword]
        return f': Dify reads the file\'s {key} from `meta`, `meta={{"{key}": ...}}`'
    names = [entry.strip("*=") for entry in signature if entry not in {"/", "*"}]
    close = closest_name(keyword, names)
    return f": `{close}` is the closest parameter" if close else ""


def _parameters(signature: Signature) -> list[_Parameter]:
    """The parameters an index signature spells (see `sdk_signatures.py`)."""
    found: list[_Parameter] = []
    keyword_only = False
    for entry in signature:
        if entry == "/":
            found = [_Parameter(p.name, "positional", p.default) for p in found]
        elif entry == "*":
            keyword_only = True
        elif entry.startswith("**"):
            found.append(_Parameter(entry[2:], "**", True))
        elif entry.startswith("*"):
            found.append(_Parameter(entry[1:], "*", True))
            keyword_only = True
        else:
            name = entry.removesuffix("=")
            found.append(_Parameter(name, "keyword" if keyword_only else "either", entry.endswith("=")))
    return found


def _problem(call: ast.Call, parameters: list[_Parameter]) -> tuple[str, str | None] | None:
    """Why the call's arguments cannot bind to `parameters`, as Python's TypeError would say, with
    the keyword at fault; None when they bind."""
    positional = [p for p in parameters if p.kind in {"positional", "either"}]
    extra = any(p.kind == "*" for p in parameters)
    anything = any(p.kind == "**" for p in parameters)
    if len(call.args) > len(positional) and not extra:
        takes = f"{len(positional)} positional argument" + ("" if len(positional) == 1 else "s")
        return f"it takes {takes}, the call gives {len(call.args)}", None
    bound = {p.name for p in positional[: len(call.args)]}
    named = {p.name: p for p in parameters if p.kind in {"either", "keyword"}}
    for keyword in call.keywords:
        name = keyword.arg or ""
        if name in bound and name in named:
            return f"`{name}` is given twice, by position and by keyword", name
        if name not in named and not anything:
            only = any(p.name == name and p.kind == "positional" for p in parameters)
            return (f"`{name}` is positional-only" if only else f"it has no parameter `{name}`"), name
        bound.add(name)
    required = [p.name for p in parameters if p.kind not in {"*", "**"} and not p.default]
    missing = [name for name in required if name not in bound]
    if missing:
        return "the required " + ", ".join(f"`{name}`" for name in missing) + " is left out", None
    return None


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""
