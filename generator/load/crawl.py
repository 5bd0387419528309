"""Follow a plugin's references: manifest.yaml -> provider YAMLs -> tool YAMLs.

Files are found by following references, never by globbing or by their shape; the one exception
is the search for orphan tool YAMLs, which by definition nothing references.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from generator.findings import Finding, Location, Severity
from generator.load.builders import as_list, build_credentials, build_parameters, credentials_key, text
from generator.load.kinds import LOADERS
from generator.load.paths import display_path, printable
from generator.load.reader import MAX_DOCUMENT_BYTES, PluginFile, PluginReader
from generator.load.repair import repaired
from generator.load.values import dig, kind_of
from generator.load.yamlload import MAX_FILE_BYTES, YamlDocument, oversized, pointer_of, read_yaml
from generator.plugin_model import (
    PLUGIN_KINDS,
    I18n,
    KindPart,
    Plugin,
    Provider,
    Tool,
    ToolKey,
)
from generator.rules import rule

if TYPE_CHECKING:
    from generator.load.registry_examples import RegistryExamples

MAX_PLUGIN_YAML_FILES = 5000
EXAMPLES_SUFFIX = ".examples.yaml"

MISSING_FILE = rule(
    "F001",
    "missing-file",
    Severity.ERROR,
    "{what} {path} does not exist",
    "Create the file or correct the path; paths are relative to the plugin folder.",
    """
A file that the plugin names (a provider or tool YAML, an icon, a Python source) is not there.
Dify's packager and installer read every referenced file, so a missing one stops the plugin.
""",
)
PATH_ESCAPES = rule(
    "F002",
    "path-outside-plugin",
    Severity.ERROR,
    "{what} {path!s} is not inside the plugin: {problem}",
    "Use a relative path to a file inside the plugin folder, without `..`, links out or control characters.",
    """
Every path in a manifest is relative to the plugin folder. A path that is absolute, climbs out with
`..`, or reaches a file outside through a symbolic link would make the registry read files that are
not part of the plugin; it is refused and the file is not read.
""",
)
NOT_A_MAPPING = rule(
    "F003",
    "document-not-mapping",
    Severity.ERROR,
    "{what} must be a mapping, but the file holds {kind}",
    "Write the file as a YAML mapping of keys to values (see the published schema).",
    """
Manifests, provider and tool YAMLs are mappings. A file that holds a list, a string or nothing
cannot be read by Dify.
""",
)
NO_MANIFEST = rule(
    "F004",
    "no-manifest",
    Severity.ERROR,
    "no manifest.yaml in {path}",
    "A plugin folder holds manifest.yaml at its top level; point the command at that folder.",
    """
The folder or package given is not a plugin: it has no `manifest.yaml` at its top level.
""",
)
ORPHAN_TOOL = rule(
    "F005",
    "orphan-tool-yaml",
    Severity.WARNING,
    "tool YAML {path} is not listed by any provider",
    "Add it to a provider's `tools:` list, or delete it if it is no longer used.",
    """
