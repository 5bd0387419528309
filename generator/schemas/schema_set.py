"""The schema registry's data: hosted schema files, the set of them, and property rows."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import MappingProxyType
from typing import Any
from urllib.parse import urldefrag

from referencing import Registry

from generator.findings import Finding
from generator.published import SITE_URL


@dataclass(frozen=True, slots=True)
class PropertyRow:
    """One property of a schema's tree, as a documentation table shows it."""

    path: str  # `result.parent_child_chunks[].files`; `[]` stands for the items of an array
    anchor: str  # a deep-link id, unique within one tree, made of [a-z0-9_-]
    type: str  # `string`, `string | null`, `array[object]` (as Dify writes it); empty when undeclared
    required: bool
    description: str
    ref: str | None  # the absolute `$ref` target when the property is a reference (not expanded)


@dataclass(frozen=True, slots=True)
class DerivedFacts:
    """What the registry derives from one hosted file beyond its content."""

    lint: tuple[Finding, ...] = ()
    properties: tuple[PropertyRow, ...] = ()
    example: Any = None  # a valid instance, or None when none could be made


@dataclass(frozen=True)
class HostedSchema:
    """One published schema file: its bytes exactly as served, parsed data and derived facts."""

    id: str
    name: str  # file stem: `file`, `general_structure`
    version: str  # folder: `v1`
    path: str  # repository-relative: `schemas/v1/file.json`
    content: bytes
    data: Any
    title: str
    description: str
    # Computes `derived` the first time it is asked for (schemas/load.py gives it).
    derive: Callable[[], DerivedFacts] = field(default=DerivedFacts, compare=False, repr=False)

    @cached_property
    def derived(self) -> DerivedFacts:
        """The lint and documentation facts of the file, computed once, on first use: the site and
        `schemas lint` read them, validating plugins does not (linting the shipped schemas against
        the metaschema was a tenth of every `validate` command line's time)."""
        return self.derive()

    @property
    def lint(self) -> tuple[Finding, ...]:
        """The file's lint findings (S0xx), in the order they were found."""
        return self.derived.lint

    @property
    def properties(self) -> tuple[PropertyRow, ...]:
        """The property rows of the schema's tree, as its documentation page shows them."""
        return self.derived.properties

    @property
    def example(self) -> Any:
        """A valid instance, or None when none could be made."""
        return self.derived.example

    @property
    def served_path(self) -> str:
        """Where the built site serves the file, relative to the site root (`schemas/v1/file.json`)."""
        return self.path

    @property
    def url(self) -> str:
        """The URL the site serves the file at (equal to `id` when the file is consistent)."""
        return SITE_URL + self.path


@dataclass(frozen=True)
class SchemaSet:
    """Every hosted schema and one immutable registry of them keyed by `$id`; nothing is fetched."""

    registry: Registry[Any]
    hosted: tuple[HostedSchema, ...]
    root: Path | None = None
    _by_id: Mapping[str, HostedSchema] = field(default_factory=lambda: MappingProxyType({}), repr=False)

    def get(self, uri: str) -> HostedSchema | None:
        """The hosted schema with this `$id` (a fragment or empty `#` is ignored)."""
        return self._by_id.get(urldefrag(uri).url)

    @property
    def ids(self) -> tuple[str, ...]:
        """Every known `$id`, sorted."""
        return tuple(sorted(self._by_id))

    def findings(self) -> tuple[Finding, ...]:
        """Every lint finding on every hosted file."""
        return tuple(d for schema in self.hosted for d in schema.lint)
