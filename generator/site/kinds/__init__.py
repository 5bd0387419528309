"""The pages of plugin kinds other than tools, named once in `PAGES`.

Each kind is a module of this package that satisfies `KindPages` (as the loaders satisfy
`load.kinds.KindLoader`): it says which pages lie below one of its providers (an event, a
datasource, a model...) and builds the provider's section of the plugin page with those pages'
entries. What every kind shares stays here and in the site model: the output-variable table
(`Build.outputs`, the tools' renderer), `$ref` links, findings, checksums, the page paths. Each
kind names its two templates: its provider's section (`templates/<kind>_provider.html.j2`, shown
on the plugin page) and its child page (`templates/<kind>_<child>.html.j2`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from generator.module_table import ModuleTable
from generator.plugin_model import KIND_MODULES, Credential, I18n, KindPart, Parameter, PluginKind
from generator.site.views import EventRunView, FindingView, OutputRow

if TYPE_CHECKING:
    from generator.kind_models.trigger import Event, EventKey


@dataclass(frozen=True, slots=True)
class ChildEntry:
    """One page below a provider of a kind (an event...), as every page and file shows it."""

    src: str  # its page
    kind: PluginKind
    name: str
    key: str  # plugin/provider/name
    label: I18n
    description: I18n
    item: Any  # the kind's own dataclass (an Event...), which its template reads
    parameters: tuple[Parameter, ...]
    outputs: tuple[OutputRow, ...]  # its output_schema's properties, `$ref`s resolved
    has_schema: bool
    references: frozenset[str]  # the hosted `$id`s its output_schema references
    findings: tuple[FindingView, ...]  # those in its YAML file and its examples file
    checksum: str  # of its YAML document
    # Every translatable text it shows, named (what decides whether a language writes the page).
    texts: tuple[tuple[str, I18n], ...]
    # Its runs on its examples (none: the page says it was checked statically only).
    runs: tuple[EventRunView, ...] = ()
    # The registry's examples file the runs were made from (an overlay), or "" for the plugin's own.
    examples_from: str = ""

    @property
    def checked_by(self) -> str:
        """What its page's verdict rests on: `examples` when an example ran, else `static`."""
        return "examples" if self.runs else "static"


@dataclass(frozen=True, slots=True)
class Listed:
    """An item a provider's section lists without a page of its own (a model...)."""

    name: str
    label: I18n
    facts: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class KindSection:
    """One provider of a kind, shown as a section of its plugin's page, and its pages."""

    kind: PluginKind
    part: KindPart
    template: str  # the section of the plugin page
    child_template: str  # the page of each child
    children: tuple[ChildEntry, ...]
    # What it lists on the plugin page without a page of its own (a provider's models), for the
    # plugin's Markdown: each item's name, label and facts (language-neutral words, as declared).
    listed: tuple[Listed, ...] = ()
    # What a search result calls each child page: a kind (shown as the site's word `kind_<kind>`) or
    # a word of the site's texts ("trigger_event").
    child_word: str = ""


class PagedChild(Protocol):
    """What a child with a page of its own (an event, a datasource) declares, as its kind's model
    holds it."""

    @property
    def name(self) -> str: ...
    @property
    def label(self) -> I18n: ...
    @property
    def description(self) -> I18n: ...
    @property
    def parameters(self) -> tuple[Parameter, ...]: ...
    @property
    def output_schema(self) -> Any: ...
    @property
    def file(self) -> str: ...


def child_entry(
    kind: PluginKind, child: PagedChild, key: str, src: str, build: Build, *also: str, **more: Any
) -> ChildEntry:
    """The entry of `child`'s page: what every kind's child shows (parameters, output variables,
    `$ref`s, the findings in its YAML file and in the files `also` names), plus the kind's own
    fields `more` (runs...)."""
    schema = child.output_schema
    return ChildEntry(
        src=src,
        kind=kind,
        name=child.name,
        key=key,
        label=child.label,
        description=child.description,
        item=child,
        parameters=child.parameters,
        outputs=build.outputs(schema),
        has_schema=isinstance(schema, dict),
        references=build.references(schema),
        findings=build.findings_in(child.file, *also),
        checksum=build.checksum_of(child.file),
        texts=tuple(child_texts(child)),
        **more,
    )


