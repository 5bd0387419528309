"""`dify-registry schemas lint|check|lock`: the hosted schemas' lint, lock and consistency."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path

from generator.cli import EXIT_OK, add_output_options
from generator.diagnostics import Diagnostic, sort_diagnostics
from generator.errors import BrokenRegistry
from generator.inputs import InputError
from generator.report import REPORTERS, Summary, exit_code


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `schemas` subcommand and its three actions."""
    parser = commands.add_parser("schemas", help="lint, check and lock the registry's published schemas")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    lint = actions.add_parser("lint", help="lint schema files (default: the registry's schemas/ folder)")
    lint.add_argument(
        "paths", nargs="*", metavar="PATH", help="a registry, a schemas/ folder or a schema file"
    )
    add_output_options(lint)
    lint.set_defaults(handler=schemas_lint_command)
    check = actions.add_parser("check", help="lint, lock and $id consistency of every published schema")
    check.add_argument(
        "registry", nargs="?", default=".", metavar="PATH", help="a registry or schemas/ folder"
    )
    add_output_options(check)
    check.set_defaults(handler=schemas_check_command)
    lock = actions.add_parser("lock", help="record the SHA-256 of schema files not locked yet")
    lock.add_argument(
        "registry", nargs="?", default=".", metavar="PATH", help="a registry or schemas/ folder"
    )
    lock.set_defaults(handler=schemas_lock_command)


def schemas_root(path: Path) -> Path:
    """The `schemas/` folder of a registry, or `path` itself when it is one."""
    if (path / "schemas").is_dir():
        return path / "schemas"
    if path.is_dir() and (path.name == "schemas" or any(path.glob("v[0-9]*/"))):
        return path
    raise InputError(f"{path}: neither a registry with a schemas/ folder nor a schemas folder")


def _root_of_file(path: Path) -> Path:
    for parent in path.resolve().parents:
        if parent.name[:1] == "v" and parent.name[1:].isdigit():
            return parent.parent
    raise InputError(f"{path}: a schema file lives under schemas/vN/")


def _lint_targets(paths: list[Path]) -> Iterator[tuple[Path, str | None]]:
    for path in paths or [Path()]:
        if not path.exists():
            raise InputError(f"{path}: no such file or folder")
        if path.is_file():
            root = _root_of_file(path)
            yield root, "schemas/" + path.resolve().relative_to(root.resolve()).as_posix()
        else:
            yield schemas_root(path), None


def _lint(paths: list[Path]) -> tuple[list[Diagnostic], int]:
    from generator.schemas import SchemaLoadError, load_schemas

    findings: list[Diagnostic] = []
    files = 0
    try:
        for root, only in _lint_targets(paths):
            schemas = load_schemas(root)
            for schema in schemas.hosted:
                if only is None or schema.path == only:
                    findings.extend(schema.lint)
                    files += 1
    except SchemaLoadError as broken:
        raise BrokenRegistry(str(broken)) from None
    return findings, files


def _report(findings: list[Diagnostic], files: int, args: argparse.Namespace) -> int:
    ordered = sort_diagnostics(findings)
    REPORTERS[args.format](ordered, Summary.of(ordered, 0, 0, files), sys.stdout)
    return exit_code(ordered, args.strict)


def schemas_lint_command(args: argparse.Namespace) -> int:
    """Lint schema files."""
    findings, files = _lint([Path(p) for p in args.paths])
    return _report(findings, files, args)


def schemas_check_command(args: argparse.Namespace) -> int:
    """Lint plus the lock: changed or deleted published files fail."""
    from generator.schemas import SchemaLoadError, check_lock

    root = schemas_root(Path(args.registry))
    findings, files = _lint([root])
    try:
        findings.extend(check_lock(root))
    except SchemaLoadError as broken:
        raise BrokenRegistry(str(broken)) from None
    return _report(findings, files, args)


def schemas_lock_command(args: argparse.Namespace) -> int:
    """Record unlocked files; report locked files that changed (never rewritten)."""
    from generator.schemas import SchemaLoadError, check_lock, record_lock

    root = schemas_root(Path(args.registry))
    try:
        added = record_lock(root)
        problems = [d for d in check_lock(root) if d.severity.rank >= 2]
    except SchemaLoadError as broken:
        raise BrokenRegistry(str(broken)) from None
    for relative in added:
        print(f"locked schemas/{relative}")
    if not added:
        print("nothing to lock")
    for problem in problems:
        print(f"{problem.file}: {problem.message}", file=sys.stderr)
    return 1 if problems else EXIT_OK
