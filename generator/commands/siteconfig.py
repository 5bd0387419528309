"""The registry's built-in site configuration: an `mkdocs.yml` written into a temporary folder for
what has none of its own (a plugin folder, a package, a collection of plugins).

The folder is private to one command and never published: the site shows the catalog the command
built from the paths as the user named them, not the absolute paths written here.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from generator.inputs import display_root

PREVIEW_ADDRESS = "127.0.0.1:8000"  # the default site_url: where `python -m http.server` serves it
DEFAULT_TITLE = "Dify plugin catalog"

PREVIEW_HOME = """# Preview

This is a local preview of the plugin's pages as the registry will show them. Edit the manifest,
a tool YAML, an examples file or a schema, or replace the package: the pages rebuild by themselves.
"""

CATALOG_HOME = """# {title}

The tool plugins of {roots}: each plugin's tools with their parameters, output variables and
example runs, and what the registry's validator found in them. Search (top right) finds plugins and
tools by their label in any of the site's four languages.
"""


@dataclass(frozen=True)
class SiteSettings:
    """What a built-in configuration says: the site's title and address, and how plugins are read."""

    title: str
    site_url: str
    home: str
    run: bool = False
    cache: Path | None = None


def preview_settings(plugin: Path, site_url: str, run: bool, cache: Path | None) -> SiteSettings:
    """One plugin's preview (`serve`, and `build` of one plugin without `--title`)."""
    return SiteSettings(f"Preview: {plugin.name}", site_url, PREVIEW_HOME, run, cache)


def catalog_settings(paths: Sequence[Path], title: str | None, site_url: str) -> SiteSettings:
    """A catalog of collections, registries and plugins."""
    title = title or DEFAULT_TITLE
    roots = ", ".join(f"`{display_root(path)}`" for path in paths)
    return SiteSettings(title, site_url, CATALOG_HOME.format(title=title, roots=roots))


def write_site_config(folder: Path, registries: Sequence[Path], settings: SiteSettings) -> Path:
    """Write an mkdocs.yml (JSON is YAML) and a home page into `folder`; return the file's path."""
    from generator.schemas import shipped_schemas_root

    docs = folder / "docs"
    docs.mkdir()
    (docs / "index.md").write_text(settings.home, encoding="utf-8")
    options: dict[str, object] = {
        "registry": [str(path.absolute()) for path in registries],
        "schemas": str(shipped_schemas_root()),
        "run": settings.run,
    }
    if settings.cache is not None:
        options["cache"] = str(settings.cache)
    config = {
        "site_name": settings.title,
        "site_url": settings.site_url,
        "docs_dir": str(docs),
        "theme": {"name": "material", "features": ["navigation.prune"]},
        # dify-registry also indexes the built site for search (Material's search plugin is not used)
        "plugins": [{"dify-registry": options}],
        "markdown_extensions": ["tables", "admonition"],
    }
    path = folder / "mkdocs.yml"
    path.write_text(json.dumps(config, indent=2), encoding="utf-8")
    return path
