"""The `dify-registry` command: parses options, then calls the pipeline. Nothing else lives here.

Exit codes (a documented contract): 0 clean or warnings only; 1 errors, or warnings with
`--strict`; 2 usage errors; 3 a broken registry or configuration; 141 when stdout's reader stopped
reading (`| head`), as a shell reports a process ended by SIGPIPE.
Each subcommand lives in `generator.commands.<name>` with a `register(commands)` function, named
once in `COMMANDS`.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Protocol, TypeAlias

from generator import __version__
from generator.commands import build, cache, check_site, diff, init, run, schemas, serve, validate, workflow
from generator.errors import EXIT_BROKEN, EXIT_BROKEN_PIPE, EXIT_USAGE, BrokenRegistry
from generator.inputs import InputError

Command = Callable[[argparse.Namespace], int]
Subcommands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


class CommandModule(Protocol):
    """A subcommand's module: it adds its parser, whose `handler` default is a `Command`."""

    def register(self, commands: Subcommands) -> None: ...


# Typed, so that mypy checks every command module against the protocol; in the order of `--help`.
COMMANDS: Mapping[str, CommandModule] = MappingProxyType(
    {
        "validate": validate,
        "schemas": schemas,
        "run": run,
        "build": build,
        "serve": serve,
        "diff": diff,
        "cache": cache,
        "check-site": check_site,
        "workflow": workflow,
        "init": init,
    }
)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = argparse.ArgumentParser(
        prog="dify-registry",
        description="Validate Dify tool plugins, run their tools, and build the registry site.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in COMMANDS.values():
        module.register(commands)
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
        code = handler(args)
        sys.stdout.flush()  # here, not at exit, so that a reader gone away is told below
        return code
    except InputError as problem:
        print(f"dify-registry: error: {problem}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenRegistry as problem:
        print(f"dify-registry: broken registry: {problem}", file=sys.stderr)
        return EXIT_BROKEN
    except BrokenPipeError:
        # The reader stopped reading (`| head`): no traceback, and nothing more written at exit
        # (Python flushes stdout once more then, which would fail again).
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
