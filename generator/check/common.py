"""Helpers shared by the check modules: the submission checks' gate, documents by role, files named
inside a plugin."""

from __future__ import annotations

import ast
import difflib
import functools
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any, TypeVar

from generator.check import CheckContext
from generator.findings import Finding, Location, Severity
from generator.load.crawl import PATH_ESCAPES, LoadedPlugin
from generator.load.modules import INIT, Failure, module_of
from generator.load.values import dig
from generator.load.yamlload import YamlDocument
from generator.plugin_model import Tool
from generator.rules import Rule

ASSETS = "_assets"
# the attribute under which a syntax tree keeps the list of its nodes (see `every_node`)
_NODES = "_every_node"
# the attribute under which a node keeps the tuple of its child nodes (see `children`)
_CHILDREN = "_child_nodes"

T = TypeVar("T")


CheckFunction = Callable[[LoadedPlugin, CheckContext], Iterable[Finding]]


def submission_only(check: CheckFunction) -> CheckFunction:
    """A check of what the marketplace asks of a submission: it runs only with `--submission`, and
    only on a plugin whose manifest loaded (without one there is no plugin to submit)."""

    @functools.wraps(check)
    def gated(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
        if not context.submission or loaded.plugin is None:
            return ()
        return check(loaded, context)

    return gated


def every_node(tree: ast.AST) -> tuple[ast.AST, ...]:
    """Every node of `tree` in `ast.walk` order, listed once and kept on the tree itself.

    The static checks read each module up to nine times (messages, parameters, hosts, safety,
    secrets); walking it anew each time was a sixth of the time of validating 10,000 tools. Kept on
    the tree, the list lives exactly as long as the tree (the pipeline drops both after the checks).
    The list leaves the tree itself out: holding it would make a reference cycle, which only the
    cyclic garbage collector frees, and at 10,000 tools its extra passes cost more than the walks."""
    below: tuple[ast.AST, ...] | None = getattr(tree, _NODES, None)
    if below is None:
        order = [tree]  # breadth first, as `ast.walk` goes
        for node in order:
            order.extend(children(node))
        below = tuple(order[1:])
        setattr(tree, _NODES, below)
    return (tree, *below)


def kept_on(node: ast.AST, name: str, make: Callable[[], T]) -> T:
    """`make()`, computed once per node and kept on it under `name`, as `every_node` keeps its list:
    a fact of a syntax tree that several checks, or one check for several classes, ask for. What
    `make` gives must hold no node above `node` (no reference cycle; see `every_node`)."""
    attribute = f"_kept_{name}"
    if attribute not in node.__dict__:
        setattr(node, attribute, make())
    value: T = node.__dict__[attribute]
    return value


def statement_nodes(statements: list[ast.stmt]) -> Iterator[ast.AST]:
    """The nodes of `statements`, not those of functions, lambdas or classes defined in them (their
    code runs only when called)."""
    pending: list[ast.AST] = list(statements)
    while pending:
        node = pending.pop()
        yield node
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            pending.extend(children(node))


def children(node: ast.AST) -> tuple[ast.AST, ...]:
    """The child nodes of `node` in `ast.iter_child_nodes` order, listed once and kept on the node.

    The checks of a plugin's code walk each function several times over (its nodes, its own nodes
    without those of inner functions, each node's parent), and `ast.iter_child_nodes` (a generator
    over every field of the node) was most of their time: 4 million calls for Dify's 149 official
    tool plugins. Like `every_node`'s list, the tuple lives exactly as long as the tree, and holds
    no node above this one, so it makes no reference cycle."""
    found: tuple[ast.AST, ...] | None = getattr(node, _CHILDREN, None)
    if found is None:
        found = tuple(ast.iter_child_nodes(node))
        setattr(node, _CHILDREN, found)
    return found


def documents(loaded: LoadedPlugin, role: str) -> Iterator[tuple[str, YamlDocument]]:
    """The readable mapping documents of one role, in loading order."""
    for relative, document in loaded.documents.items():
        if loaded.roles.get(relative) == role and isinstance(document.data, dict):
            yield relative, document


def check_asset(
    loaded: LoadedPlugin,
    where: Location,
    icon: Any,
    missing: Rule,
    what: str,
    severity: Severity | None = None,
) -> list[Finding]:
    """An icon named by a manifest must be a file in `_assets/` (Dify looks nowhere else)."""
    if not isinstance(icon, str) or not icon:
        return []  # absent or mistyped icons are the schema's findings
    if PurePosixPath(icon.replace("\\", "/")).is_absolute():  # joined to _assets/ it would look harmless
        return [
            PATH_ESCAPES.at(where, severity, what=what, path=icon, problem="absolute paths are not allowed")
        ]
    resolved = loaded.reader.resolve(f"{ASSETS}/{icon}")
    if resolved.path is None:
        return [PATH_ESCAPES.at(where, severity, what=what, path=icon, problem=resolved.problem)]
    if not resolved.path.is_file():
        return [missing.at(where, severity, path=f"{ASSETS}/{icon}")]
    return []


@dataclass(frozen=True, slots=True)
class SourceRules:
    """The rules of one kind of class file (tool or provider), by what the SDK makes of it."""

    missing: Rule
    not_python: Rule
    not_importable: Rule
    by_name: Rule


def check_source(
    loaded: LoadedPlugin, document: YamlDocument, rules: SourceRules, what: str
) -> list[Finding]:
    """`extra.python.source` must lead the SDK to a Python file inside the plugin; it is resolved as
    the SDK resolves it (generator.load.modules), so a source that works by its module name only is
    a warning, not an error."""
    source = dig(document.data, "extra", "python", "source")
    if not isinstance(source, str) or not source:
        return []  # the schema reports a missing or mistyped source
    where = document.at("extra", "python", "source")
    resolved = loaded.reader.resolve(source)
    if resolved.path is None:
        return [PATH_ESCAPES.at(where, what=what, path=source, problem=resolved.problem)]
    module = module_of(loaded.reader, source)
    # `what` fills the messages of the rules that name the file's role (a kind's provider or child)
    if module.failure is Failure.NOT_PYTHON:
        return [rules.not_python.at(where, path=source, what=what)]
    if module.failure is Failure.MISSING:
        return [rules.missing.at(where, path=source, what=what)]
    if module.failure is Failure.NOT_IMPORTABLE:
        return [
            rules.not_importable.at(
                where, path=source, module=module.module, problem=module.problem, what=what
            )
        ]
    if module.accidental and module.loaded != f"{resolved.relative}/{INIT}":
        return [rules.by_name.at(where, path=source, module=module.module, loaded=module.loaded, what=what)]
    return []


def tool_module_tree(loaded: LoadedPlugin, tool: Tool) -> tuple[str, ast.Module] | None:
    """The file the SDK executes for `tool` (not always the one its source names, rule T007) and
    its syntax tree; None when there is none to read (the source rules report why) or it does not
    parse."""
    return module_tree(loaded, tool.source)


def module_tree(loaded: LoadedPlugin, source: str) -> tuple[str, ast.Module] | None:
    """The file the SDK executes for a class source (a tool's or a provider's) and its syntax tree;
    None when there is none to read or it does not parse."""
    module = module_of(loaded.reader, source) if source else None
    if module is None or not module.loaded:
        return None
    tree = loaded.reader.source_tree(module.loaded)
    return (module.loaded, tree) if tree is not None else None


def tool_modules(loaded: LoadedPlugin, tools: Iterable[Tool]) -> Iterator[tuple[str, ast.Module, Tool]]:
    """Each file the SDK executes for one of `tools`, once (several tools may share a file): its
    path, its syntax tree and the first tool that uses it."""
    done: set[str] = set()
    for tool in tools:
        found = tool_module_tree(loaded, tool)
        if found is not None and found[0] not in done:
            done.add(found[0])
            yield found[0], found[1], tool


def closest_name(name: str, names: Iterable[str]) -> str | None:
    """The one of `names` that `name` was most likely meant to be: the same but for case and
    underscores, else the closest spelling (difflib's ratio of at least 0.8); None when none is."""
    candidates = list(dict.fromkeys(names))
    folded = {fold_name(candidate): candidate for candidate in candidates}
    if fold_name(name) in folded:
        return folded[fold_name(name)]
    close = difflib.get_close_matches(fold_name(name), list(folded), n=1, cutoff=0.8)
    return folded[close[0]] if close else None


def fold_name(name: str) -> str:
    """`name` as `closest_name` compares it: lower case, without `_` and `-`."""
    return name.replace("_", "").replace("-", "").casefold()


def library_callables(tree: ast.Module, table: Mapping[str, frozenset[str]]) -> dict[str, str]:
    """How `tree` names each function of `table` (module -> function names): `random.randint` after
    `import random`, `r.randint` after `import random as r`, `randint` after `from random import
    randint`, each mapped to `module.function`. An import anywhere in the module counts: it binds
    the name for every function that runs after the module loaded. Read once per tree and table
    (the checks ask for each function of the module): `table` must be a module's constant, since it
    is told apart by identity."""
    return kept_on(tree, f"callables_{id(table)}", lambda: _library_callables(tree, table))


def _library_callables(tree: ast.Module, table: Mapping[str, frozenset[str]]) -> dict[str, str]:
    names: dict[str, str] = {}
    for node in every_node(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in table:
                    local = alias.asname or alias.name
                    names.update({f"{local}.{f}": f"{alias.name}.{f}" for f in table[alias.name]})
        elif isinstance(node, ast.ImportFrom) and node.module and node.module in table and not node.level:
            for alias in node.names:
                if alias.name in table[node.module]:
                    names[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return names


def called_name(node: ast.expr) -> str:
    """`f` or `m.f` for a call's function written as a name or one attribute of a name."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return f"{node.value.id}.{node.attr}"
    return ""


def string_entries(node: ast.Dict | ast.List | ast.Tuple) -> Iterator[tuple[ast.Constant, str, str]]:
    """The string pairs of a table literal: the entries of a dictionary whose key and value are both
    strings, or the items of a list or tuple that are pairs of strings (`[("Malay", "ms"), ...]`),
    as (first node, first, second). Tables of codes and types (languages, MIME types) are written so."""
    if isinstance(node, ast.Dict):
        pairs = [(key, value) for key, value in zip(node.keys, node.values, strict=True) if key is not None]
    else:
        pairs = [
            (item.elts[0], item.elts[1])
            for item in node.elts
            if isinstance(item, ast.Tuple | ast.List) and len(item.elts) == 2
        ]
    for first, second in pairs:
        if (
            isinstance(first, ast.Constant)
            and isinstance(first.value, str)
            and isinstance(second, ast.Constant)
            and isinstance(second.value, str)
        ):
            yield first, first.value, second.value
