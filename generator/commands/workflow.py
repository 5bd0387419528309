"""`dify-registry workflow APP.yml... [--catalog PATH]`: check Dify app DSL files against a catalog."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from generator.commands.options import add_output_options, load_schema_set
from generator.inputs import InputError
from generator.report import REPORTERS, Summary, exit_code


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `workflow` subcommand."""
    parser = commands.add_parser(
        "workflow", help="check Dify workflow DSL files against the tools of a registry or index.json"
    )
    parser.add_argument("files", nargs="+", metavar="APP.yml", help="an app DSL file exported from Dify")
    parser.add_argument(
        "--catalog",
        action="append",
        metavar="PATH",
        help="a registry, a plugin folder, a .difypkg, a folder of plugins, or an index.json "
        "(repeatable; default: the registry in the working folder)",
    )
    add_output_options(parser)
    parser.set_defaults(handler=workflow_command)


def workflow_command(args: argparse.Namespace) -> int:
    """Read the catalog once, check every file, report."""
    from generator.findings import sort_findings
    from generator.load.yamlload import MAX_FILE_BYTES, oversized
    from generator.workflow.catalog import load_catalog
    from generator.workflow.check import check
    from generator.workflow.dsl import Dsl, read_dsl

    files = [Path(f) for f in args.files]
    for file in files:
        if not file.is_file():
            raise InputError(f"{file}: no such file")
    catalog_paths = [Path(p) for p in (args.catalog or ["."])]
    catalog = load_catalog(catalog_paths, load_schema_set(catalog_paths))
    findings = list(catalog.findings)
    for file in files:
        size = file.stat().st_size
        shown = str(file)
        if size > MAX_FILE_BYTES:
            document = oversized(shown, size)
            dsl = Dsl(document, document.findings, ())
        else:
            dsl = read_dsl(file.read_bytes(), shown)
        findings.extend(check(dsl, catalog))
    ordered = sort_findings(findings)
    summary = Summary.of(ordered, len(catalog.plugins), catalog.tools, len(files))
    REPORTERS[args.format](ordered, summary, sys.stdout)
    return exit_code(ordered, args.strict)
