"""`dify-registry init FOLDER COLLECTION...`: write a ready publishing set-up for collections of
plugins the maintainer names (generator/publishing.py): the GitHub workflow, its configuration and
a README section. Files it wrote before are rewritten; the README keeps everything outside its
section."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from generator.errors import EXIT_OK
from generator.inputs import InputError
from generator.installed_from import installed_requirement
from generator.publishing import (
    DEFAULT_PACKAGE,
    WORKFLOW_PATH,
    Collection,
    Settings,
    parse_collection,
    readme_section,
    with_section,
    workflow,
)


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `init` subcommand."""
    parser = commands.add_parser(
        "init", help="write a GitHub workflow that publishes a catalog of plugin collections to Pages"
    )
    parser.add_argument("folder", type=Path, metavar="FOLDER", help="the repository to publish from")
    parser.add_argument(
        "collections",
        nargs="+",
        metavar="COLLECTION",
        help="a folder of FOLDER holding plugins, or git+URL[@REF][#subdirectory=DIR] (fetched by the "
        "workflow; REF a branch, tag or commit)",
    )
    parser.add_argument("--site-url", required=True, metavar="URL", help="where the site is served")
    parser.add_argument("--title", default="Dify plugin catalog", help="the site's title")
    parser.add_argument(
        "--shards", type=int, default=3, metavar="N", help="jobs that run the tools (default: 3)"
    )
    parser.add_argument(
        "--overlays",
        default="overlays",
        metavar="DIR",
        help="your examples for others' plugins (default: overlays)",
    )
    parser.add_argument(
        "--package",
        help="what the workflow installs, a pip requirement (default: the git repository and commit this"
        f" generator was installed from, else {DEFAULT_PACKAGE})",
    )
    parser.set_defaults(handler=init_command)


def init_command(args: argparse.Namespace) -> int:
    """Write the workflow and the README section; name what was written."""
    settings = _settings(args)
    folder: Path = args.folder
    for collection in settings.collections:
        if not collection.url and not (folder / collection.path).is_dir():
            raise InputError(f"{folder / collection.path}: no such folder of the repository")
    target = folder / WORKFLOW_PATH
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(workflow(settings), encoding="utf-8")
    readme = folder / "README.md"
    before = readme.read_text(encoding="utf-8") if readme.is_file() else ""
    readme.write_text(with_section(before, readme_section(settings)), encoding="utf-8")
    (folder / settings.overlays).mkdir(parents=True, exist_ok=True)
    print(f"wrote {target} and the publishing section of {readme}", file=sys.stderr)
    if args.package is None and installed_requirement() is None:
        print(
            f"note: the workflow installs `{settings.package}` from the package index; if your runners"
            " cannot install that, run init again with --package and a pip requirement they can reach"
            " (such as `dify-registry @ git+https://host/owner/repo@TAG`)",
            file=sys.stderr,
        )
    return EXIT_OK


def _settings(args: argparse.Namespace) -> Settings:
    if args.shards < 1:
        raise InputError("--shards must be at least 1")
    if not args.site_url.startswith(("https://", "http://")):
        raise InputError(f"--site-url {args.site_url}: an http(s) URL")
    try:
        collections: tuple[Collection, ...] = tuple(map(parse_collection, args.collections))
    except ValueError as wrong:
        raise InputError(str(wrong)) from None
    site_url = args.site_url if args.site_url.endswith("/") else args.site_url + "/"
    package = args.package or installed_requirement() or DEFAULT_PACKAGE
    return Settings(collections, args.title, site_url, args.shards, args.overlays, package)
