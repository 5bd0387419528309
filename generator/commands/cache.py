"""`dify-registry cache info|merge|prune`: the run cache's contents, merging the caches of shards
run on other machines, and bounding its size."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from generator.errors import EXIT_OK
from generator.inputs import InputError


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `cache` subcommand and its three actions."""
    parser = commands.add_parser("cache", help="show, merge and prune the run cache")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    info = actions.add_parser("info", help="environments, runs and recorders in the cache, and their sizes")
    _cache_dir(info)
    info.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    info.set_defaults(handler=cache_info_command)
    merge = actions.add_parser("merge", help="copy the runs of other caches (shards) into one")
    merge.add_argument("sources", nargs="+", type=Path, metavar="DIR", help="a cache folder to read")
    merge.add_argument("--into", type=Path, required=True, metavar="DIR", help="the cache folder to fill")
    merge.set_defaults(handler=cache_merge_command)
    prune = actions.add_parser("prune", help="remove the least recently used entries past a size")
    _cache_dir(prune)
    prune.add_argument("--max-size", type=_size, required=True, metavar="SIZE", help="for example 500M or 2G")
    prune.set_defaults(handler=cache_prune_command)


def _cache_dir(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--cache-dir", type=Path, default=None, help="the cache folder (default: .dify-registry-cache)"
    )


def _folder(args: argparse.Namespace) -> Path:
    from generator.run.runtypes import DEFAULT_CACHE

    folder: Path = args.cache_dir or DEFAULT_CACHE
    return folder


def _size(text: str) -> int:
    from generator.run.cachedir import parse_size

    try:
        return parse_size(text)
    except ValueError as wrong:
        raise argparse.ArgumentTypeError(str(wrong)) from None


def cache_info_command(args: argparse.Namespace) -> int:
    """Counts and sizes by kind, and the total."""
    from generator.run.cachedir import KINDS, UNLINKED, entries, human

    folder = _folder(args)
    found = entries(folder)
    kinds = {kind: [e for e in found if e.kind == kind] for kind in (*KINDS.values(), UNLINKED)}
    total = sum(e.size for e in found)
    if args.format == "json":
        summary = {kind: {"count": len(e), "bytes": sum(x.size for x in e)} for kind, e in kinds.items()}
        json.dump({"cache": str(folder), **summary, "bytes": total}, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return EXIT_OK
    print(f"{folder}: {human(total)}")
    for kind, listed in kinds.items():
        print(f"  {kind}: {len(listed)}, {human(sum(e.size for e in listed))}")
    return EXIT_OK


def cache_merge_command(args: argparse.Namespace) -> int:
    """Copy the runs the target lacks."""
    from generator.run.cachedir import merge

    missing = [source for source in args.sources if not source.is_dir()]
    if missing:
        raise InputError(f"{missing[0]}: no such cache folder")
    merged = merge(args.sources, args.into)
    print(f"{args.into}: {merged.copied} runs copied, {merged.present} already there", file=sys.stderr)
    return EXIT_OK


def cache_prune_command(args: argparse.Namespace) -> int:
    """Least recently used first, until the cache fits."""
    from generator.run.cachedir import entries, human, prune

    folder = _folder(args)
    removed = prune(folder, args.max_size)
    left = sum(e.size for e in entries(folder))
    freed = sum(e.size for e in removed)
    print(
        f"{folder}: removed {len(removed)} entries ({human(freed)}), {human(left)} left",
        file=sys.stderr,
    )
    return EXIT_OK
