"""A table of modules by key, each imported the first time it is looked up.

The stages name the code of each plugin kind other than tools in one table per stage (the loaders,
the pages). Importing every kind's modules up front costs each command about 10 ms of CPU (their
models are dataclasses with slots, made at import), which a collection of tool plugins only would
pay for nothing: with this table a kind's code loads when a plugin of that kind is met.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import Generic, TypeVar, cast

K = TypeVar("K")
V = TypeVar("V")


class ModuleTable(Mapping[K, V], Generic[K, V]):
    """`package`'s submodules by key (`names`: key -> submodule name); looking a key up imports its
    module (once: Python keeps it), while `in`, `len` and iteration import nothing."""

    def __init__(self, package: str, names: Mapping[K, str]) -> None:
        self._package = package
        self._names = dict(names)

    def __getitem__(self, key: K) -> V:
        return cast(V, importlib.import_module(f"{self._package}.{self._names[key]}"))

    def __contains__(self, key: object) -> bool:
        return key in self._names

    def __iter__(self) -> Iterator[K]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)
