"""The SDK's `File` used as it is not: `file.blob()` and attributes the class does not have.

A file parameter reaches `_invoke` as the SDK's `File` (`dify_plugin/file/file.py`), a pydantic
model with the fields `url`, `mime_type`, `filename`, `extension`, `size`, `type` and
`dify_model_identity`, whose content is the property `blob` (bytes, downloaded on first use). So
`file.blob()` calls the bytes and fails with "'bytes' object is not callable" on every call, and
`file.path` fails with AttributeError (or, behind `hasattr`, is never there). Only a receiver that is
certainly such a `File` is judged: a parameter the YAML types `file` (or an item of a `files` one)
read from `_invoke`'s dictionary, or a name annotated with the SDK's `File`, and only where every
binding of the name in the function is one of these.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from generator.check import CheckContext
from generator.check.common import children, every_node, kept_on, tool_modules
from generator.check.sdk_index import file_attributes, installed_sdk
from generator.check.undeclared import dictionary_name, invoke_of, sdk_names
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.plugin_model import Tool
from generator.rules import Phrase, rule
from generator.shorten import shorten

# The attributes of the SDK's File when the version the plugin installs cannot be told: those of
# every version since 0.0.1b47 (`sdk_index.py` has each version's), and pydantic's public model API
# (`model_*`, `_*` and these older names).
LATEST_FILE = frozenset(
    {"url", "mime_type", "filename", "extension", "size", "type", "dify_model_identity", "blob"}
)
PYDANTIC_API = frozenset(
    {"construct", "copy", "dict", "from_orm", "json", "parse_file", "parse_obj", "parse_raw", "schema"}
    | {"schema_json", "update_forward_refs", "validate"}
)
FILE, FILES = "file", "files"
# Modules whose `open` takes a local path (a URL is no file name there).
PATH_OPENERS = frozenset({"Image", "PIL.Image", "io", "codecs", "gzip", "wave", "fitz"})
_FIX = (
    "The content is `{receiver}.blob` (bytes, a property: no parentheses){name!s}; write the bytes to a "
    "temporary file when a library wants a path. {basis!s}"
)

FILE_MISUSED = rule(
    "T010",
    "sdk-file-misused",
    Severity.ERROR,
    "{problem}",
    _FIX,
    """
A tool's file parameter arrives as the SDK's `File` (`dify_plugin/file/file.py`): a pydantic model
with `url`, `mime_type`, `filename`, `extension`, `size`, `type` and `dify_model_identity`, whose
content is `blob`, a property that downloads the file once and holds its bytes. Which attributes
`File` has depends on the SDK version: up to 0.0.1b44 only `url`, `dify_model_identity` and
`blob`, from 0.0.1b45 also `mime_type` and `type`, from 0.0.1b47 also `filename`, `extension` and
`size`. The check takes the version the plugin's dependency files install (the pin of `uv.lock`
beside `pyproject.toml`, else the newest published version the requirement allows, as uv picks),
and that version's `File`, from an index read from every published wheel; when no version can be
told, today's `File`, and the hint says so. Calling it,
`file.blob()`, calls those bytes: every call fails with "'bytes' object is not callable", whatever
file the user gives. An attribute the class does not have (`file.path`, `file.content`) fails with
AttributeError on every call, and `hasattr(file, "path")` is always False, so a tool that guards
with it answers every call as if no file had been given. The check judges only a receiver that is
certainly such a `File`: a parameter whose YAML `type` is `file` (or an item of a `files` one) read
from `_invoke`'s dictionary, or a name annotated with the SDK's `File`, where every binding of the
name in the function is one of these.

The SDK turns a `file` parameter into one `File` and a `files` parameter into a list of them
(`Tool._convert_parameters`: a dict with `dify_model_identity` becomes `File(...)`, a list of such
dicts `[File(...), ...]`). So an attribute that is no list method on a `files` parameter's value
(`attachments.url`) fails with AttributeError whenever files are given, and indexing a `file`
parameter's value (`template[0]`) fails with TypeError: a pydantic model is not subscriptable. A
File's `url` is the address Dify serves the file from, not a path on the plugin's machine:
opening `file.url` with `open` (or `Image.open`) fails with FileNotFoundError on every call; the bytes
are `file.blob`.
""",
)


@dataclass(frozen=True, slots=True)
class _Scope:
    """What one function knows: its parameters' dictionary, the file parameters, the File names."""

    dictionary: str | None
    kinds: dict[str, str]
    file_class: frozenset[str]
    attributes: frozenset[str] = LATEST_FILE


