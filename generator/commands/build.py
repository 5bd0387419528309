"""`dify-registry build [PATH] [--site-dir DIR] [--strict]`: validate, run, then build the site."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from generator.cli import EXIT_OK, add_output_options
from generator.errors import BrokenRegistry
from generator.inputs import InputError
from generator.published import SITE_URL
from generator.report import exit_code, report

PREVIEW_ADDRESS = "127.0.0.1:8000"  # the preview's site_url: where `python -m http.server` serves it


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `build` subcommand."""
    from generator.commands.run import add_run_options

    parser = commands.add_parser("build", help="validate, run the examples and build the registry site")
    parser.add_argument(
        "path",
        nargs="?",
        default=".",
        metavar="PATH",
        help="the registry (holds mkdocs.yml), or one plugin folder or .difypkg to build its preview",
    )
    parser.add_argument(
        "--site-dir", type=Path, default=None, help="where to write the site (default: site/)"
    )
    parser.add_argument("--no-run", action="store_true", help="build without running the tools' examples")
    add_output_options(parser)
    add_run_options(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Report findings, then build; with --strict, findings stop the build."""
    from generator.commands.serve import preview_config

    with tempfile.TemporaryDirectory(prefix="dify-registry-preview-") as preview:
        config_file = Path(args.path) / "mkdocs.yml"
        site_dir = args.site_dir
        if _is_plugin(Path(args.path)):
            # One plugin: the preview site `serve` shows, written where the user says (site/ by default).
            config_file = preview_config(Path(args.path).resolve(), Path(preview), PREVIEW_ADDRESS, False)
            site_dir = site_dir or Path("site")
        if not config_file.is_file():
            raise InputError(f"{config_file}: no mkdocs.yml; `build` needs a registry or a plugin folder")
        return _build(args, config_file, site_dir)


def _is_plugin(path: Path) -> bool:
    return (path / "manifest.yaml").is_file() or (path.is_file() and path.suffix == ".difypkg")


def _build(args: argparse.Namespace, config_file: Path, site_dir: Path | None) -> int:
    """Validate, run and build with the configuration in `config_file`."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    from generator.commands.run import options_from
    from generator.pipeline import Pipeline, resolve_schemas
    from generator.schemas import SchemaLoadError
    from generator.site.multilang import registry_plugin

    overrides = {"site_dir": str(site_dir.resolve())} if site_dir else {}
    try:
        config = load_config(str(config_file), **overrides)
        plugin = registry_plugin(config)
        registries, schemas_root = plugin.paths(config)
        schemas = resolve_schemas(root=schemas_root)
    except (MkDocsException, SchemaLoadError, TypeError) as broken:
        raise BrokenRegistry(str(broken)) from None
    run_options = None if args.no_run else options_from(args, site_url=config.site_url or SITE_URL)
    catalog = Pipeline(tuple(registries), schemas, run=run_options, site=True).catalog()
    report(catalog, args.format, sys.stdout)
    code = exit_code(catalog.diagnostics, args.strict)
    if args.strict and code != EXIT_OK:
        print("dify-registry: not building the site (--strict and findings above)", file=sys.stderr)
        return code
    plugin.preset = catalog
    try:
        build(config)
    except MkDocsException as broken:
        raise BrokenRegistry(str(broken)) from None
    print(f"site built in {config.site_dir}", file=sys.stderr)
    return EXIT_OK
