"""The signatures of what a plugin calls on the SDK's base classes, per release read.

A tool calls the helpers its SDK base class gives it (`self.create_blob_message(blob, meta)`) and
the helpers its session holds (`self.session.storage.set(key, val)`); a call whose arguments do not
bind to the helper's parameters raises TypeError whenever it runs. `sdk_api_index.json` keeps, for
each release read and each class of `SIGNED`, every method a plugin's `self` reaches, by its dotted
path from `self` (`create_blob_message`, `session.storage.set`), as Python's parameter spellings
without annotations or default values, joined with ", ": `"blob, meta="` (`meta` has a default);
`"/"` ends the positional-only ones, `"*"` or `"*args"` starts the keyword-only ones, `"**kwargs"`;
an attribute that holds an object no call can be made on is `"!ClassName"`.
Paths are followed through the class's annotations (`session: Session`) and what its methods store
on `self` (`self.storage = StorageInvocation(self)`) into classes defined in the wheel, four levels
deep.
A method wrapped by a decorator other than those that keep the signature (`classmethod`,
`abstractmethod`, `final`, `deprecated`, ...) is left out: its signature is not what `def` says.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from typing import Any

from packaging.version import Version

from generator.check.undeclared import class_members

PACKAGE = "dify_plugin"
# The SDK's base classes whose instances a plugin's code is (`self` in a subclass).
SIGNED = (
    "Tool",
    "ToolProvider",
    "AgentStrategy",
    "Event",
    "Trigger",
    "OnlineDocumentDatasource",
    "OnlineDriveDatasource",
    "WebsiteCrawlDatasource",
    "Endpoint",
)
# Decorators that leave a method's signature as its `def` spells it (`staticmethod` keeps the first
# parameter, the others drop it as for any method).
_KEEPING = frozenset({"classmethod", "staticmethod", "abstractmethod", "final", "deprecated", "override"})
_DEPTH = 4
# An attribute holding an instance of a class of the wheel that has no `__call__` (`session.model.
# summary`, a SummaryInvocation: its method is `invoke`) is kept as "!ClassName": calling it fails.
OBJECT = "!"
_OPAQUE = "__opaque__"
_PLAIN_BASES = frozenset({"object", "ABC", "Generic", "BaseModel", "Exception"})
Reader = Callable[[str], str | None]
Signature = list[str]


def derive_signatures(members: set[str], read: Reader) -> dict[str, dict[str, str]]:
    """For each class of `SIGNED` the release defines, the signature of every method its instances
    reach, by dotted path, its parameters joined with ", " (one line of the index each)."""
    found: dict[str, dict[str, str]] = {}
    for name in SIGNED:
        where = _defining(members, read, name)
        if where is not None:
            paths = _callables(read, where[0], where[1], name, _DEPTH)
            # what a plugin calls: private names (the SDK's own plumbing) are left out
            found[name] = {
                path: ", ".join(signature)
                for path, signature in sorted(paths.items())
                if not any(part.startswith("_") for part in path.split("."))
            }
    return found


def _defining(members: set[str], read: Reader, name: str) -> tuple[str, str] | None:
    """The wheel member of the SDK's interfaces defining the top-level class `name` (other modules
    have classes of the same names: an `Event` entity, a `Tool` of the manifest's model)."""
    pattern = re.compile(rf"^class {name}\b\s*[(:\[]", re.MULTILINE)
    for member in sorted(m for m in members if m.startswith(f"{PACKAGE}/interfaces/") and m.endswith(".py")):
        source = read(member)
        if source and pattern.search(source):
            return member, source
    return None


def _callables(read: Reader, path: str, source: str, name: str, depth: int) -> dict[str, Signature]:
    """The signatures of the methods of class `name` (its bases' first, overridden by its own) and,
    `depth` levels down, of the classes its attributes hold."""
    tree = ast.parse(source)
    node = next((s for s in tree.body if isinstance(s, ast.ClassDef) and s.name == name), None)
    if node is None:
        return {}
    found: dict[str, Signature | None] = {}
    for base in node.bases:
        target = base.value if isinstance(base, ast.Subscript) else base
        if not isinstance(target, ast.Name):
            found[_OPAQUE] = []  # `module.Class`: outside the wheel's reading
            continue
        if target.id == name:
            continue
        where = _class_module(read, path, tree, target.id)
        if where is not None:
            found.update(_callables(read, where[0], where[1], target.id, depth))
        elif target.id not in _PLAIN_BASES:
            found[_OPAQUE] = []  # a base outside the wheel may make the instances callable
    for member, statements in class_members(node).items():
        found[member] = _signature(statements)
    if depth > 0:
        for attribute, held in _held_classes(node).items():
            where = _class_module(read, path, tree, held)
            if where is None or found.get(attribute) is not None:
                continue
            inner = _callables(read, where[0], where[1], held, depth - 1)
            found.update({f"{attribute}.{key}": value for key, value in inner.items()})
            if "__call__" not in inner and _OPAQUE not in inner:
                found[attribute] = [f"{OBJECT}{held}"]
    return {key: value for key, value in found.items() if value is not None}


