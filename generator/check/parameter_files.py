"""Files a parameter names that the package does not ship (R150): `_assets/templates/{theme}.pptx`
opened or tested with `exists()` where `theme` is a tool parameter, and the package holds no
`_assets/templates/` folder (or, for a select, no file for some of its options). The tool then
fails, or quietly falls back, for every value the user picks.
"""

from __future__ import annotations

import ast
import posixpath
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from generator.check import CheckContext
from generator.check.common import every_node, tool_module_tree
from generator.check.passed_on import scope_of
from generator.check.select_options import SELECT, reaches
from generator.check.undeclared import Function, invokes
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.plugin_model import Parameter
from generator.rules import Listing, Phrase, rule

FILE_NOT_SHIPPED = rule(
    "R150",
    "parameter-file-not-shipped",
    Severity.WARNING,
    "tool {tool} looks for `{pattern}` with parameter `{parameter}` in place of `*`, but {missing}:"
    " {outcome}",
    "Ship the files in the plugin (and keep them out of .difyignore), or {fix}.",
    """
A plugin runs from its package, with the package's root as working folder (the SDK imports a tool's
module by its path, `tools/general.py` as `tools.general`, "with the plugin root as working folder
and on `sys.path`"), and the package holds what `dify plugin package` puts in it: it honours
`.difyignore` (else `.gitignore`), so an excluded file is missing at run time too.

A path built from a folder of the plugin and a parameter's value
(`os.path.join(os.path.dirname(__file__), "..", "_assets", "templates", f"{theme}.pptx")`,
`Path(__file__).parent / "fonts" / font`, `f"templates/{name}.html"`) finds a file only if the
package ships it: when the folder is missing, `open` raises FileNotFoundError and an `exists()`
test sends every call to the fallback (a blank template, a default font), so the parameter the
user sets changes nothing.

Found without running: a tool parameter's value followed from `_invoke` into the plugin's own
functions (as R076 follows a select's value, `check/select_options.py`), through names bound once
to a path built from it by `os.path.join`, `/`, `+`, f-strings, `Path(...)`, `str()`,
`os.path.dirname(__file__)` or `Path(__file__).parent` (also from names the module binds once),
that is opened or tested (`open` for reading, `os.path.exists`, `isfile`, `Path.exists()`,
`is_file()`, `read_text`, `read_bytes`, `load`, `Presentation`, `Document`, `load_workbook`,
`truetype`), directly or as an item of a literal list the function loops over. For a select, each
option's file is looked up among the files the package ships (options that the function names as
string constants, a `"default"` it treats apart, are left out) and the missing ones are named; for
any other parameter, only a folder the package does not ship, or one that holds no file with the
path's suffix, is reported. Left alone: paths outside the plugin (absolute, or above its root), and
folders the module writes to (`makedirs`, `mkdir`, `open` for writing, `save`, `write_text`, a cache
it fills). A warning: the tool still runs, without the file.
""",
)
# The plugin's root in a path being evaluated, and the place of the parameter's value.
_ROOT = "/\x01root"
_HOLE = "\x00"
# Calls that read a file or test that it is there: its path is their first argument (functions) or
# the object they are called on (`Path` methods).
_READERS = frozenset(
    {
        "open",
        "exists",
        "isfile",
        "load",
        "Presentation",
        "Document",
        "load_workbook",
        "truetype",
        "imread",
        "read_csv",
        "read_excel",
    }
)
_PATH_METHODS = frozenset({"exists", "is_file", "open", "read_text", "read_bytes"})
# Calls that create a folder or write a file: a folder the module writes to may be missing.
_WRITERS = frozenset(
    {
        "makedirs",
        "mkdir",
        "save",
        "write_text",
        "write_bytes",
        "dump",
        "urlretrieve",
        "copy",
        "copyfile",
        "move",
    }
)
# How deep names are followed to the expressions bound to them, and how many texts a path may be.
_DEPTH = 12
_MOST = 16
# Calls that give back the path they are handed.
_SAME_PATH = frozenset({"abspath", "realpath", "normpath", "str", "Path", "PurePath", "resolve", "absolute"})