def child_texts(child: PagedChild) -> Iterator[tuple[str, I18n]]:
    """Every translatable text a child's page shows (its label, description and parameters), named
    under the child's name: what decides whether a language writes its page."""
    name = child.name
    yield f"{name}.label", child.label
    yield f"{name}.description", child.description
    for parameter in child.parameters:
        yield f"{name}.{parameter.name}.label", parameter.label
        yield f"{name}.{parameter.name}.description", parameter.human_description
        for option in parameter.options:
            yield f"{name}.{parameter.name}.options.{option.value}", option.label


class Build(Protocol):
    """What the site model offers a kind while it builds one plugin's sections."""

    def child_src(self, part: int, child: int) -> str:
        """The page of the `child`-th page below the plugin's `part`-th provider of another kind."""
        ...

    def outputs(self, schema: Any) -> tuple[OutputRow, ...]:
        """The rows of the output-variable table of an `output_schema` (hosted `$ref`s followed)."""
        ...

    def references(self, schema: Any) -> frozenset[str]:
        """The hosted `$id`s an `output_schema` references."""
        ...

    def findings_in(self, *files: str) -> tuple[FindingView, ...]:
        """The plugin's findings in the files named (relative to the plugin), or in the registry's
        overlay files that stand for them (an examples file)."""
        ...

    def checksum_of(self, file: str) -> str:
        """The checksum of one of the plugin's YAML documents (relative to the plugin)."""
        ...

    def event_runs(self, key: EventKey) -> tuple[EventRunView, ...]:
        """The runs of a trigger event on its example deliveries, as its page shows them."""
        ...

    def examples_from(self, part: Event) -> str:
        """The registry's overlay file (its display path) that supplies the examples of `part`, or
        "" when the plugin has its own or there are none."""
        ...


class Index(Protocol):
    """What `index.json` offers a kind for its entries: the shared shapes of the index."""

    def pages(self, src: str) -> dict[str, str]:
        """The URL of the page at `src` for a reader of each language."""
        ...

    def i18n(self, text: I18n) -> dict[str, str]:
        """A text in the site's languages."""
        ...

    def parameter(self, parameter: Parameter) -> dict[str, Any]:
        """A parameter as the index describes one."""
        ...

    def field(self, field: Credential) -> dict[str, Any]:
        """A credential or setting field (what a user fills) as the index describes one."""
        ...

    def outputs(self, rows: tuple[OutputRow, ...]) -> list[dict[str, Any]]:
        """Output-variable rows as the index lists them."""
        ...


class KindPages(Protocol):
    """How the providers of one plugin kind show on the site."""

    def children(self, part: KindPart) -> tuple[str, ...]:
        """The names of the pages below the provider, in order (their paths are made from them)."""
        ...

    def section(self, part: KindPart, index: int, build: Build) -> KindSection:
        """The provider's section of the plugin page, with its child pages (`index`: the provider's
        place among the plugin's parts, for `Build.child_src`)."""
        ...

    def indexed(self, section: KindSection, index: Index) -> dict[str, Any]:
        """The provider as `index.json` lists it under the plugin's key of its kind."""
        ...


# Each kind's module, imported when a plugin of that kind is shown (`module_table.py`).
PAGES: Mapping[PluginKind, KindPages] = ModuleTable(__name__, KIND_MODULES)

if TYPE_CHECKING:  # mypy proves every module of the table a KindPages
    from generator.site.kinds import agent_strategy, datasource, endpoint, model, trigger

    PROVEN: tuple[KindPages, ...] = (trigger, datasource, model, agent_strategy, endpoint)