@dataclass(frozen=True, slots=True)
class _Element:
    """An item of the iterable `of` (a loop's or a comprehension's target)."""

    of: ast.expr


Source = ast.AST | _Element | str | None


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """Misuses of the SDK's File in every tool's module, each file once."""
    tools = loaded.plugin.tools if loaded.plugin else ()
    modules = list(tool_modules(loaded, tools))
    if not any(_may_hold_files(tree, tool) for _file, tree, tool in modules):
        return  # no File reaches any tool: the SDK version (files to read) need not be known
    version = installed_sdk(loaded.reader)
    attributes = file_attributes(version) if version is not None else None
    if attributes is None:
        basis = (
            "The plugin's dependency files name no dify_plugin version this registry knows, so this was "
            "judged by the File of dify_plugin 0.0.1b47 and later."
        )
    else:
        basis = (
            f"Judged by the File of dify_plugin {version}, the version the plugin's dependency files install."
        )
    known = attributes or LATEST_FILE
    name = ", the name `{receiver}.filename`" if "filename" in known else ""
    for file, tree, tool in modules:
        display = loaded.display_path(file)
        for node, problem, receiver, severity, hint in misuses(tree, tool, known):
            where = Location(display, node.lineno, node.col_offset + 1)
            yield FILE_MISUSED.at(
                where,
                severity,
                hint.format(receiver=receiver) if hint else None,
                problem=Phrase(problem),
                receiver=receiver,
                name=Phrase(name.format(receiver=receiver)),
                basis=Phrase(basis),
            )


def _may_hold_files(tree: ast.Module, tool: Tool) -> bool:
    """True when `misuses` could find a certain File: the tool declares a file parameter, or the
    module imports the SDK's File (to annotate a name with it)."""
    return any(p.type in (FILE, FILES) for p in tool.parameters) or bool(sdk_names(tree, "File"))


# (node, problem, receiver, severity, hint): the hint None for the rule's own (File's content)
Misuse = tuple[ast.expr, str, str, Severity | None, str | None]
# What the list a `files` parameter gives has (anything else fails with AttributeError).
_LIST = frozenset(name for name in dir(list) if not name.startswith("_"))
_LIST_HINT = (
    "`{receiver}` is a list of the SDK's File (the parameter is `type: files`): take one item"
    " (`{receiver}[0]`) or loop over it, or declare the parameter as `type: file` for one file."
)
_ONE_HINT = (
    "`{receiver}` is one SDK File (the parameter is `type: file`), not a list: use it directly, or"
    " declare the parameter as `type: files` for several."
)


def misuses(tree: ast.Module, tool: Tool, attributes: frozenset[str] = LATEST_FILE) -> Iterator[Misuse]:
    """(node, problem, receiver, severity) for each misuse of a certain File (with `attributes`)
    in the module."""
    file_class = frozenset(sdk_names(tree, "File"))
    invoke = invoke_of(tree)
    kinds = {p.name: p.type for p in tool.parameters if p.type in (FILE, FILES)}
    for function in every_node(tree):
        if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            dictionary = dictionary_name(function) if function is invoke else None
            scope = _Scope(dictionary, kinds if dictionary else {}, file_class, attributes)
            yield from _in_function(function, scope)


