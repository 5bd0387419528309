"""`dify-registry run PATH...`: run every tool's examples and show messages, outputs and findings."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from generator.commands.options import (
    PATH_HELP,
    add_output_options,
    add_run_options,
    load_schema_set,
    run_options,
)
from generator.inputs import InputError
from generator.report import exit_code, report

if TYPE_CHECKING:
    from generator.load.crawl import LoadedPlugin
    from generator.run import RunOptions


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `run` subcommand."""
    parser = commands.add_parser("run", help="run each tool on its examples and check what it returns")
    parser.add_argument("paths", nargs="+", metavar="PATH", help=PATH_HELP)
    parser.add_argument("--tool", help="only the tool with this name")
    parser.add_argument("--example", help="only the example with this name")
    parser.add_argument(
        "--record",
        action="store_true",
        help="run the examples with network access and write their recordings (see docs/recording.md)",
    )
    add_run_options(parser)
    add_output_options(parser, collections=True)
    parser.set_defaults(handler=run_command)


def run_command(args: argparse.Namespace) -> int:
    """Load, run, report."""
    from generator.pipeline import Pipeline

    options = run_options(args, tool=args.tool, example=args.example, record=args.record)
    paths = [Path(p) for p in args.paths]
    if args.record and not all(p.is_dir() for p in paths):
        raise InputError("--record writes recordings into plugin folders; name folders, not packages")
    # `run` reports loading findings and the runs' own, not the checks' (that is `validate --run`).
    pipeline = Pipeline(
        tuple(paths), load_schema_set(paths), checks=False, run=options, overlays=args.overlays
    )
    with pipeline.load() as inputs:
        if args.record:
            problem = recording_problem(inputs.plugins, options)
            if problem:
                raise InputError(problem)
            sys.stderr.write(
                "recording: the chosen examples run with network access, with the credentials their "
                "examples files name; secrets are replaced by markers in the recordings\n"
            )
        catalog = pipeline.catalog_of(inputs)
        report(catalog, args.format, sys.stdout, runs=args.format in ("text", "json"), show_all=args.show_all)
    return exit_code(catalog.findings, args.strict)


def recording_problem(plugins: Sequence[LoadedPlugin], options: RunOptions) -> str:
    """Why recording cannot start (environment variables the chosen examples need), or ""."""
    import os

    from generator.load.examples import load_examples
    from generator.run.replay import missing_variables

    chosen = [
        example
        for loaded in plugins
        for tool in (loaded.plugin.tools if loaded.plugin else ())
        if options.tool in (None, tool.name)
        for example in load_examples(loaded, tool)[0]
        if options.example in (None, example.name)
    ]
    if not chosen:
        return "no example to record: recording needs an examples file (and --tool/--example that match)"
    missing = missing_variables(chosen, os.environ)
    if missing:
        return f"set the environment variables {', '.join(missing)}: the examples read credentials from them"
    return ""
