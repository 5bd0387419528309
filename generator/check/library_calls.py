"""A keyword argument that the installed library's function or class does not take (R130), read
from the plugin environment's own source files once the environment is built.

Libraries rename and drop keyword arguments between releases (python-telegram-bot 20 dropped
`ChatPermissions(can_send_media_messages=...)`, openai 1.0 reshaped every call), and a plugin that
pins or resolves the new release while its code still passes the old keyword raises TypeError at
that line each time it runs, whatever the inputs. The run reaches such a line only when the tool
gets that far (most runs stop at a missing credential), so the calls are checked here without
running anything: the library's code is read as text (parsed, never imported), from the
`site-packages` of the environment built for the plugin, which holds the releases Dify's daemon
installs from the same requirements.

Only what the source states plainly is judged: a name the plugin imports from a library, followed
through the library's `from ... import` re-exports to a `def` or a `class` with its own `__init__`,
neither decorated, whose signature takes no `**kwargs`. Anything else (a C extension, an assignment,
a star import, a decorator, an inherited or generated `__init__`, a metaclass) is left alone.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path, PurePath

from generator.check.call_signatures import Definitions, absolute, misfits, top_binding
from generator.check.common import children, every_node
from generator.check.dead_code import unreached_functions
from generator.check.own_attributes import on_every_call
from generator.check.plugin_code import (
    Function,
    PluginCode,
    plugin_code,
    reachable_from,
    reachable_modules,
    single_bindings,
)
from generator.check.sdk_file import own_nodes
from generator.check.unparsed import class_sources
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.rules import Phrase, rule

CALL_MISFITS = rule(
    "R130",
    "library-call-misfits",
    Severity.ERROR,
    "`{call}(...)` {problem}, but the installed {distribution} defines `{target}` ({file}:{line}) taking"
    " {takes}, so this call raises TypeError each time it runs",
    "Call it as the installed release defines it (the names and the number of arguments), or pin the"
    " release whose signature the code was written for in the dependency file.",
    """
Python binds a call's arguments to the parameters before the function's first line runs, and
refuses a call that does not fit: `f(x=1)` on `def f(y)` raises `TypeError: f() got an unexpected
keyword argument 'x'`, and likewise too many positional arguments, a required parameter left out, or
one given twice; a class's call binds its arguments to `__init__` the same way. Libraries rename,
drop and add parameters between releases, so a plugin that installs a newer release than its code
was written for breaks at that line for every user who reaches it.