def _in_function(function: ast.FunctionDef | ast.AsyncFunctionDef, scope: _Scope) -> Iterator[Misuse]:
    nodes = own_nodes(function)
    names = _file_names(function, nodes, scope)
    for tested in type_tested(nodes):  # `isinstance(x, File)`: the code expects other types too
        names.pop(tested, None)
    probes = _probes(nodes, names, scope)
    parents = {child: node for node in nodes for child in children(node)}
    unreached = _behind_probes(probes.values(), parents)
    for node in nodes:
        if isinstance(node, ast.Call) and _calls_blob(node, names, scope):
            assert isinstance(node.func, ast.Attribute)  # what _calls_blob accepts
            receiver = _shown(node.func.value)
            problem = (
                f"{receiver}.blob() calls the file's bytes: the SDK's File.blob is a property, so "
                "every call fails with 'bytes' object is not callable"
            )
            yield node, problem, receiver, None, None
        elif (
            isinstance(node, ast.Attribute)
            and node.attr not in _LIST
            and _kind(node.value, names, scope) == FILES
        ):
            receiver = _shown(node.value)
            problem = (
                f"{receiver}.{node.attr} fails with AttributeError whenever files are given: a `files`"
                f" parameter reaches the tool as a list of File, and a list has no attribute {node.attr}"
            )
            yield node, problem, receiver, None, _LIST_HINT
        elif (
            isinstance(node, ast.Subscript)
            and _kind(node.value, names, scope) == FILE
            and id(node) not in unreached
        ):
            receiver = _shown(node.value)
            problem = (
                f"{receiver}[...] fails with TypeError on every call: a `file` parameter reaches the tool"
                " as one File, which is not subscriptable"
            )
            yield node, problem, receiver, None, _ONE_HINT
        elif isinstance(node, ast.Call) and (opened := _opened_url(node, names, scope)) is not None:
            problem = (
                f"{ast.unparse(node.func)}({opened}.url) opens the file's URL as a local path: a File's `url`"
                " is the address Dify serves it from, so every call fails with FileNotFoundError"
            )
            yield node, problem, opened, None, None
        elif isinstance(node, ast.Attribute) and _unknown(node.attr, scope):
            receiver = _shown(node.value)
            # an access behind `hasattr(x, "attr")` never runs; the probe is judged below
            if (
                _kind(node.value, names, scope) == FILE
                and (receiver, node.attr) not in probes
                and id(node) not in unreached
            ):
                yield node, _missing(receiver, node.attr, scope), receiver, None, None
    for (receiver, named), call in probes.items():
        ends = _ends_when_missing(call, parents)
        outcome = (
            "every call takes the branch for a missing attribute and ends there"
            if ends
            else "the code that needs it never runs"
        )
        problem = (
            f"{_probe_name(call)}({receiver}, {named!r}) never finds it: the SDK's File has no attribute "
            f"{named} ({_has(scope)}), so {outcome}"
        )
        yield call, problem, receiver, None if ends else Severity.WARNING, None


def _opened_url(node: ast.Call, names: dict[str, str], scope: _Scope) -> str | None:
    """The receiver of a File whose `url` the call opens as a local path (`open`, `Image.open`) when
    `file` is certainly a File; None otherwise."""
    opener = node.func
    opens = (isinstance(opener, ast.Name) and opener.id == "open") or (
        isinstance(opener, ast.Attribute) and opener.attr == "open" and _dotted(opener.value) in PATH_OPENERS
    )
    argument = node.args[0] if node.args else None
    if (
        opens
        and isinstance(argument, ast.Attribute)
        and argument.attr == "url"
        and _kind(argument.value, names, scope) == FILE
    ):
        return _shown(argument.value)
    return None


def _dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return ""


def _behind_probes(probes: Iterable[ast.Call], parents: dict[ast.AST, ast.AST]) -> set[int]:
    """The nodes (by `id`) of every branch that runs only when a probe finds its attribute: the body
    of `if hasattr(file, "read"):` (alone, or in an `and`) never runs for the SDK's File, whatever
    else it touches there (`file.seek(0)` before `file.read()`)."""
    unreached: set[int] = set()
    for probe in probes:
        child: ast.AST = probe
        parent = parents.get(probe)
        while isinstance(parent, ast.BoolOp) and isinstance(parent.op, ast.And):
            child, parent = parent, parents.get(parent)
        if isinstance(parent, ast.If | ast.IfExp) and parent.test is child:
            branch = parent.body if isinstance(parent, ast.If) else [parent.body]
            unreached.update(id(node) for statement in branch for node in ast.walk(statement))
    return unreached


def _calls_blob(node: ast.Call, names: dict[str, str], scope: _Scope) -> bool:
    function = node.func
    return (
        isinstance(function, ast.Attribute)
        and function.attr == "blob"
        and (_kind(function.value, names, scope) == FILE)
    )


def _unknown(attribute: str, scope: _Scope) -> bool:
    known = attribute in scope.attributes or attribute in PYDANTIC_API
    return not known and not attribute.startswith(("_", "model_"))


def _has(scope: _Scope) -> str:
    fields = sorted(scope.attributes - {"blob"})
    return f"it has {', '.join(fields)} and blob"


def _probe_name(call: ast.Call) -> str:
    return call.func.id if isinstance(call.func, ast.Name) else "hasattr"