@dataclass(frozen=True, slots=True)
class _Found:
    """A path built from a parameter's value and read: where, and the folder and file pattern it
    names (relative to the plugin's root, `*` for the value)."""

    node: ast.AST
    folder: str
    prefix: str
    suffix: str


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """R150 for every parameter of every tool whose `_invoke` is plain."""
    tools = loaded.plugin.tools if loaded.plugin else ()
    shipped = frozenset(file.relative for file in loaded.reader.tree.files)
    for invoke in invokes(loaded, tools):
        module = tool_module_tree(loaded, invoke.tool)
        if module is None:
            continue
        scope = scope_of(loaded, *module)
        for parameter in invoke.tool.parameters:
            told: set[tuple[str, str, str]] = set()
            for reach in reaches(invoke, scope, parameter.name, every_call=False):
                tree = reach.scope.tree
                for candidates in _paths(reach.function, reach.names, reach.scope.relative, tree):
                    kept = [found for found in candidates if found.folder]
                    if not kept or any(_written(tree, found.folder) for found in kept):
                        continue
                    key = (kept[0].folder, kept[0].prefix, kept[0].suffix)
                    if key in told:
                        continue
                    told.add(key)
                    findings = [
                        _judge(
                            found, parameter, reach.function, shipped, invoke.tool.name, reach.scope.display
                        )
                        for found in kept
                    ]
                    if all(finding is not None for finding in findings):
                        yield from (finding for finding in findings[:1] if finding is not None)


def _judge(
    found: _Found, parameter: Parameter, function: Function, shipped: frozenset[str], tool: str, display: str
) -> Finding | None:
    """The finding when the files the path may name are not in the package."""
    where = Location(display, found.node.lineno, found.node.col_offset + 1)  # type: ignore[attr-defined]
    folder = f"{found.folder}/" if found.folder else ""
    pattern = f"{folder}{found.prefix}*{found.suffix}"
    if parameter.type == SELECT and parameter.options:
        named = {node.value for node in every_node(function) if isinstance(node, ast.Constant)}
        missing = [
            option.value
            for option in parameter.options
            if option.value not in named
            and f"{folder}{found.prefix}{option.value}{found.suffix}" not in shipped
        ]
        if not missing:
            return None
        plural = "s" if len(missing) > 1 else ""
        lack = (
            f"the package holds no file for option{plural} {Listing([f'`{value}`' for value in missing])!s}"
        )
        outcome, fix = "picking one, the tool finds no file", "remove those options"
    else:
        inside = [name for name in shipped if name.startswith(folder) and "/" not in name[len(folder) :]]
        if not inside:
            lack = f"the package ships no folder `{found.folder}`"
        elif found.suffix and not any(name.endswith(found.suffix) for name in inside):
            lack = f"the package's `{found.folder}` holds no `*{found.suffix}` file"
        else:
            return None
        outcome, fix = "whatever the value, the tool finds no file", "drop the parameter"
    return FILE_NOT_SHIPPED.at(
        where,
        tool=tool,
        pattern=pattern,
        parameter=parameter.name,
        missing=Phrase(lack),
        outcome=Phrase(outcome),
        fix=Phrase(fix),
    )


def _paths(
    function: Function, holders: frozenset[str], relative: str, tree: ast.Module
) -> Iterator[list[_Found]]:
    """For each read or test in `function` of a path built from a name of `holders`, the folders
    and file patterns it may name (a loop over a list of candidates names several)."""
    bound = {**_bound_once(tree), **_bound_once(function)}
    for node in every_node(function):
        path = _read_path(node)
        if path is None:
            continue
        texts = _evaluate(path, bound, holders, relative, 0)
        found = [located for text in texts if (located := _located(text, node)) is not None]
        if found:
            yield found


def _read_path(node: ast.AST) -> ast.expr | None:
    """The path a call reads or tests (`open`, `os.path.exists(p)`, `p.exists()`)."""
    if not isinstance(node, ast.Call):
        return None
    name = _called(node.func)
    if isinstance(node.func, ast.Attribute) and name in _PATH_METHODS and not node.args:
        return node.func.value
    if name in _READERS and node.args and not _writing(node):
        return node.args[0]
    return None


def _writing(call: ast.Call) -> bool:
    """True for `open` with a mode that writes ("w", "a", "x", "+")."""
    mode = (
        call.args[1]
        if len(call.args) > 1
        else next((k.value for k in call.keywords if k.arg == "mode"), None)
    )
    return (
        isinstance(mode, ast.Constant) and isinstance(mode.value, str) and bool(set(mode.value) & set("wax+"))
    )


def _bound_once(scope: ast.AST) -> dict[str, ast.expr]:
    """Names bound exactly once in `scope` (its own statements, not nested functions') to a value;
    a `for` over a literal list binds its name to the list (any item may be the path)."""
    values: dict[str, list[ast.expr | None]] = {}
    nodes = every_node(scope) if isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef) else scope.body  # type: ignore[attr-defined]
    for node in nodes:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            values.setdefault(node.targets[0].id, []).append(node.value)
        elif isinstance(node, ast.For) and isinstance(node.target, ast.Name):
            values.setdefault(node.target.id, []).append(node.iter)
        elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            values.setdefault(node.id, []).append(None)
        elif isinstance(node, ast.arg):
            values.setdefault(node.arg, []).append(None)
    # every_node lists an assignment's target Name too: one binding is two entries there
    single = 2 if isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef) else 1
    return {
        name: value
        for name, found in values.items()
        if len(found) == single and (value := next((v for v in found if v is not None), None)) is not None
    }


