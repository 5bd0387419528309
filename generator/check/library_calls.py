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
from dataclasses import dataclass
from pathlib import Path

from generator.check.common import children, every_node
from generator.check.dead_code import unreached_functions
from generator.check.own_attributes import on_every_call
from generator.check.plugin_code import (
    Function,
    PluginCode,
    imported_module,
    plugin_code,
    reachable_from,
    reachable_modules,
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
# How many parameters a message shows.
_SHOWN = 8
# The largest library module read (the biggest plain modules of common libraries are under 1 MB).
_SOURCE_BYTES = 4 * 1024 * 1024
# How much of a `.dist-info` file is read (a RECORD lists its top-level folders early).
_METADATA_BYTES = 256 * 1024
# How far re-exports are followed (`pkg/__init__.py` -> `pkg/_sub.py` -> ...).
_HOPS = 8


@dataclass(frozen=True, slots=True)
class Signature:
    """How a library definition is called: its parameters, where it is written, its distribution."""

    target: str
    positional: tuple[str, ...]  # in order, `self` left out
    keywords: tuple[str, ...]  # those a keyword may name (not the positional-only ones)
    required: tuple[str, ...]  # those with no default
    any_positional: bool  # `*args`
    any_keyword: bool  # `**kwargs`
    file: str
    line: int
    distribution: str

    def shown(self) -> str:
        """The parameters as a signature shows them: `(url, params=..., *, timeout=...)`."""
        names = [n if n in self.required else f"{n}=..." for n in self.positional]
        only = [n if n in self.required else f"{n}=..." for n in self.keywords if n not in self.positional]
        stars = ["*args"] if self.any_positional else (["*"] if only else [])
        shown = [*names, *stars, *only, *(["**kwargs"] if self.any_keyword else [])]
        if len(shown) > _SHOWN:  # the parameters the message needs come first; the rest is its file's
            shown = [*shown[:_SHOWN], f"... {len(shown) - _SHOWN} more"]
        return "(" + ", ".join(shown) + ")" if shown else "no arguments"


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
    bindings: dict[str, list[tuple[str, str]]] = {}
    for node in every_node(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                local = alias.asname or alias.name.split(".")[0]
                bindings.setdefault(local, []).append((alias.name if alias.asname else local, ""))
        elif isinstance(node, ast.ImportFrom):
            source = imported_module(relative, node)
            for alias in node.names:
                bindings.setdefault(alias.asname or alias.name, []).append((source or "", alias.name))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            bindings.setdefault(node.name, []).append(("", ""))
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            bindings.setdefault(node.id, []).append(("", ""))
        elif isinstance(node, ast.arg):
            bindings.setdefault(node.arg, []).append(("", ""))
    imported: dict[str, tuple[str, str]] = {}
    for local, bound in bindings.items():
        if len(bound) != 1 or not bound[0][0]:
            continue
        module, attribute = bound[0]
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
        problems = _misfits(node, signature) if signature else []
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


def _misfits(call: ast.Call, signature: Signature) -> list[str]:
    """How the call does not fit the signature, in words; empty when it fits or may fit."""
    unpacks = any(isinstance(a, ast.Starred) for a in call.args)
    spreads = any(k.arg is None for k in call.keywords)
    given = [] if unpacks else list(signature.positional[: len(call.args)])
    problems = [
        f"passes `{k.arg}`, which it does not take"
        for k in call.keywords
        if k.arg is not None and not signature.any_keyword and k.arg not in signature.keywords
    ]
    problems += [f"gives `{k.arg}` twice" for k in call.keywords if k.arg in given]
    if not unpacks and not signature.any_positional and len(call.args) > len(signature.positional):
        problems.append(
            f"passes {len(call.args)} positional arguments where it takes {len(signature.positional)}"
        )
    if not unpacks and not spreads:
        named = {k.arg for k in call.keywords}
        problems += [
            f"leaves out `{name}`, which it requires"
            for name in signature.required
            if name not in given and name not in named
        ]
    return problems


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


class _Library:
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

    def exports(self, module: str | None, name: str) -> bool | None:
        """Whether `from module import *` binds `name`, by the module's literal `__all__`; None when
        unsure (no such module here, or no literal `__all__`)."""
        parsed = self.module(module) if module else None
        if parsed is None:
            return None
        for statement in parsed[1].body:
            if (
                isinstance(statement, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id == "__all__" for t in statement.targets)
                and isinstance(statement.value, ast.List | ast.Tuple)
            ):
                return any(isinstance(e, ast.Constant) and e.value == name for e in statement.value.elts)
        return None

    def _star_binding(self, module: str, path: Path, stars: list[ast.ImportFrom], name: str) -> str | None:
        """The module whose star import binds `name` last ("" when none does); None when unsure (a
        star import after the last known binding has no literal `__all__`)."""
        last = ""
        for star in stars:
            source = _absolute(module, path, star)
            exported = self.exports(source, name)
            if exported is None:
                return None
            if exported and source:
                last = source
        return last

    def lacks(self, module: str, name: str) -> Path | None:
        """The module's file when its source surely binds no `name`; None when it may."""
        parsed = self.module(module)
        if parsed is None or name.startswith("__"):
            return None  # every module has its dunders (`__name__`, `__file__`...) without binding them
        path, tree = parsed
        bound = _defined(tree, name)
        if bound is None or bound[0] is not None:
            return None
        package = path.parent if path.name == "__init__.py" else None
        if package is not None and ((package / name).is_dir() or any(package.glob(f"{name}.*"))):
            return None  # a submodule is an attribute once anything imports it
        stars = [
            n for n in tree.body if isinstance(n, ast.ImportFrom) and any(a.name == "*" for a in n.names)
        ]
        if any(self.exports(_absolute(module, path, star), name) is not False for star in stars):
            return None  # a star import that may bind it
        if _binds_dynamically(tree, name, stars):
            return None
        return path

    def signature(self, module: str, name: str) -> Signature | None:
        """The keyword names `module.name` takes, following re-exports; None when unsure."""
        for _hop in range(_HOPS):
            parsed = self.module(module)
            if parsed is None:
                # `from pkg import sub` where `sub` is a module, then `sub.f`: handled by the caller's path
                return None
            path, tree = parsed
            bound = _defined(tree, name)
            if bound is None:
                return None
            found, stars = bound
            star = self._star_binding(module, path, stars, name)
            if star is None:
                return None
            if star:  # a star import after any other binding binds it last
                module = star
                continue
            if found is None:
                return None
            if isinstance(found, ast.ImportFrom):
                source = _absolute(module, path, found)
                alias = next(a for a in found.names if (a.asname or a.name) == name)
                if source is None:
                    return None
                module, name = source, alias.name
                continue
            return signature_of(
                found,
                f"{module}.{name}",
                path.relative_to(self.root).as_posix(),
                self.release(module.split(".")[0]),
            )
        return None


def _defined(
    tree: ast.Module, name: str
) -> tuple[ast.FunctionDef | ast.ClassDef | ast.ImportFrom | None, list[ast.ImportFrom]] | None:
    """The one top-level def, class or import binding `name` (None when none does), and the star
    imports after it, which may bind it again; None when anything else binds it (an assignment, a
    conditional or guarded binding, a second definition, an async def)."""
    found: ast.stmt | None = None
    stars: list[ast.ImportFrom] = []
    for statement in tree.body:
        if isinstance(statement, ast.ImportFrom) and any(alias.name == "*" for alias in statement.names):
            stars.append(statement)
        elif isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.ImportFrom):
            named = (
                [statement.name]
                if not isinstance(statement, ast.ImportFrom)
                else [alias.asname or alias.name for alias in statement.names]
            )
            if name in named:
                if found is not None:
                    return None
                found, stars = statement, []
        elif _binds_elsewhere(statement, name):
            return None
    if isinstance(found, ast.AsyncFunctionDef):
        return None
    return (found if isinstance(found, ast.FunctionDef | ast.ClassDef | ast.ImportFrom) else None), stars


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


def _binds_elsewhere(statement: ast.stmt, name: str) -> bool:
    """True when a statement other than a plain top-level def, class or import binds `name`."""
    for node in ast.walk(statement):
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store | ast.Del):
            return True
        if isinstance(node, ast.alias) and (node.asname or node.name.split(".")[0]) == name:
            return True
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and node.name == name:
            return True
    return False


