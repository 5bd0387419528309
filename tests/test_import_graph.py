"""The packages of generator/ import each other in one direction only: no cycle between them.

A node is a subpackage of generator/ or one of its top-level modules; every import counts, those
inside functions and under TYPE_CHECKING too (a lazy import still ties the packages together)."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "generator"


def module_name(path: Path) -> str:
    """The dotted name of a module file under the repository."""
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def node_of(module: str) -> str:
    """The package-graph node of a dotted module name: its first part below `generator`."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def imported(path: Path) -> Iterable[str]:
    """Every module `path` imports, relative imports made absolute."""
    module = module_name(path)
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            yield ".".join([*base, *([node.module] if node.module else [])])


def package_graph(root: Path = PACKAGE) -> dict[str, set[str]]:
    """Node -> the other nodes it imports, over every module under `root`."""
    graph: dict[str, set[str]] = {}
    for path in sorted(root.rglob("*.py")):
        source = node_of(module_name(path))
        targets = graph.setdefault(source, set())
        for name in imported(path):
            if name.startswith("generator.") and node_of(name) != source:
                targets.add(node_of(name))
    return graph


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted({*graph, *(t for targets in graph.values() for t in targets)}):
        if node not in index:
            visit(node)
    return found


def test_the_cycle_finder_finds_a_planted_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"d"}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_sees_relative_and_lazy_imports() -> None:
    assert "rules" in package_graph()["check"]  # every check module imports the rule declarations
    assert "pipeline" in package_graph()["commands"]


def test_no_import_cycle_between_the_packages_of_generator() -> None:
    graph = package_graph()
    found = cycles(graph)
    shown = [" -> ".join(f"{n} ({', '.join(sorted(graph[n] & set(c)))})" for n in c) for c in found]
    assert not found, "import cycles between packages: " + "; ".join(shown)