def _signature(statements: list[ast.stmt]) -> Signature | None:
    """The parameters of the last `def` binding a name (the implementation after its `@overload`s);
    None when the name is last bound otherwise or the method's decorators may change what it takes."""
    defs = [s for s in statements if not _overload(s)]
    last = defs[-1] if defs else None
    if not isinstance(last, ast.FunctionDef | ast.AsyncFunctionDef):
        return None
    decorators = {_decorator_name(d) for d in last.decorator_list}
    if not decorators <= _KEEPING:
        return None
    arguments = last.args
    positional = [*arguments.posonlyargs, *arguments.args]
    defaults = [False] * (len(positional) - len(arguments.defaults)) + [True] * len(arguments.defaults)
    spelled = [arg.arg + ("=" if default else "") for arg, default in zip(positional, defaults, strict=True)]
    if arguments.posonlyargs:
        spelled.insert(len(arguments.posonlyargs), "/")
    if arguments.vararg:
        spelled.append(f"*{arguments.vararg.arg}")
    elif arguments.kwonlyargs:
        spelled.append("*")
    for arg, default in zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True):
        spelled.append(arg.arg + ("=" if default is not None else ""))
    if arguments.kwarg:
        spelled.append(f"**{arguments.kwarg.arg}")
    if "staticmethod" not in decorators:
        if not positional:
            return None  # a method without its instance parameter fails however it is called
        spelled = spelled[2:] if spelled[1:2] == ["/"] and len(arguments.posonlyargs) == 1 else spelled[1:]
    return spelled


def _overload(statement: ast.stmt) -> bool:
    """A `def` marked `@overload`: a typing stub the implementation after it replaces."""
    function = statement if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef) else None
    return function is not None and any(_decorator_name(d) == "overload" for d in function.decorator_list)


def _decorator_name(decorator: ast.expr) -> str:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    if isinstance(target, ast.Attribute):
        return target.attr
    return target.id if isinstance(target, ast.Name) else ""


def _held_classes(node: ast.ClassDef) -> dict[str, str]:
    """The attributes of the class's instances that hold one known class: `name: C` in its body,
    or `self.name = C(...)` in its methods (an attribute given two classes is left out)."""
    held: dict[str, set[str]] = {}
    for statement in node.body:
        if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
            named = _annotated(statement.annotation)
            if named is not None:
                held.setdefault(statement.target.id, set()).add(named)
        elif isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef) and statement.args.args:
            own = statement.args.args[0].arg
            annotated = {arg.arg: _annotated(arg.annotation) for arg in statement.args.args[1:]}
            for inner in ast.walk(statement):
                if (
                    isinstance(inner, ast.Assign)
                    and len(inner.targets) == 1
                    and isinstance(target := inner.targets[0], ast.Attribute)
                    and isinstance(target.value, ast.Name)
                    and target.value.id == own
                ):
                    value = inner.value
                    made = (
                        value.func.id
                        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
                        else None
                    )
                    # `self.session = session`, the parameter annotated `session: Session`
                    given = annotated.get(value.id) if isinstance(value, ast.Name) else None
                    held.setdefault(target.attr, set()).add(made or given or "")
    return {
        name: next(iter(classes)) for name, classes in held.items() if len(classes) == 1 and "" not in classes
    }


def _annotated(annotation: ast.expr | None) -> str | None:
    """The class an annotation names (`Session`, or `"Session"`), when it names one plainly."""
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        try:
            annotation = ast.parse(annotation.value, mode="eval").body
        except SyntaxError:
            return None
    return annotation.id if isinstance(annotation, ast.Name) else None


def _class_module(read: Reader, path: str, tree: ast.Module, name: str) -> tuple[str, str] | None:
    """The wheel member defining the class `name` as the module at `path` sees it: its own
    top-level class, or one it imports from the package."""
    if any(isinstance(s, ast.ClassDef) and s.name == name for s in tree.body):
        source = read(path)
        return (path, source) if source else None
    # anywhere in the module: the SDK imports the invocation classes inside the methods that create
    # them (its modules import each other)
    for statement in ast.walk(tree):
        if not isinstance(statement, ast.ImportFrom) or not any(
            (alias.asname or alias.name) == name and alias.name == name for alias in statement.names
        ):
            continue
        if statement.level:
            folder = path.split("/")[:-1]
            base = folder[: len(folder) - statement.level + 1]
        elif (statement.module or "").split(".")[0] == PACKAGE:
            base = []
        else:
            return None
        dotted = [*base, *(statement.module or "").split(".")]
        for member in ("/".join(dotted) + ".py", "/".join(dotted) + "/__init__.py"):
            source = read(member)
            if source is None:
                continue
            inner = ast.parse(source)
            if any(isinstance(s, ast.ClassDef) and s.name == name for s in inner.body):
                return member, source
            # a package's `__init__.py` re-exporting the class from one of its modules
            return _class_module(read, member, inner, name)
    return None


def in_releases(releases: tuple[dict[str, Any], ...], cls: str, path: str) -> list[tuple[str, Signature]]:
    """The signature of `cls`'s `path` in each of `releases` that has it."""
    found = []
    for release in releases:
        joined = (release.get("signatures") or {}).get(cls, {}).get(path)
        if joined is not None:
            found.append((release["version"], joined.split(", ") if joined else []))
    return found


def window(releases: tuple[dict[str, Any], ...], version: Version | None) -> tuple[dict[str, Any], ...]:
    """The releases read whose signatures `version` may have: that release itself when it was read;
    the read ones just before and after it when it lies between two (a signature changed between
    them may be either); the newest when it is newer than every one read; none when it is older
    than every one read; all when it is None."""
    if version is None:
        return releases
    versions = [Version(release["version"]) for release in releases]
    if version in versions:
        return (releases[versions.index(version)],)
    later = [i for i, known in enumerate(versions) if known > version]
    if not later:
        return releases[-1:]
    first = later[0]
    # older than every release read: its helpers are not known (none is judged)
    return releases[first - 1 : first + 1] if first else ()
