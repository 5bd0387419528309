"""`dify-registry validate PATH...`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from generator.check import CheckContext
from generator.cli import BrokenRegistry, add_output_options
from generator.report import REPORTERS, Summary, exit_code


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `validate` subcommand."""
    parser = commands.add_parser("validate", help="check plugin folders, registries or .difypkg files")
    parser.add_argument("paths", nargs="+", metavar="PATH", help="a registry, a plugin folder or a .difypkg")
    add_output_options(parser)
    parser.add_argument(
        "--submission", action="store_true", help="also run the marketplace's submission checks"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Validate and report."""
    from generator.schemas import SchemaLoadError
    from generator.validate import validate_paths

    context = CheckContext(submission=args.submission)
    try:
        result = validate_paths([Path(p) for p in args.paths], context)
    except SchemaLoadError as broken:
        raise BrokenRegistry(str(broken)) from None
    summary = Summary.of(result.diagnostics, len(result.plugins), result.tool_count)
    REPORTERS[args.format](result.diagnostics, summary, sys.stdout)
    return exit_code(result.diagnostics, args.strict)
