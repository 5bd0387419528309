"""`dify-registry run PATH...`: run every tool's examples and show messages, outputs and findings."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import IO, Any

from generator.cli import add_output_options
from generator.report import REPORTERS, Summary, as_json_object, exit_code


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


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `run` subcommand."""
    parser = commands.add_parser("run", help="run each tool on its examples and check what it returns")
    parser.add_argument("paths", nargs="+", metavar="PATH", help="a registry, a plugin folder or a .difypkg")
    parser.add_argument("--tool", help="only the tool with this name")
    parser.add_argument("--example", help="only the example with this name")
    parser.add_argument(
        "--record",
        action="store_true",
        help="run the examples with network access and write their recordings (see docs/recording.md)",
    )
    add_run_options(parser)
    add_output_options(parser)
    parser.set_defaults(handler=run)


def options_from(args: argparse.Namespace, **extra: Any) -> Any:
    """RunOptions from the command line."""
    from dataclasses import replace

    from generator.run import Limits, RunOptions
    from generator.run.pool import terminal_progress

    options = RunOptions(use_cache=not args.no_cache, progress=terminal_progress() is not None, **extra)
    if args.jobs:
        options = replace(options, jobs=max(1, args.jobs))
    if args.cache_dir:
        options = replace(options, cache_dir=args.cache_dir)
    if args.timeout:
        options = replace(
            options, limits=replace(Limits(), timeout=args.timeout, cpu_seconds=int(args.timeout) + 1)
        )
    return options


def _short(value: Any, limit: int = 300) -> str:
    text = json.dumps(value, ensure_ascii=False, default=repr)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def write_runs(runs: Any, out: IO[str]) -> None:
    """Each run: a header, its messages, its assembled outputs."""
    for run in runs:
        state = "passed" if run.passed else "FAILED"
        extra = " (smoke run)" if run.smoke else ""
        extra += ", cached" if run.cached else ""
        out.write(
            f"== {run.tool} {run.example}{extra}: {state} in {run.duration:.2f} s, Python {run.python}\n"
        )
        for message in run.messages:
            out.write(f"  {message.type:<10} {_short(message.payload)}\n")
        if run.outputs:
            out.write(f"  outputs    {_short(dict(run.outputs), 2000)}\n")
        for file in run.files:
            out.write(
                f"  file       {file.site_path} ({file.mime_type or 'no MIME type'}, {file.size} bytes)\n"
            )
        if run.stdout.strip():
            out.write(f"  stdout     {_short(run.stdout)}\n")
        if run.replay is not None:
            said = (
                "recorded"
                if run.replay.recorded
                else f"replayed from a recording of {run.replay.recorded_at}"
            )
            out.write(f"  http       {said}: {len(run.replay.requests)} requests\n")
            for request in run.replay.requests[:20]:
                out.write(f"             {request}\n")


def run_as_json(run: Any) -> dict[str, Any]:
    """One run in the `--format json` document."""
    return {
        "tool": str(run.tool),
        "example": run.example,
        "smoke": run.smoke,
        "passed": run.passed,
        "cached": run.cached,
        "duration": run.duration,
        "python": run.python,
        "inputs": dict(run.inputs),
        "messages": [{"type": m.type, "payload": m.payload, "meta": m.meta} for m in run.messages],
        "outputs": dict(run.outputs),
        "replay": (
            {
                "recorded_at": run.replay.recorded_at,
                "requests": list(run.replay.requests),
                "recorded": run.replay.recorded,
            }
            if run.replay
            else None
        ),
        "files": [
            {
                "filename": f.filename,
                "mime_type": f.mime_type,
                "size": f.size,
                "sha256": f.sha256,
                "site_path": f.site_path,
            }
            for f in run.files
        ],
    }


def run(args: argparse.Namespace) -> int:
    """Load, run, report."""
    from generator.commands.validate import load_schema_set
    from generator.diagnostics import sort_diagnostics
    from generator.inputs import open_inputs
    from generator.run import all_findings, run_plugins

    options = options_from(args, tool=args.tool, example=args.example, record=args.record)
    paths = [Path(p) for p in args.paths]
    if args.record and not all(p.is_dir() for p in paths):
        sys.stderr.write(
            "error: --record writes recordings into plugin folders; name folders, not packages\n"
        )
        return 2
    schemas = load_schema_set(paths)
    with open_inputs(paths) as inputs:
        if args.record:
            problem = recording_problem(inputs.plugins, options)
            if problem:
                sys.stderr.write(f"error: {problem}\n")
                return 2
            sys.stderr.write(
                "recording: the chosen examples run with network access, with the credentials their "
                "examples files name; secrets are replaced by markers in the recordings\n"
            )
        report = run_plugins(inputs.plugins, options, schemas)
        findings = sort_diagnostics(
            [*inputs.diagnostics, *(d for p in inputs.plugins for d in p.diagnostics), *all_findings(report)]
        )
        summary = Summary.of_plugins(findings, inputs.plugins)
        if args.format == "json":
            document = {**as_json_object(findings, summary), "runs": [run_as_json(r) for r in report.runs]}
            json.dump(document, sys.stdout, indent=2, ensure_ascii=False, default=repr)
            sys.stdout.write("\n")
        else:
            if args.format == "text":
                write_runs(report.runs, sys.stdout)
            REPORTERS[args.format](findings, summary, sys.stdout)
    return exit_code(findings, args.strict)


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
