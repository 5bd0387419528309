"""The loaders of plugin kinds other than tools, named once in `LOADERS`.

Each kind is a module of this package that satisfies `KindLoader` (as pre-commit's languages
satisfy its `Language`): mypy proves each has every function (`PROVEN`), and adding a kind is one
module and its line in the table and in `PROVEN`. The crawl (`generator/load/crawl.py`) follows the
manifest's `plugins: <kind>:` list and hands every provider YAML it could read to its kind's
loader; a kind with no loader is listed on the plugin (`Plugin.kinds`) and not read further. Tools
keep the crawl's own code: they predate the kinds, and their model (`Plugin.providers`) is the one
every stage already reads.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from generator.module_table import ModuleTable
from generator.plugin_model import KIND_MODULES

if TYPE_CHECKING:
    from generator.load.crawl import Crawl
    from generator.load.yamlload import YamlDocument
    from generator.plugin_model import KindPart, PluginKind


class KindLoader(Protocol):
    """How the provider YAMLs of one plugin kind become that kind's model."""

    def load(
        self, crawl: Crawl, document: YamlDocument, relative: str, manifest: Mapping[str, Any]
    ) -> KindPart | None:
        """The kind's provider read from `document` (the file `relative`, listed in the manifest
        `manifest`), following the files it names through `crawl` (which records each file read,
        its findings, and the files listed, for the orphan search); None when nothing usable."""
        ...


# Each kind's module, imported when a plugin of that kind is read (`module_table.py`).
LOADERS: Mapping[PluginKind, KindLoader] = ModuleTable(__name__, KIND_MODULES)

if TYPE_CHECKING:  # mypy proves every module of the table a KindLoader
    from generator.load.kinds import agent_strategy, datasource, endpoint, model, trigger

    PROVEN: tuple[KindLoader, ...] = (trigger, datasource, model, agent_strategy, endpoint)