def _evaluate(
    node: ast.expr, bound: dict[str, ast.expr], holders: frozenset[str], relative: str, depth: int
) -> list[str]:
    """The texts a path expression may be, with `_ROOT` for the plugin's root and `_HOLE` for the
    parameter's value; empty when a part is unknown."""
    if depth > _DEPTH:
        return []

    def again(part: ast.expr) -> list[str]:
        return _evaluate(part, bound, holders, relative, depth + 1)

    if isinstance(node, ast.Constant):
        return [node.value] if isinstance(node.value, str) else []
    if isinstance(node, ast.Name):
        if node.id in holders:
            return [_HOLE]
        if node.id == "__file__":
            return [f"{_ROOT}/{relative}"]
        return again(bound[node.id]) if node.id in bound else []
    if isinstance(node, ast.List | ast.Tuple):
        return [text for item in node.elts for text in again(item)][:_MOST]
    if isinstance(node, ast.JoinedStr):
        return _combine(
            [
                again(part.value) if isinstance(part, ast.FormattedValue) else again(part)
                for part in node.values
            ],
            "",
        )
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Div):
        return _combine([again(node.left), again(node.right)], "/" if isinstance(node.op, ast.Div) else "")
    if isinstance(node, ast.Attribute) and node.attr == "parent":
        return [posixpath.dirname(text) for text in again(node.value)]
    if not isinstance(node, ast.Call):
        return []
    name = _called(node.func)
    if name == "getcwd":
        return [_ROOT]
    if name == "dirname" and node.args:
        return [posixpath.dirname(text) for text in again(node.args[0])]
    if name == "join" and ast.unparse(node.func).endswith("path.join"):
        return _combine([again(part) for part in node.args], "/")
    if name == "joinpath" and isinstance(node.func, ast.Attribute):
        return _combine([again(node.func.value), *(again(part) for part in node.args)], "/")
    if name in _SAME_PATH:
        if node.args:
            return again(node.args[0])
        return again(node.func.value) if isinstance(node.func, ast.Attribute) else []
    return []


def _combine(parts: list[list[str]], between: str) -> list[str]:
    """Every text made of one choice of each part, joined by `between` (a path's `/`: an absolute
    part starts again, as `os.path.join` does)."""
    texts = [""]
    for choices in parts:
        if not choices:
            return []
        joined = []
        for text in texts:
            for choice in choices:
                if between and text and not choice.startswith("/"):
                    joined.append(f"{text}{between}{choice}")
                else:
                    joined.append(choice if between and text else f"{text}{choice}")
        texts = joined[:_MOST]
    return texts


def _located(text: str, node: ast.AST) -> _Found | None:
    """The folder (relative to the plugin's root) and the file name's parts around the value, when
    the value is part of the file name only and the path stays inside the plugin."""
    if text.count(_HOLE) != 1:
        return None
    if not text.startswith("/"):
        text = f"{_ROOT}/{text}"
    text = posixpath.normpath(text)
    if not text.startswith(f"{_ROOT}/"):
        return None  # outside the plugin (absolute, or above its root)
    folder, name = posixpath.split(text[len(_ROOT) + 1 :])
    if _HOLE in folder or _HOLE not in name:
        return None
    prefix, suffix = name.split(_HOLE)
    return _Found(node, folder, prefix, suffix)


def _written(tree: ast.Module, folder: str) -> bool:
    """True when the module creates a folder or writes a file whose path mentions the folder's last
    part (as a string, or through names bound to one): what it writes there may be found later."""
    last = folder.rsplit("/", 1)[-1]
    values: dict[str, list[ast.expr]] = {}
    for node in every_node(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    values.setdefault(target.id, []).append(node.value)
    for node in every_node(tree):
        if not isinstance(node, ast.Call):
            continue
        name = _called(node.func)
        if (name in _WRITERS or (name == "open" and _writing(node))) and any(
            last in text for text in _mentioned(node, values, 0)
        ):
            return True
    return False


def _mentioned(node: ast.AST, values: dict[str, list[ast.expr]], depth: int) -> Iterator[str]:
    """The strings written in `node` and in what the names it reads are bound to, a few names deep."""
    for part in every_node(node):
        if isinstance(part, ast.Constant) and isinstance(part.value, str):
            yield part.value
        elif isinstance(part, ast.Name) and depth < _DEPTH:
            for value in values.get(part.id, []):
                yield from _mentioned(value, values, depth + 1)


def _called(function: ast.expr) -> str:
    """The last name of a called function: `exists` of `os.path.exists`, `open` of `path.open`."""
    if isinstance(function, ast.Name):
        return function.id
    return function.attr if isinstance(function, ast.Attribute) else ""
