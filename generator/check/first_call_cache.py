"""Objects built once, from the first caller's arguments, and handed to every later caller (R153): a
module-level client made lazily from the credentials of the first call, or a singleton class whose
`__new__` returns the instance made first.

Dify's daemon runs one process per installed plugin, and that process serves every call of every
workspace and user that installed it; so what the first call fixes, every later call gets.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

from generator.check import CheckContext
from generator.check.plugin_code import reachable_functions
from generator.check.sdk_file import own_nodes
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.rules import Phrase, rule

FIRST_CALL_CACHED = rule(
    "R153",
    "first-call-cached",
    Severity.WARNING,
    "{what!s}: the plugin's process keeps it for every later call, whatever their {given!s}, so {outcome!s}",
    "Make the object for each call (or cache it by the values it is made from, as a dictionary keyed"
    " by them), and keep no credentials in module or class state.",
    """
Dify's plugin daemon starts one process for an installed plugin and sends it every call: the
daemon's local runtime launches the plugin once (`python -m <entrypoint>`,
`internal/core/local_runtime/subprocess.go`) and routes each request of each tenant to it, and the
SDK serves them in that process (`dify_plugin/core/plugin_executor.py` makes the tool instance per
request, but module and class attributes live as long as the process). A module-level name set
once (`global client; if client is None: client = Client(api_key)`) from the arguments of the
function that sets it, or a class whose `__new__` returns the instance it made first (a singleton)
while its `__init__` takes arguments, therefore keeps what the first call gave: the next workspace's
credentials, host or database are never used, and its calls reach the first one's account.

Found without running: a function that declares `global NAME`, tests that NAME is unset (`is None`,
`not NAME`) and assigns it a value made from the function's own parameters (or from credentials);
and a class whose `__new__` tests and sets a class attribute with the instance, when its `__init__`
takes parameters besides `self`. A warning: a plugin used by one workspace with one set of
credentials does not notice.
""",
)
_UNSET = (ast.Is, ast.Eq)
LATER_CALLERS = "later callers (another workspace, other credentials) get the first one's"


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """R153 in the functions of the modules the SDK loads (a singleton at its `__new__`)."""
    for display, tree, function in reachable_functions(loaded):
        yield from _lazy_globals(function, display)
        if function.name == "__new__":
            owner = next(
                (c for c in ast.walk(tree) if isinstance(c, ast.ClassDef) and function in c.body), None
            )
            yield from _singleton(owner, display) if owner is not None else ()


def _lazy_globals(function: ast.FunctionDef | ast.AsyncFunctionDef, display: str) -> Iterator[Finding]:
    """`global NAME`, then `if NAME is None: NAME = make(<a parameter>)`."""
    declared = {name for node in own_nodes(function) if isinstance(node, ast.Global) for name in node.names}
    if not declared:
        return
    parameters = {a.arg for a in [*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs]}
    parameters -= {"self", "cls"}
    for node in own_nodes(function):
        if not isinstance(node, ast.If) or (name := _unset_test(node.test)) not in declared:
            continue
        for statement in node.body:
            if (
                isinstance(statement, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id == name for t in statement.targets)
                and (given := _made_from(statement.value, parameters))
            ):
                yield FIRST_CALL_CACHED.at(
                    Location(display, statement.lineno, statement.col_offset + 1),
                    what=Phrase(
                        f"`{name}` is set once, by the first call of `{function.name}`, from {given}"
                    ),
                    given=Phrase(given.removeprefix("the arguments ").removeprefix("the ")),
                    outcome=Phrase(
                        "later callers (another workspace, other credentials) get the first one's"
                    ),
                )
                return


def _singleton(cls: ast.ClassDef, display: str) -> Iterator[Finding]:
    """A `__new__` that returns a cached instance, in a class whose `__init__` takes arguments."""
    methods = {m.name: m for m in cls.body if isinstance(m, ast.FunctionDef)}
    new, init = methods.get("__new__"), methods.get("__init__")
    if new is None or init is None:
        return
    arguments = [a.arg for a in [*init.args.args[1:], *init.args.kwonlyargs]]
    if not arguments:
        return
    cached = {
        target.attr
        for node in own_nodes(new)
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Attribute)
        and isinstance(target.value, ast.Name)
        and target.value.id == "cls"
    }
    tested = {
        attribute
        for node in own_nodes(new)
        if isinstance(node, ast.If)
        for attribute in [_unset_test(node.test, "cls")]
        if attribute
    }
    if not cached & tested:
        return
    given = ", ".join(arguments[:4]) + (", ..." if len(arguments) > 4 else "")
    yield FIRST_CALL_CACHED.at(
        Location(display, new.lineno, new.col_offset + 1),
        what=Phrase(
            f"`{cls.name}.__new__` returns the one instance it made first, though `__init__` takes {given}"
        ),
        given=Phrase(given),
        outcome=Phrase("every later `" + cls.name + "(...)` gets the object the first caller's values made"),
    )


def _unset_test(test: ast.expr, owner: str = "") -> str:
    """The name (or `owner`'s attribute) a test finds unset: `x is None`, `x == None`, `not x`."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _named(test.operand, owner)
    if (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], _UNSET)
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value is None
    ):
        return _named(test.left, owner)
    return ""


def _named(node: ast.expr, owner: str) -> str:
    if not owner:
        return node.id if isinstance(node, ast.Name) else ""
    is_owned = isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == owner
    return node.attr if is_owned and isinstance(node, ast.Attribute) else ""


def _made_from(value: ast.expr, parameters: set[str]) -> str:
    """What of the caller's the value is made from: its parameters, or credentials; "" for neither."""
    used = sorted({n.id for n in ast.walk(value) if isinstance(n, ast.Name) and n.id in parameters})
    if used:
        return "the arguments " + ", ".join(f"`{name}`" for name in used)
    if "credentials" in ast.unparse(value):
        return "the credentials"
    return ""
