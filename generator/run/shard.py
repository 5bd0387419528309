"""`--shard I/N`: a deterministic split of a collection's plugins over N machines, balanced by
what their runs are expected to cost.

Building a plugin's environment costs far more than running its examples (seconds to minutes
against tens of milliseconds), so a plugin's tools stay together (one environment per plugin and
machine), and plugins are spread by an estimate of their environment: the number of requirement
lines dominates, the size of the plugin's files and its tool count break ties. Every shard computes
the same split from the same plugins: the largest estimate goes first to the least loaded shard
(ties to the lower shard number), plugins of equal estimate in the order of their display path.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from generator.load.reader import MAX_REQUIREMENTS_BYTES

if TYPE_CHECKING:
    from generator.load.crawl import LoadedPlugin

_SHARD = re.compile(r"(\d+)/(\d+)")
# What one requirement line is worth against one KiB of plugin files and one tool: a package to
# resolve, download and install takes about as long as hashing and copying 100 KiB.
REQUIREMENT_COST = 100
TOOL_COST = 1
KIB = 1024


@dataclass(frozen=True, slots=True)
class Shard:
    """Shard `index` (1-based) of `count`."""

    index: int
    count: int

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"


def parse_shard(text: str) -> Shard:
    """`I/N` with 1 <= I <= N; raises ValueError with a sentence otherwise."""
    match = _SHARD.fullmatch(text.strip())
    if match is None:
        raise ValueError(f"{text!r} is not I/N (for example 1/3)")
    index, count = int(match[1]), int(match[2])
    if not 1 <= index <= count:
        raise ValueError(f"{text!r}: I must be between 1 and N")
    return Shard(index, count)


def estimated_cost(loaded: LoadedPlugin) -> int:
    """What running this plugin is expected to cost, in arbitrary units (see the module's text)."""
    size = sum(f.size for f in loaded.reader.local_files())
    tools = len(loaded.plugin.tools) if loaded.plugin else 0
    return REQUIREMENT_COST * (1 + _requirement_count(loaded)) + size // KIB + TOOL_COST * tools


def _requirement_count(loaded: LoadedPlugin) -> int:
    """Requirement lines of `requirements.txt`, else the packages locked in `uv.lock` (what the
    environment builder installs from, environment.py)."""
    reader = loaded.reader
    plain = reader.text("requirements.txt", MAX_REQUIREMENTS_BYTES)
    if plain is not None:
        return sum(1 for line in plain.splitlines() if line.strip() and not line.lstrip().startswith("#"))
    locked = reader.text("uv.lock", MAX_REQUIREMENTS_BYTES) or ""
    return locked.count("[[package]]")


def split(costs: Sequence[tuple[str, int]], count: int) -> list[int]:
    """The shard (1-based) of each (name, cost), in the given order: longest first onto the least
    loaded shard."""
    loads = [0] * count
    shards = [0] * len(costs)
    order = sorted(range(len(costs)), key=lambda i: (-costs[i][1], costs[i][0]))
    for position in order:
        lightest = min(range(count), key=lambda s: (loads[s], s))
        loads[lightest] += costs[position][1]
        shards[position] = lightest + 1
    return shards


def in_shard(plugins: Sequence[LoadedPlugin], shard: Shard | None) -> list[LoadedPlugin]:
    """The plugins whose tools this shard runs (all of them without a shard)."""
    if shard is None or shard.count == 1:
        return list(plugins)
    costs = [(loaded.display, estimated_cost(loaded)) for loaded in plugins]
    shards = split(costs, shard.count)
    return [loaded for loaded, chosen in zip(plugins, shards, strict=True) if chosen == shard.index]