def _probes(nodes: list[ast.AST], names: dict[str, str], scope: _Scope) -> dict[tuple[str, str], ast.Call]:
    """`hasattr(x, "attr")` and `getattr(x, "attr", ...)` on a certain File for an attribute it
    lacks, by (receiver, attribute), the first of each."""
    found: dict[tuple[str, str], ast.Call] = {}
    for node in sorted((n for n in nodes if isinstance(n, ast.Call)), key=lambda n: (n.lineno, n.col_offset)):
        function = node.func
        if isinstance(function, ast.Name) and function.id in ("hasattr", "getattr") and len(node.args) >= 2:
            subject, attribute = node.args[0], node.args[1]
            value = attribute.value if isinstance(attribute, ast.Constant) else None
            named = value if isinstance(value, str) else ""
            if named and _unknown(named, scope) and _kind(subject, names, scope) == FILE:
                found.setdefault((_shown(subject), named), node)
    return found


def _ends_when_missing(call: ast.Call, parents: dict[ast.AST, ast.AST]) -> bool:
    """True for `if not hasattr(x, "a"): ... return` (or raise): every call ends in that branch."""
    negation = parents.get(call)
    branch = parents.get(negation) if negation is not None else None
    return (
        isinstance(negation, ast.UnaryOp)
        and isinstance(negation.op, ast.Not)
        and isinstance(branch, ast.If)
        and branch.test is negation
        and isinstance(branch.body[-1], ast.Return | ast.Raise)
    )


def type_tested(nodes: list[ast.AST]) -> set[str]:
    """Names whose type the function tests (`isinstance`, `type`, `callable`)."""
    found: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args:
            subject = node.args[0]
            if node.func.id in ("isinstance", "type", "callable") and isinstance(subject, ast.Name):
                found.add(subject.id)
    return found


def _missing(receiver: str, attribute: str, scope: _Scope) -> str:
    return (
        f"{receiver}.{attribute} fails with AttributeError on every call: the SDK's File has no attribute "
        f"{attribute} ({_has(scope)})"
    )


def own_nodes(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.AST]:
    """The nodes of `function`'s own body and arguments, not those of functions or classes inside."""
    # Listed once per function (three checks ask, one of them twice); each caller gets its own list.
    return list(kept_on(function, "own_nodes", lambda: tuple(_own_nodes(function))))


def _own_nodes(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.AST]:
    found: list[ast.AST] = []
    pending: list[ast.AST] = [*function.body, function.args]
    while pending:
        node = pending.pop()
        found.append(node)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        pending.extend(children(node))
    return found


def _file_names(
    function: ast.FunctionDef | ast.AsyncFunctionDef, nodes: list[ast.AST], scope: _Scope
) -> dict[str, str]:
    """Names whose every binding in the function is a File (or a list of them)."""
    bindings: dict[str, list[Source]] = {}
    arguments = [*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs]
    for argument in arguments:
        annotated = FILE if _is_file_annotation(argument.annotation, scope) else None
        bindings.setdefault(argument.arg, []).append(annotated)
    for rest in (function.args.vararg, function.args.kwarg):
        if rest is not None:
            bindings.setdefault(rest.arg, []).append(None)
    for node in nodes:
        for name, source in _binds(node, scope):
            bindings.setdefault(name, []).append(source)
    names: dict[str, str] = {}
    for _round in range(3):  # a name bound from another name: a few rounds settle short chains
        settled: dict[str, str] = {}
        for name, sources in bindings.items():
            kinds = {_source_kind(source, names, scope) for source in sources}
            if len(kinds) == 1 and (kind := kinds.pop()) is not None:
                settled[name] = kind
        names = settled
    return names


def _source_kind(source: Source, names: dict[str, str], scope: _Scope) -> str | None:
    if source is None or isinstance(source, str):
        return source
    if isinstance(source, _Element):
        return FILE if _kind(source.of, names, scope) == FILES else None
    if isinstance(source, ast.expr):
        return _kind(source, names, scope)
    return None


