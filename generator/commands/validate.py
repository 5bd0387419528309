"""`dify-registry validate PATH...`."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from generator.cli import PATH_HELP, add_output_options
from generator.errors import BrokenRegistry
from generator.pipeline import Pipeline, resolve_schemas
from generator.report import exit_code, report

if TYPE_CHECKING:
    from generator.schemas import SchemaSet


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `validate` subcommand."""
    parser = commands.add_parser("validate", help="check plugin folders, registries or .difypkg files")
    parser.add_argument("paths", nargs="+", metavar="PATH", help=PATH_HELP)
    add_output_options(parser, collections=True)
    parser.add_argument(
        "--submission", action="store_true", help="also run the marketplace's submission checks"
    )
    parser.add_argument(
        "--run", action="store_true", help="also run each tool on its examples and check the results"
    )
    from generator.commands.run import add_run_options

    add_run_options(parser)
    parser.set_defaults(handler=validate_command)


def validate_command(args: argparse.Namespace) -> int:
    """Validate (and with `--run`, run the examples too), then report."""
    from generator.commands.run import options_from

    paths = [Path(p) for p in args.paths]
    run_options = options_from(args) if args.run else None
    pipeline = Pipeline(
        tuple(paths),
        load_schema_set(paths),
        submission=args.submission,
        run=run_options,
        overlays=args.overlays,
    )
    catalog = pipeline.catalog()
    report(catalog, args.format, sys.stdout, show_all=args.show_all)
    return exit_code(catalog.diagnostics, args.strict)


def load_schema_set(paths: Sequence[Path], root: Path | None = None) -> SchemaSet:
    """The schemas that apply to `paths` (or the folder `root`); an unreadable schema folder is a
    broken registry (exit 3)."""
    from generator.schemas import SchemaLoadError

    try:
        return resolve_schemas(paths, root)
    except SchemaLoadError as broken:
        raise BrokenRegistry(str(broken)) from None
