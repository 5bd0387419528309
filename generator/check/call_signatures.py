"""How a call binds its arguments to the parameters of the definition it names, and how a name is
followed through a package's `from ... import` re-exports to that definition.

Shared by the checks that compare calls with what they call: a library's functions read from the
built environment (R130) and the plugin's own functions read from its code (R136, R137).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import PurePath

Definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
# How many parameters a message shows.
_SHOWN = 8
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


class Definitions:
    """Modules parsed on demand, by dotted name, whose top-level definitions are followed through
    their re-exports; a subclass says where the modules come from."""

    def module(self, dotted: str) -> tuple[PurePath, ast.Module] | None:
        """The parsed source of a module, None when there is no plain source for it."""
        raise NotImplementedError

    def file(self, path: PurePath) -> str:
        """A module's file as a message shows it."""
        raise NotImplementedError

    def release(self, top: str) -> str:
        """The distribution that installs the top-level module `top`, as a message names it."""
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

    def _star_binding(
        self, module: str, path: PurePath, stars: list[ast.ImportFrom], name: str
    ) -> str | None:
        """The module whose star import binds `name` last ("" when none does); None when unsure (a
        star import after the last known binding has no literal `__all__`)."""
        last = ""
        for star in stars:
            source = absolute(module, path, star)
            exported = self.exports(source, name)
            if exported is None:
                return None
            if exported and source:
                last = source
        return last

    def signature(self, module: str, name: str) -> Signature | None:
        """How `module.name` is called, following re-exports; None when unsure."""
        found = self.definition(module, name)
        if found is None:
            return None
        module, path, definition = found
        return signature_of(
            definition, f"{module}.{definition.name}", self.file(path), self.release(module.split(".")[0])
        )

    def definition(
        self, module: str, name: str, coroutines: bool = False
    ) -> tuple[str, PurePath, Definition] | None:
        """The module, file and top-level `def` or `class` that `module.name` names, following
        re-exports; None when unsure (an `async def` is followed only with `coroutines`)."""
        for _hop in range(_HOPS):
            parsed = self.module(module)
            if parsed is None:
                # `from pkg import sub` where `sub` is a module, then `sub.f`: handled by the caller's path
                return None
            path, tree = parsed
            bound = top_binding(tree, name, coroutines)
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
                source = absolute(module, path, found)
                alias = next(a for a in found.names if (a.asname or a.name) == name)
                if source is None:
                    return None
                module, name = source, alias.name
                continue
            return module, path, found
        return None


def misfits(call: ast.Call, signature: Signature) -> list[str]:
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


def top_binding(
    tree: ast.Module, name: str, coroutines: bool = False
) -> tuple[Definition | ast.ImportFrom | None, list[ast.ImportFrom]] | None:
    """The one top-level def, class or import binding `name` (None when none does), and the star
    imports after it, which may bind it again; None when anything else binds it (an assignment, a
    conditional or guarded binding, a second definition, an async def unless `coroutines`)."""
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
        elif binds_elsewhere(statement, name):
            return None
    if isinstance(found, ast.AsyncFunctionDef) and not coroutines:
        return None
    return (found if isinstance(found, Definition | ast.ImportFrom) else None), stars


def binds_elsewhere(statement: ast.stmt, name: str) -> bool:
    """True when a statement other than a plain top-level def, class or import binds `name`."""
    for node in ast.walk(statement):
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store | ast.Del):
            return True
        if isinstance(node, ast.alias) and (node.asname or node.name.split(".")[0]) == name:
            return True
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and node.name == name:
            return True
    return False


def absolute(module: str, path: PurePath, node: ast.ImportFrom) -> str | None:
    """The module a `from ... import` in `module` (its file `path`) names, relative imports resolved."""
    if not node.level:
        return node.module
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    if node.level - 1 > len(package) - 1:
        return None
    base = package[: len(package) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def _parameters(found: Definition, bound: bool) -> ast.arguments | None:
    """The parameters of a plain definition (a class's `__init__`'s, `self` still in); None when
    how it is called is not written plainly (a decorator, a metaclass, `__new__`, no own `__init__`)."""
    if found.decorator_list:
        return None
    if not isinstance(found, ast.ClassDef):
        if bound and not (found.args.posonlyargs or found.args.args):
            return None  # a method without its instance parameter fails however it is called
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
    found: Definition, target: str, file: str, distribution: str, bound: bool = False
) -> Signature | None:
    """How `found` is called (`bound`: a method called on its instance, `self` left out); None
    when that is not written plainly."""
    arguments = _parameters(found, bound)
    if arguments is None:
        return None
    ordered = [*arguments.posonlyargs, *arguments.args]
    defaulted = (
        {a.arg for a in ordered[len(ordered) - len(arguments.defaults) :]} if arguments.defaults else set()
    )
    if isinstance(found, ast.ClassDef) or bound:
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
