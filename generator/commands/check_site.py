"""`dify-registry check-site SITE_DIR`: the checks a built site passes before it is published
(generator/sitecheck.py): schemas served at their `$id` with their source's bytes, no broken
internal link, no path of the machine that built it."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from generator.commands.options import schemas_readable, schemas_root
from generator.errors import EXIT_FINDINGS, EXIT_OK
from generator.inputs import InputError
from generator.published import SITE_URL


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `check-site` subcommand."""
    parser = commands.add_parser("check-site", help="check a built site before publishing it")
    parser.add_argument("site", type=Path, metavar="SITE_DIR", help="the built site")
    parser.add_argument(
        "--registry", type=Path, default=Path(), help="the registry it was built from (default: .)"
    )
    parser.add_argument(
        "--site-url", default=SITE_URL, help=f"the URL the site is served at (default: {SITE_URL})"
    )
    parser.set_defaults(handler=check_site_command)


def machine_paths(site: Path, registry: Path) -> list[str]:
    """The paths of this machine a published file must not name: the site folder, the registry,
    the working folder, and anything inside the home folder."""
    paths = {str(site.resolve()), str(registry.resolve()), str(Path.cwd()), f"{Path.home()}/"}
    return sorted(path for path in paths if path.strip("/"))


def check_site_command(args: argparse.Namespace) -> int:
    """Check, print each problem, exit 1 when there is any."""
    from generator.schemas import load_schemas
    from generator.sitecheck import check_site

    if not args.site.is_dir():
        raise InputError(f"{args.site}: no such site folder")
    with schemas_readable():
        schemas = load_schemas(schemas_root(args.registry))
    problems = check_site(args.site, schemas.hosted, args.site_url, machine_paths(args.site, args.registry))
    for problem in problems:
        print(problem)
    print(f"{args.site}: {len(problems)} problems", file=sys.stderr)
    return EXIT_FINDINGS if problems else EXIT_OK
