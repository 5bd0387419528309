"""`dify-registry diff OLD NEW` and `dify-registry diff PATH --since REV`: what a new version breaks."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from typing import IO, TYPE_CHECKING, Any

from generator.commands.options import add_output_options, load_schema_set
from generator.inputs import InputError
from generator.report import REPORTERS, Summary, as_json_object, exit_code

if TYPE_CHECKING:
    from generator.diff.compare import Comparison
    from generator.load.crawl import LoadedPlugin


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `diff` subcommand."""
    parser = commands.add_parser(
        "diff", help="compare two versions of a plugin: interface changes and the version bump they need"
    )
    parser.add_argument("old", metavar="OLD", help="a plugin folder, a .difypkg or git:REV:PATH")
    parser.add_argument("new", metavar="NEW", nargs="?", help="the same kinds; with --since, omitted")
    parser.add_argument(
        "--since", metavar="REV", help="compare the folder OLD names with itself at this git revision"
    )
    add_output_options(parser)
    parser.set_defaults(handler=diff_command)


def sides(args: argparse.Namespace) -> tuple[str, str]:
    """The specs of the old and the new side."""
    if args.since is not None:
        if args.new is not None:
            raise InputError("give one PATH with --since, or OLD and NEW without it")
        return f"git:{args.since}:{args.old}", args.old
    if args.new is None:
        raise InputError("give OLD and NEW, or one PATH with --since REV")
    return args.old, args.new


def diff_command(args: argparse.Namespace) -> int:
    """Compare and report; exit 1 on errors (a wrong version bump) or, with --strict, on breaking
    changes."""
    from generator.diff.compare import compare
    from generator.diff.sources import open_side

    old_spec, new_spec = sides(args)
    with contextlib.ExitStack() as stack:
        old, old_findings = stack.enter_context(open_side(old_spec))
        new, new_findings = stack.enter_context(open_side(new_spec))
        comparison = compare(old, new, load_schema_set([]))
    findings = [*old_findings, *new_findings, *comparison.findings]
    tools = len(new.plugin.tools) if new.plugin else 0
    summary = Summary.of(findings, 1, tools, len(old.documents) + len(new.documents))
    if args.format == "json":
        document = {**as_json_object(findings, summary), "diff": diff_object(old, new, comparison)}
        json.dump(document, sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        REPORTERS[args.format](findings, summary, sys.stdout)
        if args.format != "sarif":
            _verdict_line(old, new, comparison, sys.stdout)
    return exit_code(findings, args.strict)


def diff_object(old: LoadedPlugin, new: LoadedPlugin, comparison: Comparison) -> dict[str, Any]:
    """The `diff` object of `--format json`: both versions, the counts by class and the verdict."""
    from generator.diff.changes import Change, class_of

    classes = [class_of(d) for d in comparison.changes]
    return {
        "old": {"path": old.display, "version": old.plugin.version if old.plugin else None},
        "new": {"path": new.display, "version": new.plugin.version if new.plugin else None},
        "changes": {kind.value: classes.count(kind) for kind in Change},
        "needed_bump": comparison.verdict.needed.name.lower(),
        "next_version": comparison.verdict.next or None,
    }


def _verdict_line(old: LoadedPlugin, new: LoadedPlugin, comparison: Comparison, out: IO[str]) -> None:
    verdict = comparison.verdict
    if old.plugin is None or new.plugin is None:
        return
    step = f"version {old.plugin.version} -> {new.plugin.version}"
    if not verdict.findings:
        out.write(f"{step}: no interface change\n")
    elif verdict.next:
        out.write(
            f"{step}: needs a {verdict.needed.name.lower()} bump; smallest correct version {verdict.next}\n"
        )
