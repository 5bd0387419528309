"""The identity of a child of a provider of any kind (a datasource, a model, an agent strategy):
(plugin, provider, name), never a file name."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class PartKey:
    """`plugin/provider/name`, as the registry names a provider's child."""

    plugin: str
    provider: str
    name: str

    def __str__(self) -> str:
        return f"{self.plugin}/{self.provider}/{self.name}"
