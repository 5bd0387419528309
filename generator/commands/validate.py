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
    parser.add_argument(
        "--run", action="store_true", help="also run each tool on its examples and check the results"
    )
    from generator.commands.run import add_run_options

    add_run_options(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Validate and report."""
    from generator.schemas import SchemaLoadError
    from generator.validate import validate_paths

    context = CheckContext(submission=args.submission)
    try:
        if args.run:
            return _validate_and_run(args, context)
        result = validate_paths([Path(p) for p in args.paths], context)
    except SchemaLoadError as broken:
        raise BrokenRegistry(str(broken)) from None
    summary = Summary.of(result.diagnostics, len(result.plugins), result.tool_count)
    REPORTERS[args.format](result.diagnostics, summary, sys.stdout)
    return exit_code(result.diagnostics, args.strict)


def _validate_and_run(args: argparse.Namespace, context: CheckContext) -> int:
    """`--run`: the runner's findings join the validator's (packages stay unpacked for both)."""
    from generator.commands.run import options_from
    from generator.diagnostics import sort_diagnostics
    from generator.inputs import open_inputs
    from generator.run import all_findings, run_plugins
    from generator.validate import validate_loaded

    with open_inputs([Path(p) for p in args.paths]) as inputs:
        result = validate_loaded(inputs.plugins, inputs.diagnostics, context)
        report = run_plugins(inputs.plugins, options_from(args), context.schemas)
    findings = sort_diagnostics([*result.diagnostics, *all_findings(report)])
    summary = Summary.of(findings, len(result.plugins), result.tool_count)
    REPORTERS[args.format](findings, summary, sys.stdout)
    return exit_code(findings, args.strict)