def _binds(node: ast.AST, scope: _Scope) -> Iterator[tuple[str, Source]]:
    """(name, what it is bound to) for each name `node` binds: an expression whose kind is judged,
    a kind, or None for a binding that is not a File."""
    if isinstance(node, ast.Assign):
        for target in node.targets:
            plain = isinstance(target, ast.Name)
            yield from ((name, node.value if plain else None) for name in _targets(target))
    elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        annotated = FILE if _is_file_annotation(node.annotation, scope) else None
        yield node.target.id, annotated or node.value
    elif isinstance(node, ast.For | ast.AsyncFor | ast.comprehension):
        plain = isinstance(node.target, ast.Name)
        element = _Element(node.iter) if plain else None
        yield from ((name, element) for name in _targets(node.target))
    elif isinstance(node, ast.AugAssign | ast.NamedExpr):
        yield from ((name, None) for name in _targets(node.target))
    elif isinstance(node, ast.withitem) and node.optional_vars is not None:
        yield from ((name, None) for name in _targets(node.optional_vars))
    elif isinstance(node, ast.ExceptHandler) and node.name:
        yield node.name, None
    elif isinstance(node, ast.Import | ast.ImportFrom):
        yield from ((alias.asname or alias.name.split(".")[0], None) for alias in node.names)
    elif isinstance(node, ast.Global | ast.Nonlocal):
        yield from ((name, None) for name in node.names)
    elif isinstance(node, ast.Delete):
        for target in node.targets:
            yield from ((name, None) for name in _targets(target))


def _targets(target: ast.AST) -> Iterator[str]:
    for node in ast.walk(target):
        if isinstance(node, ast.Name):
            yield node.id


def _kind(node: ast.expr, names: dict[str, str], scope: _Scope) -> str | None:
    """FILE, FILES or None (not certainly either) for an expression."""
    if isinstance(node, ast.Name):
        return names.get(node.id)
    parameter = _parameter_read(node, scope)
    if parameter is not None:
        return scope.kinds.get(parameter)
    if isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Slice):
        return FILE if _kind(node.value, names, scope) == FILES else None
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or) and node.values:
        first = _kind(node.values[0], names, scope)
        empty = all(_is_empty(value) for value in node.values[1:])
        return first if first == FILES and empty else None
    return None


def _parameter_read(node: ast.expr, scope: _Scope) -> str | None:
    """The key of `params["x"]` or `params.get("x", ...)` on `_invoke`'s dictionary, else None."""
    if scope.dictionary is None:
        return None
    if isinstance(node, ast.Subscript) and _is_name(node.value, scope.dictionary):
        key = node.slice
    elif (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get"
        and _is_name(node.func.value, scope.dictionary)
        and node.args
    ):
        key = node.args[0]
    else:
        return None
    return key.value if isinstance(key, ast.Constant) and isinstance(key.value, str) else None


def _is_name(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _is_empty(node: ast.expr) -> bool:
    return (isinstance(node, ast.List | ast.Tuple) and not node.elts) or (
        isinstance(node, ast.Constant) and node.value is None
    )


def _is_file_annotation(annotation: ast.expr | None, scope: _Scope) -> bool:
    """`File`, `File | None` or `Optional[File]` with the SDK's File (a string annotation too)."""
    if annotation is None:
        return False
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        try:
            annotation = ast.parse(annotation.value, mode="eval").body
        except SyntaxError:
            return False
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        parts = [annotation.left, annotation.right]
        return any(_is_file_annotation(p, scope) for p in parts) and all(
            _is_file_annotation(p, scope) or _is_none(p) for p in parts
        )
    if isinstance(annotation, ast.Subscript) and _is_name(annotation.value, "Optional"):
        return _is_file_annotation(annotation.slice, scope)
    return isinstance(annotation, ast.Name) and annotation.id in scope.file_class


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _shown(node: ast.expr) -> str:
    """The receiver as written, short enough for a message (the code is a stranger's)."""
    return shorten(ast.unparse(node), 60)


def plain_bindings(function: ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> list[ast.expr | None]:
    """The values the plain assignments of `name` in the function give it, and None for any other
    binding (a parameter, a loop or `with` target, an augmented assignment, a tuple's element)."""
    nodes = own_nodes(function)
    values: list[ast.expr | None] = []
    plain = 0  # stores that are whole targets of a plain assignment
    for node in nodes:
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name) and target.id == name:
                    values.append(node.value)
                    plain += 1
        elif isinstance(node, ast.arg) and node.arg == name:
            values.append(None)
    stores = sum(
        isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store) for node in nodes
    )
    if stores != plain:
        values.append(None)
    return values or [None]
