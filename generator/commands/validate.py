"""`dify-registry validate PATH...`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from generator.commands.options import (
    PATH_HELP,
    add_output_options,
    add_run_options,
    load_schema_set,
    run_options,
)
from generator.pipeline import Pipeline
from generator.progress import progress_wanted
from generator.report import exit_code, report


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
    add_run_options(parser)
    parser.set_defaults(handler=validate_command)


def validate_command(args: argparse.Namespace) -> int:
    """Validate (and with `--run`, run the examples too), then report."""
    paths = [Path(p) for p in args.paths]
    options = run_options(args) if args.run else None
    pipeline = Pipeline(
        tuple(paths),
        load_schema_set(paths),
        submission=args.submission,
        run=options,
        overlays=args.overlays,
        progress=progress_wanted(args.format),
    )
    catalog = pipeline.catalog()
    report(catalog, args.format, sys.stdout, show_all=args.show_all)
    return exit_code(catalog.findings, args.strict)
