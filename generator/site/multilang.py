"""The other languages: one fresh MkDocs build per language into `<site>/<prefix>/`.

A language plugin (mkdocs-static-i18n) cannot handle pages generated at build time, and one
search index cannot split Chinese and Japanese words; separate builds can (each has its own
`theme.language`, search language and index). The catalog and every view of it that does not
depend on the language are handed over, not rebuilt.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.config.defaults import MkDocsConfig

from generator.site.languages import SiteLanguage

if TYPE_CHECKING:
    from generator.site.plugin import RegistryPlugin
    from generator.site.shared import SharedViews

log = logging.getLogger("mkdocs.plugins.dify-registry")
PLUGIN_NAME = "dify-registry"


def registry_plugin(config: MkDocsConfig) -> RegistryPlugin:
    """This package's plugin in a loaded configuration; TypeError when mkdocs.yml lacks it."""
    from generator.site.plugin import RegistryPlugin

    plugin = config.plugins.get(PLUGIN_NAME)
    if not isinstance(plugin, RegistryPlugin):
        raise TypeError(f"mkdocs.yml does not enable the {PLUGIN_NAME} plugin")
    return plugin


def build_language(config: MkDocsConfig, language: SiteLanguage, shared: SharedViews) -> None:
    """Build the site again in `language` under the default build's site folder."""
    if not config.config_file_path:
        log.warning("dify-registry: no mkdocs.yml to load; only the default language is built")
        return
    site_url = (config.site_url or "/").rstrip("/") + "/" + language.folder
    nested = load_config(
        config.config_file_path,
        site_dir=str(Path(config.site_dir) / language.prefix),
        site_url=site_url,
        docs_dir=config.docs_dir,
        use_directory_urls=config.use_directory_urls,
        strict=config.strict,
    )
    plugin = registry_plugin(nested)
    plugin.config["language"] = language.code
    plugin.config["languages"] = False
    plugin.shared = shared
    build(nested)
