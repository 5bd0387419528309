"""The `dify-registry` command: parses options, then calls the pipeline. Nothing else lives here.

Exit codes (a documented contract): 0 clean or warnings only; 1 errors, or warnings with
`--strict`; 2 usage errors; 3 a broken registry or configuration.
Each subcommand lives in `generator.commands.<name>` with a `register(commands)` function.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from generator import __version__
from generator.errors import BrokenRegistry
from generator.inputs import InputError
from generator.report import REPORTERS

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2
EXIT_BROKEN = 3

COMMAND_MODULES: tuple[str, ...] = (
    "validate",
    "schemas",
    "run",
    "build",
    "serve",
    "diff",
    "cache",
    "check_site",
    "workflow",
)

# What validate, run and build accept, each of their paths.
PATH_HELP = "a plugin folder, a .difypkg, a registry, or a folder holding any of these at any depth"

Command = Callable[[argparse.Namespace], int]


def add_output_options(parser: argparse.ArgumentParser, *, collections: bool = False) -> None:
    """`--format` and `--strict`, shared by every command that reports findings; `--show-all` for the
    commands that read collections of plugins."""
    parser.add_argument(
        "--format", choices=sorted(REPORTERS), default="text", help="output format (default: text)"
    )
    parser.add_argument("--strict", action="store_true", help="fail (exit 1) on warnings too")
    if collections:
        parser.add_argument(
            "--show-all",
            action="store_true",
            help="text output: every finding (by default, a few of each rule per plugin of a collection)",
        )
        parser.add_argument(
            "--overlays",
            type=Path,
            default=None,
            metavar="DIR",
            help="the registry's examples for plugins it does not own, as overlays/<author>/<plugin>/ "
            "(default: overlays/ of the registry or of the working folder)",
        )


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = argparse.ArgumentParser(
        prog="dify-registry",
        description="Validate Dify tool plugins, run their tools, and build the registry site.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(f"generator.commands.{name}").register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the exit code."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # argparse exits 2 on usage errors, 0 on --help
        return int(stop.code or 0)
    handler: Command = args.handler
    try:
        return handler(args)
    except InputError as problem:
        print(f"dify-registry: error: {problem}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenRegistry as problem:
        print(f"dify-registry: broken registry: {problem}", file=sys.stderr)
        return EXIT_BROKEN
