"""What several commands share: their options, what those options become, and the schema set.

Commands import this module and never one another, so each command module reads alone.
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from generator.errors import BrokenRegistry
from generator.inputs import InputError
from generator.report import REPORTERS

if TYPE_CHECKING:
    from generator.run import RunOptions
    from generator.run.shard import Shard
    from generator.schemas import SchemaSet

# What validate, run and build accept, each of their paths.
PATH_HELP = "a plugin folder, a .difypkg, a registry, or a folder holding any of these at any depth"


def add_output_options(parser: argparse.ArgumentParser, *, collections: bool = False) -> None:
    """`--format` and `--strict`, shared by every command that reports findings; `--show-all` and
    `--overlays` for the commands that read collections of plugins."""
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


def add_run_options(parser: argparse.ArgumentParser) -> None:
    """Options of every command that runs examples: `run`, `validate --run` and `build`."""
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
        "--memory",
        type=memory_option,
        default=None,
        metavar="SIZE",
        help="address space per example run, in bytes or with K, M or G (default: 2G); a library that "
        "maps more (torch with CUDA) fails to import under it",
    )
    parser.add_argument(
        "--shard",
        type=shard_option,
        default=None,
        metavar="I/N",
        help="run only shard I of N: a deterministic split of the plugins balanced by expected cost",
    )


_UNITS = {"": 1, "K": 1024, "M": 1024**2, "G": 1024**3}


def memory_option(text: str) -> int:
    """`--memory 8G` (or 512M, 1048576K, a number of bytes) as bytes, or argparse's usage error."""
    number, unit = text.strip().upper().removesuffix("IB").removesuffix("B"), ""
    if number[-1:] in ("K", "M", "G"):
        number, unit = number[:-1], number[-1]
    try:
        size = int(float(number) * _UNITS[unit])
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (write it as 8G, 512M or bytes)") from None
    if size < 64 * 1024**2:
        raise argparse.ArgumentTypeError(f"{text!r} is too little for Python and the SDK (64M at least)")
    return size


def shard_option(text: str) -> Shard:
    """`--shard I/N` parsed, or argparse's usage error."""
    from generator.run.shard import parse_shard

    try:
        return parse_shard(text)
    except ValueError as wrong:
        raise argparse.ArgumentTypeError(str(wrong)) from None


def run_options(
    args: argparse.Namespace,
    *,
    site_url: str | None = None,
    tool: str | None = None,
    example: str | None = None,
    record: bool = False,
) -> RunOptions:
    """The run options `add_run_options` (and `--format`) gave, with what the command adds."""
    # Imported here: commands that run nothing do not pay for importing the runner.
    from generator.progress import progress_wanted
    from generator.run import Limits, RunOptions

    options = RunOptions(
        use_cache=not args.no_cache,
        progress=progress_wanted(args.format),
        tool=tool,
        example=example,
        record=record,
    )
    if site_url is not None:
        options = replace(options, site_url=site_url)
    if args.jobs:
        options = replace(options, jobs=max(1, args.jobs))
    if args.cache_dir:
        options = replace(options, cache_dir=args.cache_dir)
    if args.shard:
        options = replace(options, shard=args.shard)
    limits = Limits()
    if args.timeout:
        limits = replace(limits, timeout=args.timeout, cpu_seconds=int(args.timeout) + 1)
    if args.memory:
        limits = replace(limits, memory_bytes=args.memory)
    return replace(options, limits=limits)


def load_schema_set(paths: Sequence[Path], root: Path | None = None) -> SchemaSet:
    """The schemas that apply to `paths` (or the folder `root`)."""
    from generator.pipeline import resolve_schemas

    with schemas_readable():
        return resolve_schemas(paths, root)


@contextlib.contextmanager
def schemas_readable() -> Iterator[None]:
    """An unreadable schema folder inside the block is a broken registry (exit 3)."""
    from generator.schemas import SchemaLoadError

    try:
        yield
    except SchemaLoadError as broken:
        raise BrokenRegistry(str(broken)) from None


def schemas_root(path: Path) -> Path:
    """The `schemas/` folder of a registry, or `path` itself when it is one."""
    if (path / "schemas").is_dir():
        return path / "schemas"
    if path.is_dir() and (path.name == "schemas" or any(path.glob("v[0-9]*/"))):
        return path
    raise InputError(f"{path}: neither a registry with a schemas/ folder nor a schemas folder")