Found once the plugin's environment is built (`validate --run`, `build`), without running anything:
each call in the functions of the modules the SDK loads whose callee is a name imported from a
library (neither the standard library, the SDK nor the plugin's own modules) is followed through
that library's source in the environment's `site-packages` (parsed, never imported): through its
`from ... import` re-exports, to a `def`, or to a `class` whose body defines `__init__`. The call
is compared with the parameters that definition names: a keyword it does not take (when it has no
`**kwargs`), too many positional arguments (when it has no `*args`), a required parameter left out
or given twice (when the call unpacks nothing with `*` or `**`). A decorator (also on the class), a
metaclass, `__new__`, no `__init__` of its own, a name bound any other way (an assignment, a star
import without a literal `__all__`, a `try`) and a C extension are left alone.

An error where the call runs on every call of its function (T012's policy: a `try` or `with` body
counts as run); a warning where it sits in a branch, loop, handler or short-circuit.
""",
)
NAME_MISSING = rule(
    "R131",
    "library-name-missing",
    Severity.ERROR,
    "`{shown}`: the installed {distribution} has no `{name}` in `{module}` ({file}), so this line raises"
    " AttributeError each time it runs",
    "Use the name the installed release has, or pin the release the code was written for in the"
    " dependency file.",
    """
A module's attributes are the names its code binds. Libraries move and drop names between releases
(openai 1.0 dropped `openai.ChatCompletion`'s old call, `openai.error`), so a plugin that installs a
newer release than its code was written for raises AttributeError where it looks the name up, for
every user who reaches that line.

Found as `R130` is (once the environment is built, in the modules the SDK loads, the library's source
parsed and never imported): `lib.name` or `lib.sub.name` where `lib` is a library module the plugin
imports, and the module `lib.sub` is a plain source file that surely lacks `name`: no statement binds
it, there is no star import, no module `__getattr__`, no `__path__` or `sys.modules` trickery, and no
submodule of that name (a submodule is an attribute once something imports it). A name the plugin
sets on the module itself is not judged. An error where the line runs on every call of its function,
a warning in a branch, loop, handler or short-circuit.
""",
)
_SDK = frozenset({"dify_plugin"})
# The largest library module read (the biggest plain modules of common libraries are under 1 MB).
_SOURCE_BYTES = 4 * 1024 * 1024
# How much of a `.dist-info` file is read (a RECORD lists its top-level folders early).
_METADATA_BYTES = 256 * 1024


def site_folders(python: Path) -> list[Path]:
    """The `site-packages` folders of the environment whose interpreter is `python`."""
    return sorted((python.parent.parent / "lib").glob("python*/site-packages"))


def misfit_calls(loaded: LoadedPlugin, python: Path) -> list[Finding]:
    """R130 at each call that does not fit the library definition it names in the built environment."""
    folders = site_folders(python)
    if not folders:
        return []
    library = _Library(folders[0])
    code = plugin_code(loaded)
    unreached = unreached_functions(loaded)
    found: list[Finding] = []
    for module in _loaded_modules(loaded, code):
        relative, tree = code.modules[module]
        imported = _imported(code, relative, tree)
        if not imported:
            continue
        display = loaded.display_path(relative)
        # names the plugin sets on objects (`lib.name = ...`): not judged missing
        stored = frozenset(
            n.attr
            for n in every_node(tree)
            if isinstance(n, ast.Attribute) and not isinstance(n.ctx, ast.Load)
        )
        for function in every_node(tree):
            if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef) and id(function) not in unreached:
                found.extend(_calls(display, function, imported, library, stored))
    return found


def _loaded_modules(loaded: LoadedPlugin, code: PluginCode) -> list[str]:
    """The modules the SDK loads; for a plugin that does not load as it stands, those its entry
    point and the class files of the declarations read by their shape would load."""
    if loaded.plugin is not None and not loaded.hidden:
        return reachable_modules(loaded, code)
    return list(reachable_from(loaded, code, list(class_sources(loaded))))


def _imported(code: PluginCode, relative: str, tree: ast.Module) -> dict[str, tuple[str, str]]:
    """Local name -> (library module, attribute or "" for the module itself), for names bound only
    by one top-level import of a library in the module."""
    imported: dict[str, tuple[str, str]] = {}
    for local, (module, attribute) in single_bindings(relative, tree).items():
        top = module.split(".")[0]
        # the plugin's root comes first on `sys.path`: only a module or folder there shadows a library
        if top in code.modules or top in code.packages or top in sys.stdlib_module_names or top in _SDK:
            continue
        imported[local] = (module, attribute)
    return imported


def _calls(
    display: str,
    function: Function,
    imported: dict[str, tuple[str, str]],
    library: _Library,
    stored: frozenset[str],
) -> Iterator[Finding]:
    parents = {child: parent for parent in own_nodes(function) for child in children(parent)}
    told: set[int] = set()
    for node in own_nodes(function):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) and id(node.value) not in told:
            missing = _missing(node, imported, library, stored)
            if missing is not None:
                told.add(id(node))  # `lib.gone.f`: told once, at `lib.gone`
                module, name, path = missing
                yield NAME_MISSING.at(
                    Location(display, node.lineno, node.col_offset + 1),
                    Severity.ERROR if on_every_call(node, function, parents) else Severity.WARNING,
                    shown=ast.unparse(node),
                    distribution=library.release(module.split(".")[0]),
                    name=name,
                    module=module,
                    file=path.relative_to(library.root).as_posix(),
                )
        if not isinstance(node, ast.Call):
            continue
        named = _callee(node.func, imported)
        signature = library.signature(*named) if named else None
        problems = misfits(node, signature) if signature else []
        if not signature or not problems:
            continue
        straight = on_every_call(node, function, parents)
        yield CALL_MISFITS.at(
            Location(display, node.lineno, node.col_offset + 1),  # where a crash's traceback points
            Severity.ERROR if straight else Severity.WARNING,
            call=ast.unparse(node.func),
            problem=Phrase("; ".join(problems)),
            distribution=signature.distribution,
            target=signature.target,
            file=signature.file,
            line=signature.line,
            takes=Phrase(signature.shown()),
        )


def _missing(
    node: ast.Attribute, imported: dict[str, tuple[str, str]], library: _Library, stored: frozenset[str]
) -> tuple[str, str, Path] | None:
    """(module, name, the module's file) for a module attribute the installed library surely lacks
    and the plugin never sets on it; None otherwise."""
    named = _callee(node, imported)
    if named is None or named[1] in stored:
        return None
    path = library.lacks(*named)
    return None if path is None else (*named, path)


def _callee(func: ast.expr, imported: dict[str, tuple[str, str]]) -> tuple[str, str] | None:
    """(module, name) a call's callee names: an imported name, or an attribute path on an imported
    module (`telegram.ChatPermissions`, `pkg.sub.f`)."""
    path: list[str] = []
    while isinstance(func, ast.Attribute):
        path.insert(0, func.attr)
        func = func.value
    if not isinstance(func, ast.Name) or func.id not in imported:
        return None
    module, attribute = imported[func.id]
    if attribute:
        if path:
            return None  # an attribute of an imported object (a class's method): not followed
        return module, attribute
    if not path:
        return None
    return ".".join([module, *path[:-1]]), path[-1]


class _Library(Definitions):
    """The library source of one `site-packages` folder, parsed on demand, never imported."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._trees: dict[str, tuple[Path, ast.Module] | None] = {}
        self._releases: dict[str, str] = {}

    def module(self, dotted: str) -> tuple[Path, ast.Module] | None:
        """The parsed source of a library module, None when there is no plain `.py` for it."""
        if dotted not in self._trees:
            self._trees[dotted] = self._parse(dotted)
        return self._trees[dotted]

    def file(self, path: PurePath) -> str:
        """The module's file relative to `site-packages`."""
        return path.relative_to(self.root).as_posix()

    def _parse(self, dotted: str) -> tuple[Path, ast.Module] | None:
        base = self.root.joinpath(*dotted.split("."))
        for path in (base / "__init__.py", base.with_suffix(".py")):
            if path.is_file():
                try:
                    if path.stat().st_size > _SOURCE_BYTES:
                        return None  # a library is a stranger's choice: no unbounded read
                    return path, ast.parse(path.read_bytes())
                except (SyntaxError, ValueError, OSError, RecursionError):
                    return None
        return None

    def release(self, top: str) -> str:
        """`python-telegram-bot 22.5` for the distribution that installs the top-level module `top`
        (by the files its RECORD lists), from its METADATA; the bare module name when none does.
        Read once per module name (each finding names one; every RECORD is read to find it)."""
        if top not in self._releases:
            self._releases[top] = self._release(top)
        return self._releases[top]

    def _release(self, top: str) -> str:
        for info in sorted(self.root.glob("*.dist-info")):
            record = _head(info / "RECORD")
            if not any(line.startswith((f"{top}/", f"{top}.py,")) for line in record.splitlines()):
                continue
            fields = dict(
                line.split(": ", 1) for line in _head(info / "METADATA").splitlines()[:20] if ": " in line
            )
            name, version = fields.get("Name", ""), fields.get("Version", "")
            return f"{name} {version}" if name and version else top
        return top

    def lacks(self, module: str, name: str) -> Path | None:
        """The module's file when its source surely binds no `name`; None when it may."""
        parsed = self.module(module)
        if parsed is None or name.startswith("__"):
            return None  # every module has its dunders (`__name__`, `__file__`...) without binding them
        path, tree = parsed
        bound = top_binding(tree, name)
        if bound is None or bound[0] is not None:
            return None
        package = path.parent if path.name == "__init__.py" else None
        if package is not None and ((package / name).is_dir() or any(package.glob(f"{name}.*"))):
            return None  # a submodule is an attribute once anything imports it
        stars = [
            n for n in tree.body if isinstance(n, ast.ImportFrom) and any(a.name == "*" for a in n.names)
        ]
        if any(self.exports(absolute(module, path, star), name) is not False for star in stars):
            return None  # a star import that may bind it
        if _binds_dynamically(tree, name, stars):
            return None
        return path


def _binds_dynamically(tree: ast.Module, name: str, stars: list[ast.ImportFrom]) -> bool:
    """True when the module may bind `name` other than by a statement naming it: a nested star
    import, a lazy or extended module (`__getattr__`, `__path__`, `sys.modules`), `global`,
    `setattr`, or a write through `globals()`/`locals()`/`vars()`."""
    namespaces = {"globals", "locals", "vars"}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node not in stars and any(a.name == "*" for a in node.names):
            return True
        if isinstance(node, ast.Name) and node.id in {"__path__", "__getattr__"}:
            return True
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == "__getattr__":
            return True
        if isinstance(node, ast.Attribute) and ast.unparse(node) == "sys.modules":
            return True
        if isinstance(node, ast.Global) and name in node.names:
            return True
        if isinstance(node, ast.Assign) and _calls_any(node.value, namespaces):
            namespaces.update(t.id for t in node.targets if isinstance(t, ast.Name))
        if isinstance(node, ast.Call) and _setattr_may_bind(node, name):
            return True
        if isinstance(node, ast.Call) and ast.unparse(node.func).endswith(
            ("globals().update", "vars().update")
        ):
            return True
    written = [
        n.value for n in ast.walk(tree) if isinstance(n, ast.Subscript) and not isinstance(n.ctx, ast.Load)
    ]
    return any(
        _calls_any(value, namespaces) or (isinstance(value, ast.Name) and value.id in namespaces)
        for value in written
    )


def _calls_any(node: ast.expr, names: set[str]) -> bool:
    """True for a call of one of `names` (`globals()`)."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in names


def _setattr_may_bind(call: ast.Call, name: str) -> bool:
    """True for a `setattr(...)` that may set `name`: its attribute is not a literal other name."""
    if not (isinstance(call.func, ast.Name) and call.func.id == "setattr"):
        return False
    attribute = call.args[1] if len(call.args) > 1 else None
    return not (
        isinstance(attribute, ast.Constant) and isinstance(attribute.value, str) and attribute.value != name
    )


def _head(path: Path) -> str:
    """The start of a metadata file, as text; empty when it cannot be read."""
    try:
        with path.open("rb") as stream:
            return stream.read(_METADATA_BYTES).decode("utf-8", "replace")
    except OSError:
        return ""
