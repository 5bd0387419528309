"""What a plugin's module holds of one of the SDK's base classes (Tool, Event, Trigger...), read
from its syntax tree without running it.

The SDK picks a plugin's class by listing the module's namespace: `get_subclasses_from_module`
(`dify_plugin/core/utils/class_loader.py`) keeps every value of `vars(module)` that is a strict
subclass of the base, imported ones included, and `load_single_subclass_from_source` then refuses
none ("Missing subclass of ...") and several ("Multiple subclasses of ..."). The census below says
what can be known of that list statically, and when something else could change it.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass

from generator.check.undeclared import class_members, is_tool_base, sdk_names

# Statements that leave a class body plainly readable: what it binds is what it defines.
_PLAIN = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Assign, ast.AnnAssign, ast.Expr, ast.Pass)


@dataclass(frozen=True, slots=True)
class Census:
    """The module's top-level classes that derive from the SDK class (directly, or through another
    class of the module), and whether anything else could bring one into its namespace."""

    derived: tuple[ast.ClassDef, ...]
    uncertain: bool


def census(tree: ast.Module, name: str, is_local: Callable[[ast.ImportFrom], bool]) -> Census:
    """The subclasses of dify_plugin's `name` that module `tree` defines. Uncertain when the module
    imports names from the plugin's own modules (`is_local`: one of them may be a subclass, and the
    SDK counts imported classes too), star-imports, defines classes below an `if` or `try`, or
    derives a class from a base of its own that it does not define."""
    names = sdk_names(tree, name)
    derived: list[ast.ClassDef] = []
    known: set[str] = set()
    uncertain = False
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and (is_local(node) or any(a.name == "*" for a in node.names)):
            uncertain = True
        elif isinstance(node, ast.If | ast.Try | ast.With):
            uncertain = uncertain or any(isinstance(inner, ast.ClassDef) for inner in ast.walk(node))
        elif isinstance(node, ast.ClassDef):
            if any(is_tool_base(base, names, name) or _names(base, known) for base in node.bases):
                derived.append(node)
                known.add(node.name)
            elif any(isinstance(base, ast.Attribute) and not _from_sdk(base) for base in node.bases):
                uncertain = True  # `module.Base`: a class of another module, maybe a subclass
    return Census(tuple(derived), uncertain)


def plain_subclass(tree: ast.Module, name: str) -> ast.ClassDef | None:
    """The module's one class deriving from dify_plugin's `name` alone, when its body is plain
    methods and assignments and no other class of the module derives from it: then what it binds
    is exactly what it defines (a mixin, a decorator or a subclass could bring more)."""
    names = sdk_names(tree, name)
    classes = [node for node in tree.body if isinstance(node, ast.ClassDef)]
    derived = [node for node in classes if any(is_tool_base(base, names, name) for base in node.bases)]
    if len(derived) != 1:
        return None  # none, or several (the SDK then refuses the file for another reason)
    node = derived[0]
    if len(node.bases) != 1 or node.keywords or node.decorator_list:
        return None
    if any(not isinstance(statement, _PLAIN) for statement in node.body):
        return None
    if any(other is not node and _names(base, {node.name}) for other in classes for base in other.bases):
        return None  # a subclass in the same file may be the one that runs
    return node


def unbound(node: ast.ClassDef, methods: tuple[str, ...]) -> tuple[str, ...]:
    """Which of `methods` the class body does not bind."""
    bound = class_members(node).keys()
    return tuple(method for method in methods if method not in bound)


def _names(base: ast.expr, known: set[str]) -> bool:
    return isinstance(base, ast.Name) and base.id in known


def _from_sdk(base: ast.Attribute) -> bool:
    root: ast.expr = base
    while isinstance(root, ast.Attribute):
        root = root.value
    return isinstance(root, ast.Name) and root.id == "dify_plugin"
