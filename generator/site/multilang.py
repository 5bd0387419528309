"""The other languages: one fresh MkDocs build per language into `<site>/<prefix>/`.

A language plugin (mkdocs-static-i18n) cannot handle pages generated at build time, and one
search index cannot split Chinese and Japanese words; separate builds can (each has its own
`theme.language`, search language and index). The site model (catalog included), which does
not depend on the language, is handed over, not rebuilt.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError

from generator.site.languages import SiteLanguage

if TYPE_CHECKING:
    from generator.site.mkdocs_plugin import RegistryPlugin
    from generator.site.rebuild import Rebuild
    from generator.site.site_model import SiteModel

log = logging.getLogger("mkdocs.plugins.dify-registry")
PLUGIN_NAME = "dify-registry"


def registry_plugin(config: MkDocsConfig) -> RegistryPlugin:
    """This package's plugin in a loaded configuration; TypeError when mkdocs.yml lacks it."""
    from generator.site.mkdocs_plugin import RegistryPlugin

    plugin = config.plugins.get(PLUGIN_NAME)
    if not isinstance(plugin, RegistryPlugin):
        raise TypeError(f"mkdocs.yml does not enable the {PLUGIN_NAME} plugin")
    return plugin


def build_language(
    config: MkDocsConfig, language: SiteLanguage, model: SiteModel, rebuild: Rebuild | None
) -> None:
    """Build the site again in `language` under the default build's site folder, keeping the pages
    that did not change when `rebuild` is incremental."""
    if not config.config_file_path:
        log.warning("dify-registry: no mkdocs.yml to load; only the default language is built")
        return
    site_url = (config.site_url or "/").rstrip("/") + "/" + language.folder
    nested = load_config(
        config.config_file_path,
        site_dir=str(Path(config.site_dir) / language.prefix),
        site_url=site_url,
        site_name=config.site_name,  # as the command line may have set it (`build --title`)
        docs_dir=config.docs_dir,
        use_directory_urls=config.use_directory_urls,
        strict=config.strict,
    )
    registry_plugin(nested).render_for(language, model, rebuild)
    build(nested, dirty=rebuild is not None and rebuild.incremental)


def cores() -> int:
    """How many cores this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def can_fork() -> bool:
    """Forking is safe only while this process runs a single thread: a lock another thread holds at
    the moment of the fork stays held forever in the child (`mkdocs serve` builds beside its server
    threads, so it builds the languages one after the other)."""
    return "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1


class LanguageBuilds:
    """The other languages' builds, spread over the cores: each build is independent once the
    catalog exists, so forked children start them while this process still builds the default
    language, and this process builds its own share at the end."""

    def __init__(
        self,
        config: MkDocsConfig,
        languages: Sequence[SiteLanguage],
        model: SiteModel,
        rebuild: Rebuild | None = None,
    ) -> None:
        self.config = config
        self.model = model
        self.rebuild = rebuild
        self.own = list(languages)
        self.children: dict[int, list[SiteLanguage]] = {}

    def start(self, jobs: int) -> None:
        """Fork up to `jobs - 1` children (this process counts as one), each with a share of the
        languages; with one job, or where forking is unsafe, everything is built in `finish`."""
        ways = min(jobs, len(self.own) + 1)
        if ways < 2 or not can_fork():
            return
        # This process also builds the default language, so it keeps the smallest share.
        shares = [self.own[index::ways] for index in range(ways)]
        self.own = shares.pop()
        for share in shares:
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:
                self._child(share)
            self.children[pid] = share
            log.info("dify-registry: building %s in process %d", ", ".join(x.code for x in share), pid)

    def _child(self, share: list[SiteLanguage]) -> None:
        code, current = 1, share[0]
        try:
            for current in share:
                build_language(self.config, current, self.model, self.rebuild)
            code = 0
        except BaseException as failure:  # reported here: the parent only sees the exit status
            log.error("dify-registry: the %s build failed: %s", current.code, failure)
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)  # never return into the parent's build

    def finish(self) -> None:
        """Build this process's share, then wait for the children; fail if any of them failed."""
        try:
            for language in self.own:
                build_language(self.config, language, self.model, self.rebuild)
        finally:
            failed = self._wait()
        if failed:
            raise PluginError(f"dify-registry: the process building {', '.join(failed)} failed (see above)")

    def abort(self) -> None:
        """Stop the children (the default language's build failed)."""
        for pid in self.children:
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                continue
        self._wait()

    def _wait(self) -> list[str]:
        failed: list[str] = []
        for pid, share in self.children.items():
            _pid, status = os.waitpid(pid, 0)
            if os.waitstatus_to_exitcode(status) != 0:
                failed.extend(language.code for language in share)
        self.children = {}
        return failed
