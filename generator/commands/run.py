"""`dify-registry run PATH...`: run every tool's examples and show messages, outputs and findings."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from generator.cli import PATH_HELP, add_output_options
from generator.report import exit_code, report


def add_run_options(parser: argparse.ArgumentParser) -> None:
    """Options shared by `run` and `validate --run`."""
    parser.add_argument("--jobs", type=int, default=None, metavar="N", help="parallel runs (default: cores)")
    parser.add_argument("--no-cache", action="store_true", help="run again even when nothing changed")
    parser.add_argument(
        "--cache-dir",
        type=Path,
        default=None,
        help="environments and results (default: .dify-registry-cache)",
    )
    parser.add_argument("--timeout", type=float, default=None, help="seconds per example run (default: 30)")
    parser.add_argument(
        "--shard",
        type=shard_option,
        default=None,
        metavar="I/N",
        help="run only shard I of N: a deterministic split of the plugins balanced by expected cost",
    )


def shard_option(text: str) -> Any:
    """`--shard I/N` parsed, or argparse's usage error."""
    from generator.run.shard import parse_shard

    try:
        return parse_shard(text)
    except ValueError as wrong:
        raise argparse.ArgumentTypeError(str(wrong)) from None


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


def options_from(args: argparse.Namespace, **extra: Any) -> Any:
    """RunOptions from the command line."""
    from dataclasses import replace

    from generator.progress import progress_wanted
    from generator.run import Limits, RunOptions

    options = RunOptions(use_cache=not args.no_cache, progress=progress_wanted(args.format), **extra)
    if args.jobs:
        options = replace(options, jobs=max(1, args.jobs))
    if args.cache_dir:
        options = replace(options, cache_dir=args.cache_dir)
    if args.shard:
        options = replace(options, shard=args.shard)
    if args.timeout:
        options = replace(
            options, limits=replace(Limits(), timeout=args.timeout, cpu_seconds=int(args.timeout) + 1)
        )
    return options


def run_command(args: argparse.Namespace) -> int:
    """Load, run, report."""
    from generator.commands.validate import load_schema_set
    from generator.pipeline import Pipeline

    options = options_from(args, tool=args.tool, example=args.example, record=args.record)
    paths = [Path(p) for p in args.paths]
    if args.record and not all(p.is_dir() for p in paths):
        sys.stderr.write(
            "error: --record writes recordings into plugin folders; name folders, not packages\n"
        )
        return 2
    # `run` reports loading findings and the runs' own, not the checks' (that is `validate --run`).
    pipeline = Pipeline(
        tuple(paths), load_schema_set(paths), checks=False, run=options, overlays=args.overlays
    )
    with pipeline.load() as inputs:
        if args.record:
            problem = recording_problem(inputs.plugins, options)
            if problem:
                sys.stderr.write(f"error: {problem}\n")
                return 2
            sys.stderr.write(
                "recording: the chosen examples run with network access, with the credentials their "
                "examples files name; secrets are replaced by markers in the recordings\n"
            )
        catalog = pipeline.catalog_of(inputs)
        report(catalog, args.format, sys.stdout, runs=args.format in ("text", "json"), show_all=args.show_all)
    return exit_code(catalog.diagnostics, args.strict)


def recording_problem(plugins: Any, options: Any) -> str:
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