def _absolute(module: str, path: Path, node: ast.ImportFrom) -> str | None:
    """The module a library's `from ... import` names, relative imports resolved."""
    if not node.level:
        return node.module
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    if node.level - 1 > len(package) - 1:
        return None
    base = package[: len(package) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def _parameters(found: ast.FunctionDef | ast.ClassDef) -> ast.arguments | None:
    """The parameters of a plain definition (a class's `__init__`'s, `self` still in); None when
    how it is called is not written plainly (a decorator, a metaclass, `__new__`, no own `__init__`)."""
    if found.decorator_list:
        return None
    if isinstance(found, ast.FunctionDef):
        return found.args
    if found.keywords:
        return None  # a metaclass or class keywords may change how it is called
    special = [s for s in found.body if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef)]
    inits = [s for s in special if s.name == "__init__"]
    if len(inits) != 1 or inits[0].decorator_list or any(s.name == "__new__" for s in special):
        return None
    if any(
        isinstance(s, ast.Assign | ast.AnnAssign) and "__signature__" in ast.unparse(s) for s in found.body
    ):
        return None
    arguments = inits[0].args
    if not (arguments.posonlyargs or arguments.args):
        return None  # no `self`: not a plain method
    return arguments


def signature_of(
    found: ast.FunctionDef | ast.ClassDef, target: str, file: str, distribution: str
) -> Signature | None:
    """How `found` is called; None when that is not written plainly."""
    arguments = _parameters(found)
    if arguments is None:
        return None
    ordered = [*arguments.posonlyargs, *arguments.args]
    defaulted = (
        {a.arg for a in ordered[len(ordered) - len(arguments.defaults) :]} if arguments.defaults else set()
    )
    if isinstance(found, ast.ClassDef):
        ordered = ordered[1:]
    keyword_only = arguments.kwonlyargs
    required = [a.arg for a in ordered if a.arg not in defaulted]
    required += [a.arg for a, d in zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True) if d is None]
    positional_only = {a.arg for a in arguments.posonlyargs}
    return Signature(
        target,
        tuple(a.arg for a in ordered),
        tuple(a.arg for a in [*ordered, *keyword_only] if a.arg not in positional_only),
        tuple(required),
        arguments.vararg is not None,
        arguments.kwarg is not None,
        file,
        found.lineno,
        distribution,
    )