The file looks like a tool YAML, but no provider lists it under `tools:`. Dify loads only the tools
that a provider lists (the SDK's `ToolProviderConfiguration.validate_tools` reads each path of the
provider's `tools:` with `load_yaml_file(tool)` and nothing else), so this tool never appears; it is
usually a leftover or a forgotten entry. A YAML file beside the listed tool YAMLs looks like a tool
when it has an `identity` and, at the top level, a `description` with `llm`, an
`extra.python.source` or a `parameters` list (a tool whose description is misplaced is a tool all
the same), and is not a provider.
""",
)
REFERENCE_NOT_TEXT = rule(
    "F006",
    "reference-not-string",
    Severity.ERROR,
    "{what} entry must be a file path, got {kind}",
    "Write the list entry as a relative path string.",
    """
Lists of files (`plugins.tools`, a provider's `tools:`) hold relative paths as strings.
""",
)
TOO_MANY_FILES = rule(
    "F007",
    "too-many-files",
    Severity.ERROR,
    "the plugin references more than {limit} YAML files; the rest are not read",
    "Reduce the number of files; the marketplace accepts at most 5000 files in a package.",
    """
A plugin referencing thousands of YAML files is refused by the marketplace and would make
validation slow; the registry stops reading past the limit.
""",
)


@dataclass(frozen=True)
class LoadedPlugin:
    """What loading one plugin produced: its model (if the manifest was readable), the documents
    read (by path relative to the plugin root), the findings of loading, and the reader every later
    stage reads the plugin's files through."""

    root: Path
    display: str
    plugin: Plugin | None
    documents: MappingProxyType[str, YamlDocument]
    roles: MappingProxyType[str, str]
    findings: tuple[Finding, ...]
    reader: PluginReader = field(compare=False, repr=False)
    # The examples the registry keeps for this plugin (`overlays/<author>/<plugin>/`), if any.
    registry_examples: RegistryExamples | None = field(default=None, compare=False, repr=False)
    # True when the manifest or a tool provider it names could not be read: the declarations it
    # would have named were read by their shape, and which code Dify loads is not known.
    hidden: bool = False
    # The tool providers read by their shape then (see `hidden`), which Dify would not load as they
    # stand: for the checks that judge a provider's own declarations against its code.
    discovered: tuple[Provider, ...] = ()

    def display_path(self, relative: str) -> str:
        """How a file of this plugin is named in findings."""
        return display_path(self.display, relative)

    def loads(self, tool: Tool) -> bool:
        """False for a tool whose YAML was read from a repaired copy (`load/repair.py`): Dify
        cannot read its YAML, so it never runs."""
        document = self.documents.get(tool.file)
        return document is None or not document.repaired


@dataclass
class Crawl:
    """One plugin's loading in progress: what was read, found and listed so far. The kinds'
    loaders (`generator/load/kinds/`) read and follow files through it."""

    reader: PluginReader
    display: str
    documents: dict[str, YamlDocument] = field(default_factory=dict)
    roles: dict[str, str] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    # The child YAMLs providers list (tools, events, datasources...): the orphan search skips them.
    listed: set[str] = field(default_factory=set)
    hidden: bool = False
    discovered: list[Provider] = field(default_factory=list)

    @property
    def root(self) -> Path:
        return self.reader.root

    def shown(self, relative: str) -> str:
        return display_path(self.display, relative)

    def read(self, relative: str, role: str) -> YamlDocument | None:
        if relative in self.documents:
            return self.documents[relative]
        if len(self.documents) >= MAX_PLUGIN_YAML_FILES:
            self.findings.append(
                TOO_MANY_FILES.at(Location(self.shown("manifest.yaml"), 1, 1), limit=MAX_PLUGIN_YAML_FILES)
            )
            return None
        size = self.reader.size(relative)
        raw = self.reader.head(relative, MAX_FILE_BYTES + 1)  # a file of hundreds of MB is never read whole
        if raw is None or size is None:
            self.findings.append(
                MISSING_FILE.at(
                    Location(self.shown(relative), 1, 1),
                    what=role,
                    path=relative,
                    hint=f"The file cannot be read: {self.reader.why_unreadable(relative)}.",
                )
            )
            return None
        shown = self.shown(relative)
        document = (
            read_yaml(raw, shown) if len(raw) <= MAX_FILE_BYTES else oversized(shown, max(size, len(raw)))
        )
        self.documents[relative] = document
        self.roles[relative] = role
        self.findings.extend(document.findings)
        if document.ok and not isinstance(document.data, dict):
            self.findings.append(
                NOT_A_MAPPING.at(document.at(), what=f"a {role}", kind=kind_of(document.data))
            )
            return None
        if not document.ok and role == "tool":
            # a syntax error in a help text must not hide the rest of the tool and its code
            fixed = repaired(raw, document)
            if fixed is not None and isinstance(fixed.data, dict):
                self.documents[relative] = fixed
                return fixed
        return document if document.ok else None

    def follow(
        self, document: YamlDocument, parts: tuple[str | int, ...], named: Any, what: str
    ) -> str | None:
        """Resolve a path named at `parts` of `document`; report escapes and missing files."""
        where = document.at(*parts)
        if not isinstance(named, str):
            self.findings.append(REFERENCE_NOT_TEXT.at(where, what=what, kind=kind_of(named)))
            return None
        resolved = self.reader.resolve(named)
        if resolved.path is None:
            self.findings.append(PATH_ESCAPES.at(where, what=what, path=named, problem=resolved.problem))
            return None
        if not resolved.path.is_file():
            self.findings.append(MISSING_FILE.at(where, what=what, path=named))
            return None
        return resolved.relative


def load_plugin(root: Path, display: str = "") -> LoadedPlugin:
    """Load one plugin folder. Never raises for bad content: problems become findings."""
    # Later stages run child processes in other working folders: keep the root absolute.
    crawl = Crawl(PluginReader(root.absolute()), display)
    if not (root / "manifest.yaml").is_file():
        crawl.findings.append(NO_MANIFEST.at(Location(display or str(root), 0, 0), path=display or str(root)))
        return _finish(crawl, None)
    inside = crawl.reader.resolve("manifest.yaml")
    if not inside.ok:  # a link to a file elsewhere on the machine
        where = Location(crawl.shown("manifest.yaml"), 1, 1)
        crawl.findings.append(
            PATH_ESCAPES.at(where, what="manifest", path="manifest.yaml", problem=inside.problem)
        )
        return _finish(crawl, None)
    manifest = crawl.read("manifest.yaml", "manifest")
    if manifest is None:
        _discover(crawl, {})  # the manifest names nothing: read the declarations it would have named
        return _finish(crawl, None)
    data = manifest.data
    plugins_block = data.get("plugins")
    providers: list[Provider] = []
    parts: list[KindPart] = []
    # A tool provider named but unreadable (or no `plugins` block at all) hides the files it lists.
    hidden = not isinstance(plugins_block, dict)
    for kind in PLUGIN_KINDS:
        entries = as_list(dig(data, "plugins", kind)) if isinstance(plugins_block, dict) else []
        for index, entry in enumerate(entries):
            relative = crawl.follow(manifest, ("plugins", kind, index), entry, f"{kind} provider")
            if relative is None:
                hidden = hidden or kind == "tools"
                continue
            document = crawl.read(relative, f"{kind} provider")
            if document is None:
                hidden = hidden or kind == "tools"
                continue
            loader = LOADERS.get(kind)
            if loader is not None:
                part = loader.load(crawl, document, relative, data)
                if part is not None:
                    parts.append(part)
                continue
            if kind == "tools":  # tools predate the kinds' loaders (load/kinds/__init__.py)
                providers.append(_load_provider(crawl, document, relative, data))
    _report_orphans(crawl, crawl.listed)
    if hidden:
        _discover(crawl, data)
    return _finish(crawl, _build_plugin(crawl, manifest, tuple(providers), tuple(parts)))


def _finish(crawl: Crawl, plugin: Plugin | None) -> LoadedPlugin:
    return LoadedPlugin(
        crawl.root,
        crawl.display,
        plugin,
        MappingProxyType(crawl.documents),
        MappingProxyType(crawl.roles),
        tuple(crawl.findings),
        crawl.reader,
        hidden=crawl.hidden,
        discovered=tuple(crawl.discovered),
    )


def _load_provider(
    crawl: Crawl,
    document: YamlDocument,
    relative: str,
    manifest: dict[str, Any],
) -> Provider:
    tools: list[Tool] = []
    plugin_name = text(manifest.get("name"))
    provider_name = text(dig(document.data, "identity", "name"))
    for index, entry in enumerate(as_list(document.data.get("tools"))):
        child = crawl.follow(document, ("tools", index), entry, "tool YAML")
        if child is None:
            continue
        crawl.listed.add(child)
        child_doc = crawl.read(child, "tool")
        if child_doc is not None:
            tools.append(_build_tool(child_doc, child, ToolKey(plugin_name, provider_name, "")))
    identity = document.data.get("identity")
    identity = identity if isinstance(identity, dict) else {}
    key = credentials_key(document.data)
    credentials = document.data.get(key)
    return Provider(
        name=provider_name,
        file=relative,
        author=text(identity.get("author")),
        label=I18n.of(identity.get("label")),
        description=I18n.of(identity.get("description")),
        icon=text(identity.get("icon")),
        tags=tuple(text(t) for t in as_list(identity.get("tags"))),
        credentials=build_credentials(document, (key,), credentials),
        tools=tuple(tools),
        source=text(dig(document.data, "extra", "python", "source")),
        origin=document.at(),
    )


def _build_tool(document: YamlDocument, relative: str, provider_key: ToolKey) -> Tool:
    data = document.data
    identity = data.get("identity") if isinstance(data.get("identity"), dict) else {}
    description = data.get("description") if isinstance(data.get("description"), dict) else {}
    return Tool(
        key=ToolKey(provider_key.plugin, provider_key.provider, text(identity.get("name"))),
        file=relative,
        label=I18n.of(identity.get("label")),
        description=I18n.of(description.get("human")),
        llm_description=text(description.get("llm")),
        icon=text(identity.get("icon")),
        parameters=build_parameters(document, ("parameters",), data.get("parameters")),
        output_schema=data.get("output_schema"),
        source=text(dig(data, "extra", "python", "source")),
        origin=document.at(),
    )


def _build_plugin(
    crawl: Crawl, manifest: YamlDocument, providers: tuple[Provider, ...], parts: tuple[KindPart, ...]
) -> Plugin:
    data = manifest.data
    plugins_block = data.get("plugins") if isinstance(data.get("plugins"), dict) else {}
    kinds: dict[str, tuple[str, ...]] = {
        kind: tuple(text(e) for e in as_list(plugins_block.get(kind)))
        for kind in PLUGIN_KINDS
        if as_list(plugins_block.get(kind))
    }
    readme_text = crawl.reader.text("README.md", MAX_DOCUMENT_BYTES) or ""
    return Plugin(
        name=text(data.get("name")),
        root_name=crawl.root.name,
        version=text(data.get("version")),
        author=text(data.get("author")),
        label=I18n.of(data.get("label")),
        description=I18n.of(data.get("description")),
        icon=text(data.get("icon")),
        icon_dark=text(data.get("icon_dark")),
        tags=tuple(text(t) for t in as_list(data.get("tags"))),
        kinds=MappingProxyType(kinds),
        providers=providers,
        runner_language=text(dig(data, "meta", "runner", "language")),
        runner_version=text(dig(data, "meta", "runner", "version")),
        minimum_dify_version=text(dig(data, "meta", "minimum_dify_version")),
        repo=text(data.get("repo")),
        readme=readme_text,
        origin=manifest.at(),
        parts=parts,
    )


def _looks_like_tool(data: Any) -> bool:
    """A tool YAML, however incomplete: an `identity` with a top-level `description.llm`, or with
    the code it runs (`extra.python.source`) or a `parameters` list; a file with a `description`
    misplaced under `identity` is still a tool its author meant to offer. Not a provider."""
    if not isinstance(data, dict) or not isinstance(data.get("identity"), dict) or _looks_like_provider(data):
        return False
    description = data.get("description")
    return (
        (isinstance(description, dict) and "llm" in description)
        or isinstance(dig(data, "extra", "python", "source"), str)
        or isinstance(data.get("parameters"), list)
    )


def _discover(crawl: Crawl, manifest: dict[str, Any]) -> None:
    """Read the tool providers and tools that the references could not reach, because the
    manifest or a provider that would name them cannot be read: their own errors are told in the
    same pass (an author wants every problem at once, not one per attempt). Found by their shape,
    as Dify's declarations look; they do not join the plugin's model, as Dify loads none of them."""
    crawl.hidden = True
    shaped: list[tuple[str, YamlDocument]] = []
    for file in crawl.reader.tree.files[: MAX_PLUGIN_YAML_FILES * 4]:
        relative = file.relative
        if not relative.endswith((".yaml", ".yml")) or relative.endswith(EXAMPLES_SUFFIX):
            continue
        if relative in crawl.documents or file.size > MAX_FILE_BYTES:
            continue
        raw = crawl.reader.listed_head(file, MAX_FILE_BYTES)
        if raw is None:
            continue
        document = read_yaml(raw, crawl.shown(printable(relative)))
        if not document.ok:
            # a YAML error is told only for a file that reads as a declaration (`identity:` at the
            # top level), not for the workflow files or data a plugin may carry
            if _DECLARATION.search(raw[:MAX_DOCUMENT_BYTES]):
                crawl.findings.extend(document.findings)
            continue
        if _looks_like_provider(document.data) or _looks_like_declared_tool(document.data):
            shaped.append((relative, document))
    for relative, document in shaped:  # providers first: the tools they list are read as theirs
        if _looks_like_provider(document.data) and relative not in crawl.documents:
            crawl.documents[relative] = document
            crawl.roles[relative] = "tools provider"
            crawl.findings.extend(document.findings)
            crawl.discovered.append(_load_provider(crawl, document, relative, manifest))
    for relative, document in shaped:
        if relative not in crawl.documents and not _looks_like_provider(document.data):
            crawl.documents[relative] = document
            crawl.roles[relative] = "tool"
            crawl.findings.extend(document.findings)


# Dify's declaration files (providers, tools) all open with an `identity` mapping.
_DECLARATION = re.compile(rb"^identity[ \t]*:", re.MULTILINE)
# Top-level keys of the providers of other kinds: such a file is not a tool provider.
_OTHER_PROVIDERS = ("strategies", "datasources", "events", "endpoints", "models", "provider")


def _looks_like_provider(data: Any) -> bool:
    """A tool provider: an `identity` with a `tools:` list or `credentials_for_provider`."""
    return (
        isinstance(data, dict)
        and isinstance(data.get("identity"), dict)
        and ("tools" in data or "credentials_for_provider" in data)
        and not any(key in data for key in _OTHER_PROVIDERS)
    )


def _looks_like_declared_tool(data: Any) -> bool:
    """A tool, however incomplete: an `identity` and a `description` with `human` or `llm`."""
    description = data.get("description") if isinstance(data, dict) else None
    return (
        isinstance(data, dict)
        and isinstance(data.get("identity"), dict)
        and isinstance(description, dict)
        and ("human" in description or "llm" in description)
    )


def _report_orphans(crawl: Crawl, listed: set[str]) -> None:
    """Tool YAMLs that no provider lists, looked for only beside the listed ones."""
    folders = {str(Path(p).parent) for p in listed}
    for folder in sorted(folders):
        base = crawl.root / folder
        if not crawl.reader.is_dir(folder or "."):
            continue
        for candidate in sorted(base.glob("*.y*ml"))[:MAX_PLUGIN_YAML_FILES]:
            relative = candidate.relative_to(crawl.root).as_posix()
            if relative.endswith(EXAMPLES_SUFFIX):  # examples files sit beside tool YAMLs by design
                continue
            if relative in crawl.documents:
                continue
            # Found by listing the folder: read whatever its name holds, but never through a link.
            head = crawl.reader.listed_head(PluginFile(relative, 0, candidate.is_symlink()), 1 << 20)
            if head is None:
                continue
            document = read_yaml(head, crawl.shown(relative))
            if document.ok and _looks_like_tool(document.data):
                shown = crawl.shown(printable(relative))  # a name with a newline must not forge report lines
                crawl.findings.append(ORPHAN_TOOL.at(Location(shown, 1, 1), path=relative))


__all__ = ["PLUGIN_KINDS", "Crawl", "LoadedPlugin", "load_plugin", "pointer_of"]
