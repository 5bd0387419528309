"""Splitting one real site build into the generator's time and MkDocs's own time.

The build runs unchanged (`mkdocs build` with the `dify-registry` plugin, four languages). While it
runs, the plugin's hooks, the catalog and the per-language configuration loading are wrapped with a
clock that charges each moment to exactly one side: time inside a hook is the generator's, except
while that hook runs a nested MkDocs build (the other languages), which is MkDocs's again, or the
search index (Pagefind over the written site, which took the place of MkDocs's search plugin, whose
index was MkDocs's time): charged to `search`, on MkDocs's side.
"""

from __future__ import annotations

import contextlib
import functools
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

GENERATOR_PARTS = ("catalog", "pages", "languages")


@dataclass
class SplitClock:
    """Seconds charged to each part; the innermost running part is charged."""

    seconds: dict[str, float] = field(default_factory=dict)
    _stack: list[str] = field(default_factory=list)
    _since: float = 0.0

    def _switch(self) -> None:
        now = time.perf_counter()
        if self._stack:
            part = self._stack[-1]
            self.seconds[part] = self.seconds.get(part, 0.0) + now - self._since
        self._since = now

    @contextlib.contextmanager
    def charge(self, part: str) -> Iterator[None]:
        """Charge the time inside this block to `part` (nested blocks take over while they run)."""
        self._switch()
        self._stack.append(part)
        try:
            yield
        finally:
            self._switch()
            self._stack.pop()

    def wrap(self, part: str, function: Callable[..., Any]) -> Callable[..., Any]:
        """`function`, charging its calls to `part` (attributes such as MkDocs priorities kept)."""

        @functools.wraps(function)
        def timed(*args: Any, **kwargs: Any) -> Any:
            with self.charge(part):
                return function(*args, **kwargs)

        return timed

    @property
    def generator(self) -> float:
        """Everything the generator adds: catalog, page rendering, language orchestration."""
        return sum(self.seconds.get(part, 0.0) for part in GENERATOR_PARTS)

    @property
    def mkdocs(self) -> float:
        """MkDocs's own work for the same pages (Markdown, theme, copying)."""
        return self.seconds.get("mkdocs", 0.0)

    @property
    def search(self) -> float:
        """The search index of the written site (Pagefind)."""
        return self.seconds.get("search", 0.0)


@contextlib.contextmanager
def split_clock() -> Iterator[SplitClock]:
    """Instrument the plugin for the duration of the block; every build inside it is measured."""
    from generator.site import mkdocs_plugin, multilang

    clock = SplitClock()
    patched: list[tuple[Any, str, Any]] = []

    def patch(owner: Any, name: str, part: str) -> None:
        original = getattr(owner, name)
        patched.append((owner, name, original))
        setattr(owner, name, clock.wrap(part, original))

    hooks = [name for name in vars(mkdocs_plugin.RegistryPlugin) if name.startswith("on_")]
    for name in hooks:
        patch(mkdocs_plugin.RegistryPlugin, name, "pages")
    patch(mkdocs_plugin, "site_catalog", "catalog")
    patch(mkdocs_plugin, "index_site", "search")
    patch(multilang, "load_config", "languages")
    patch(multilang, "build", "mkdocs")
    try:
        yield clock
    finally:
        for owner, name, original in reversed(patched):
            setattr(owner, name, original)


def timed_build(config_file: str, site_dir: str) -> SplitClock:
    """Build the site of `config_file` into `site_dir` with MkDocs, split into the two sides."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    with split_clock() as clock, clock.charge("mkdocs"):
        config = load_config(config_file, site_dir=site_dir)
        build(config)
    return clock
