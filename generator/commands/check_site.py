"""`dify-registry check-site SITE_DIR`: the checks a built site passes before it is published
(generator/sitecheck.py): schemas served at their `$id` with their source's bytes, no broken
internal link, no path of the machine that built it. It needs no registry: the site's index.json
names its URL and the digests of the schemas it serves."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from generator.commands.options import schemas_readable, schemas_root
from generator.errors import EXIT_FINDINGS, EXIT_OK
from generator.inputs import InputError
from generator.published import SITE_URL

if TYPE_CHECKING:
    from generator.sitecheck import ServedSchema


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `check-site` subcommand."""
    parser = commands.add_parser("check-site", help="check a built site before publishing it")
    parser.add_argument("site", type=Path, metavar="SITE_DIR", help="the built site")
    parser.add_argument(
        "--registry",
        type=Path,
        default=None,
        help="the registry it was built from, whose schema sources the served schemas must equal "
        "(default: the working folder when it holds schemas/, else the site's own index.json)",
    )
    parser.add_argument(
        "--site-url",
        default=None,
        help=f"the URL the site is served at (default: the one its index.json names, else {SITE_URL})",
    )
    parser.set_defaults(handler=check_site_command)


def machine_paths(site: Path, registry: Path) -> list[str]:
    """The paths of this machine a published file must not name: the site folder, the registry,
    the working folder, and anything inside the home folder."""
    paths = {str(site.resolve()), str(registry.resolve()), str(Path.cwd()), f"{Path.home()}/"}
    return sorted(path for path in paths if path.strip("/"))


def check_site_command(args: argparse.Namespace) -> int:
    """Check, print each problem, exit 1 when there is any."""
    from generator.sitecheck import check_site, site_facts

    if not args.site.is_dir():
        raise InputError(f"{args.site}: no such site folder")
    facts = site_facts(args.site)
    registry = args.registry if args.registry is not None else _building_folder()
    if registry is not None:
        schemas = _sources(registry)
    elif facts is not None:
        schemas = facts.schemas
    else:
        raise InputError(
            f"{args.site}: no index.json to read the site's schemas from; "
            "name the registry it was built from (--registry)"
        )
    site_url = args.site_url or (facts.site_url if facts is not None else SITE_URL)
    machine = machine_paths(args.site, registry or Path())
    problems = check_site(args.site, schemas, site_url, machine)
    for problem in problems:
        print(problem)
    print(f"{args.site}: {len(problems)} problems", file=sys.stderr)
    return EXIT_FINDINGS if problems else EXIT_OK


def _building_folder() -> Path | None:
    """The working folder when it is a registry with its schemas (the folder that built the site),
    else None."""
    return Path() if (Path() / "schemas").is_dir() else None


def _sources(registry: Path) -> tuple[ServedSchema, ...]:
    from generator.schemas import load_schemas
    from generator.sitecheck import from_sources

    with schemas_readable():
        return from_sources(load_schemas(schemas_root(registry)).hosted)
