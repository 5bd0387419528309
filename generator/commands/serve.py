"""`dify-registry serve PATH`: preview one plugin's pages (a folder or a .difypkg), rebuilt on every
change."""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from generator.commands.siteconfig import preview_settings, write_site_config
from generator.errors import EXIT_OK
from generator.inputs import InputError
from generator.usercache import user_cache


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `serve` subcommand."""
    parser = commands.add_parser("serve", help="preview a plugin folder's pages while you edit it")
    parser.add_argument(
        "path", metavar="PATH", help="a plugin folder (holds manifest.yaml) or a .difypkg package"
    )
    parser.add_argument("--dev-addr", default="127.0.0.1:8000", metavar="HOST:PORT", help="where to serve")
    parser.add_argument("--run", action="store_true", help="also run the tools' examples on every rebuild")
    parser.set_defaults(handler=serve_command)


def preview_config(plugin: Path, folder: Path, dev_addr: str, run_examples: bool) -> Path:
    """Write the configuration previewing `plugin` into `folder`; return the mkdocs.yml's path."""
    # Runs are cached outside the watched plugin folder: cache writes must not trigger rebuilds.
    settings = preview_settings(plugin, f"http://{dev_addr}/", run_examples, user_cache() / "serve")
    return write_site_config(folder, [plugin], settings)


def serve_command(args: argparse.Namespace) -> int:
    """Serve until interrupted."""
    from mkdocs.commands.serve import serve

    plugin = Path(args.path).resolve()
    is_package = plugin.is_file() and plugin.suffix == ".difypkg"
    if not is_package and not (plugin / "manifest.yaml").is_file():
        raise InputError(
            f"{args.path}: neither a plugin folder (with manifest.yaml) nor a .difypkg; "
            "`serve` previews one plugin"
        )
    with tempfile.TemporaryDirectory(prefix="dify-registry-serve-") as folder:
        config_file = preview_config(plugin, Path(folder), args.dev_addr, args.run)
        serve(config_file=str(config_file), dev_addr=args.dev_addr, open_in_browser=False)
    return EXIT_OK
