"""Each command module reads alone: it imports no other command and not the command line; what
several commands share is in `generator/commands/options.py` (and the site configuration they
write, `siteconfig.py`)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from generator.cli import COMMANDS

COMMANDS_DIR = Path(__file__).resolve().parents[1] / "generator" / "commands"
SHARED = {"generator.commands.options", "generator.commands.siteconfig"}


def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "generator.commands":
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


@pytest.mark.parametrize("name", sorted(path.stem for path in COMMANDS_DIR.glob("*.py")))
def test_a_command_imports_no_other_command(name: str) -> None:
    imported = _imported_modules(COMMANDS_DIR / f"{name}.py")
    commands = {module for module in imported if module.startswith("generator.commands.")}
    assert commands <= SHARED - {f"generator.commands.{name}"}
    assert "generator.cli" not in imported


def test_every_command_module_is_registered() -> None:
    helpers = {module.rsplit(".", 1)[1] for module in SHARED} | {"__init__"}
    modules = {path.stem for path in COMMANDS_DIR.glob("*.py")} - helpers
    assert {name.replace("-", "_") for name in COMMANDS} == modules  # `check-site` is check_site.py
