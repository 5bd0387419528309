"""`dify-registry validate PATH...`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from generator.check import CheckContext
from generator.cli import BrokenRegistry, add_output_options
from generator.report import REPORTERS, Summary, exit_code

if TYPE_CHECKING:
    from generator.schemas import SchemaSet


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `validate` subcommand."""
    parser = commands.add_parser("validate", help="check plugin folders, registries or .difypkg files")
    parser.add_argument("paths", nargs="+", metavar="PATH", help="a registry, a plugin folder or a .difypkg")
    add_output_options(parser)
    parser.add_argument(
        "--submission", action="store_true", help="also run the marketplace's submission checks"
    )
    parser.add_argument(
        "--run", action="store_true", help="also run each tool on its examples and check the results"
    )
    from generator.commands.run import add_run_options

    add_run_options(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Validate and report."""
    from generator.validate import validate_paths

    paths = [Path(p) for p in args.paths]
    context = CheckContext(submission=args.submission, schemas=load_schema_set(paths))
    if args.run:
        return _validate_and_run(args, context)
    result = validate_paths(paths, context)
    summary = Summary.of_plugins(result.diagnostics, result.plugins)
    REPORTERS[args.format](result.diagnostics, summary, sys.stdout)
    return exit_code(result.diagnostics, args.strict)


def load_schema_set(paths: list[Path]) -> SchemaSet:
    """The schemas that apply to `paths`; an unreadable schema folder is a broken registry (exit 3)."""
    from generator.schemas import SchemaLoadError
    from generator.validate import schemas_for

    try:
        return schemas_for(paths)
    except SchemaLoadError as broken:
        raise BrokenRegistry(str(broken)) from None


def _validate_and_run(args: argparse.Namespace, context: CheckContext) -> int:
    """`--run`: the runner's findings join the validator's (packages stay unpacked for both)."""
    from generator.catalog import catalog_of
    from generator.commands.run import options_from
    from generator.inputs import open_inputs

    with open_inputs([Path(p) for p in args.paths]) as inputs:
        catalog = catalog_of(inputs.plugins, inputs.diagnostics, context, context.schemas, options_from(args))
    summary = Summary.of_plugins(catalog.diagnostics, catalog.plugins)
    REPORTERS[args.format](catalog.diagnostics, summary, sys.stdout)
    return exit_code(catalog.diagnostics, args.strict)
