"""`dify-registry schemas lint|check|lock`: the hosted schemas' lint, lock and consistency."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path

from generator.commands.options import add_output_options, schemas_readable, schemas_root
from generator.errors import EXIT_FINDINGS, EXIT_OK
from generator.findings import Finding, sort_findings
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


def _lint(paths: list[Path]) -> tuple[list[Finding], int]:
    from generator.schemas import load_schemas

    findings: list[Finding] = []
    files = 0
    with schemas_readable():
        for root, only in _lint_targets(paths):
            schemas = load_schemas(root)
            for schema in schemas.hosted:
                if only is None or schema.path == only:
                    findings.extend(schema.lint)
                    files += 1
    return findings, files


def _report(findings: list[Finding], files: int, args: argparse.Namespace) -> int:
    ordered = sort_findings(findings)
    REPORTERS[args.format](ordered, Summary.of(ordered, 0, 0, files), sys.stdout)
    return exit_code(ordered, args.strict)


def schemas_lint_command(args: argparse.Namespace) -> int:
    """Lint schema files."""
    findings, files = _lint([Path(p) for p in args.paths])
    return _report(findings, files, args)


def schemas_check_command(args: argparse.Namespace) -> int:
    """Lint plus the lock: changed or deleted published files fail."""
    from generator.schemas import check_lock

    root = schemas_root(Path(args.registry))
    findings, files = _lint([root])
    with schemas_readable():
        findings.extend(check_lock(root))
    return _report(findings, files, args)


def schemas_lock_command(args: argparse.Namespace) -> int:
    """Record unlocked files; report locked files that changed (never rewritten)."""
    from generator.schemas import check_lock, record_lock

    root = schemas_root(Path(args.registry))
    with schemas_readable():
        added = record_lock(root)
        problems = [d for d in check_lock(root) if d.severity.rank >= 2]
    for relative in added:
        print(f"locked schemas/{relative}")
    if not added:
        print("nothing to lock")
    for problem in problems:
        print(f"{problem.file}: {problem.message}", file=sys.stderr)
    return EXIT_FINDINGS if problems else EXIT_OK
