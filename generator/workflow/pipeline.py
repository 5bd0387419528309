"""Knowledge pipelines (`kind: rag_pipeline`): the datasource nodes against the catalog's datasources,
the pipeline's own variables, the outputs of Dify's built-in nodes, and the Knowledge Base node's
chunk structure against the structure its chunk variable declares.

Read from langgenius/dify: `RagPipelineDslService.import_rag_pipeline`
(api/services/rag_pipeline/rag_pipeline_dsl_service.py: `CURRENT_DSL_VERSION = "0.1.0"`, "Missing
rag_pipeline data in YAML content", each `knowledge-index` node read into `KnowledgeConfiguration`,
and "DSL is not valid, please check the Knowledge Index node." when the graph has none), the
datasource node's data (`DatasourceNodeData`: `plugin_id`, `provider_name`, `provider_type`,
`datasource_name`, `datasource_parameters`), and `KnowledgeIndexNode._run`
(api/core/workflow/nodes/knowledge_index/knowledge_index_node.py): `variable =
variable_pool.get(node_data.index_chunk_variable_selector)`, `if not variable: raise
KnowledgeIndexNodeError("Index chunk variable is required.")`, then
`IndexProcessorFactory(chunk_structure).init_index_processor()` picks the processor of
`text_model`, `hierarchical_model` or `qa_model`, which reads the chunks as its own structure.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from generator.findings import Finding, Location, Severity
from generator.rules import Listing, Phrase, rule
from generator.workflow.catalog import Catalog, ToolSpec
from generator.workflow.datasources import HOSTED, STRUCTURES, DatasourceSpec
from generator.workflow.dsl import Dsl, Node
from generator.workflow.uses import Reference, references

CHUNK_STRUCTURES = ("text_model", "hierarchical_model", "qa_model")
# What Dify's built-in nodes produce (their `_run` outputs); a name ending in `.` is a free-form
# prefix (an LLM's structured output).
BUILTIN_OUTPUTS: Mapping[str, tuple[str, ...]] = {
    "document-extractor": ("text",),
    "variable-aggregator": ("output",),
    "template-transform": ("output",),
    "llm": ("text", "usage", "reasoning_content", "structured_output", "structured_output."),
    "if-else": (),
    "knowledge-index": (),
}
# Built-in datasources of Dify itself (the upload node), not plugins: what they output.
LOCAL_FILE_OUTPUTS = frozenset({"file"})
Locate = Callable[..., Location]

DATASOURCE_UNKNOWN = rule(
    "W031",
    "datasource-not-in-catalog",
    Severity.WARNING,
    "node {node}: {what}",
    "Install the datasource plugin, or check `plugin_id`, `provider_name` and `datasource_name`; with "
    "`--catalog`, name the registry that holds it.",
    """
A datasource node names a plugin, provider and datasource (`plugin_id`, `provider_name`,
`datasource_name`) that the catalog does not have, or of another `provider_type` than the catalog's.
Dify runs the node through `DatasourceManager.get_datasource_runtime(provider_id=
f"{node_data.plugin_id}/{node_data.provider_name}", datasource_name=node_data.datasource_name, ...,
datasource_type=...)` (api/core/workflow/nodes/datasource/datasource_node.py), so each of the four
must match the installed plugin (the daemon's `GetDatasource` answers "plugin not found" when the
installed provider's name differs). Dify imports the pipeline and asks to install a missing plugin;
the node fails when it runs without a match. When the plugin is there, the finding names the
datasources it has and their providers: a renamed provider is the usual cause.
The catalog may not hold a plugin the workspace has, so this is a warning.
""",
)
DATASOURCE_PARAMETER_UNKNOWN = rule(
    "W032",
    "datasource-parameter-unknown",
    Severity.WARNING,
    "node {node}: datasource {datasource} has no parameter {name}",
    "Remove the value, or set a parameter the datasource has ({known}).",
    """
The node gives a value (`datasource_parameters`) to a parameter the datasource does not declare.
Dify passes only what the node holds, so the value is lost; a renamed parameter is the usual cause.
""",
)
NODE_OUTPUT_UNKNOWN = rule(
    "W033",
    "node-output-unknown",
    Severity.WARNING,
    "node {node} reads {reference}, but {source} has no output {path}",
    "Read one of the outputs it has ({known}); a variable nobody sets reads None.",
    """
A node reads a variable of a datasource node (declared in its `output_schema`, plus the `file` an
online drive or an upload hands on) or of one of Dify's built-in nodes (a document extractor's
`text`, a variable aggregator's `output`, a template's `output`, an LLM's `text`, `usage`,
`reasoning_content`, `structured_output`) that the node never produces. Dify does not check it:
the reference reads None.
""",
)
PIPELINE_VARIABLE_UNKNOWN = rule(
    "W034",
    "pipeline-variable-undeclared",
    Severity.WARNING,
    "node {node} reads {reference}, but the pipeline declares no variable {variable} for {owner}",
    "Declare it in `workflow.rag_pipeline_variables` (`belong_to_node_id: {owner}`, `variable: "
    "{variable}`), or read one that is declared ({known}).",
    """
A knowledge pipeline's input fields are declared in `workflow.rag_pipeline_variables`, each for one
datasource node (`belong_to_node_id`) or for all of them (`shared`), and read as
`rag.<node id or shared>.<variable>`. A reference to one that is not declared is never filled: it
reads None.
""",
)
CHUNK_VARIABLE_MISSING = rule(
    "W035",
    "chunk-variable-missing",
    Severity.ERROR,
    'Knowledge Base node {node}: {problem}; every document fails with "Index chunk variable is required."',
    "Set `index_chunk_variable_selector` to the chunker node's output, such as [<chunker node id>, result].",
    """
The Knowledge Base node indexes the variable `index_chunk_variable_selector` names
(`KnowledgeIndexNode._run`: `variable = variable_pool.get(node_data.index_chunk_variable_selector)`,
then `if not variable: raise KnowledgeIndexNodeError("Index chunk variable is required.")`). A
selector that is missing, or names a node the graph does not have, gives no variable, so every
document the pipeline processes fails at this node.
""",
)
CHUNK_STRUCTURE_MISMATCH = rule(
    "W036",
    "chunk-structure-mismatch",
    Severity.ERROR,
    "Knowledge Base node {node} indexes {structure} chunks, but {source} output {path} declares "
    "{schema}, which only the {declared} processor reads",
    "Use a chunker whose output is {expected_schema}, or set `chunk_structure: {declared}` (the "
    "structure is fixed once the pipeline is published).",
    """
A Knowledge Base node's `chunk_structure` picks the index processor that reads the chunks
(`IndexProcessorFactory(chunk_structure).init_index_processor()` in `KnowledgeIndexNode`:
`text_model` reads a general structure, `hierarchical_model` a parent-child structure, `qa_model`
question-answer pairs). The chunk variable's output is declared, through its `$ref`, as one of the
hosted structures (`general_structure.json` and `multimodal_general_structure.json` for
`text_model`, `parent_child_structure.json` and `multimodal_parent_child_structure.json` for
`hierarchical_model`, `qa_structure.json` for `qa_model`). When the two differ, Dify imports and
publishes the pipeline, and every document fails when it is indexed: the processor cannot read
chunks of another structure.
""",
)
CHUNK_STRUCTURE_UNKNOWN = rule(
    "W037",
    "chunk-structure-not-declared",
    Severity.WARNING,
    "Knowledge Base node {node}: {source} output {path} {why}, so its fit to {structure} is not checked",
    "Read the output of a chunker whose `output_schema` `$ref`s a hosted chunk structure (for "
    "{structure}: {expected_schema}).",
    """
The chunk variable comes from a node whose output declares no hosted chunk structure (a tool whose
`output_schema` says `type: array` without a `$ref`, or a built-in node's text): whether it fits
the Knowledge Base node's `chunk_structure` is known only when documents are indexed.
""",
)
CHUNK_STRUCTURE_INVALID = rule(
    "W038",
    "chunk-structure-invalid",
    Severity.ERROR,
    "Knowledge Base node {node}: chunk_structure {value} is none of text_model, hierarchical_model, qa_model",
    "Set `chunk_structure` to text_model (general chunks), hierarchical_model (parent-child) or qa_model.",
    """
`IndexProcessorFactory` knows three index types (`text_model`, `hierarchical_model`, `qa_model`)
and raises "Index type ... is not supported." for any other, so every document fails when it is
indexed.
""",
)


@dataclass(frozen=True, slots=True)
class Source:
    """What a node that others read produces: its output paths (None: unknown) and their chunk
    structures, and how findings name it."""

    name: str
    outputs: frozenset[str] | None
    structures: Mapping[str, str]
    prefixes: tuple[str, ...] = ()
    reads_checked: bool = True  # False for tools: the workflow check reads their outputs (W020)


def check_pipeline(
    nodes: Sequence[Node],
    references_of: Iterator[Reference],
    datasources: Mapping[str, Mapping[tuple[str, str], DatasourceSpec]],
    tools: Mapping[str, tuple[str, frozenset[str], Mapping[str, str]]],
    variables: set[tuple[str, str]],
    at: Locate,
) -> Iterator[Finding]:
    """The pipeline's own findings. `tools` maps a tool node id resolved in the catalog to (tool name,
    outputs, chunk structures): their outputs are the workflow check's (W020); `variables` holds the
    declared (owner, variable) pairs; `at` locates a path of the document."""
    sources: dict[str, Source] = {}
    for node in nodes:
        if node.type == "datasource":
            source = yield from _datasource(node, datasources, at)
            sources[node.id] = source
        elif node.id in tools:
            name, outputs, structures = tools[node.id]
            sources[node.id] = Source(f"tool {name}", outputs, structures, reads_checked=False)
        elif node.type in BUILTIN_OUTPUTS:
            sources[node.id] = _builtin(node)
    for reference in references_of:
        yield from _read(reference, sources, variables)
    for node in nodes:
        if node.type == "knowledge-index":
            yield from _knowledge_base(node, sources, {n.id for n in nodes}, at)


def _shown(node: Node) -> str:
    return f"{node.id} ({node.title})" if node.title else node.id


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _datasource(
    node: Node, catalog: Mapping[str, Mapping[tuple[str, str], DatasourceSpec]], at: Locate
) -> Generator[Finding, None, Source]:
    data = node.data
    plugin_id, provider, name = (
        _text(data.get("plugin_id")),
        _text(data.get("provider_name")),
        _text(data.get("datasource_name")),
    )
    kind = _text(data.get("provider_type"))
    shown = f"datasource {name}"
    if kind == "local_file":  # Dify's own upload node
        return Source(shown, LOCAL_FILE_OUTPUTS, {})
    where = at(*node.parts, "datasource_name")
    plugin = catalog.get(plugin_id)
    spec = plugin.get((provider, name)) if plugin is not None else None
    if plugin is None:
        what = f"datasource plugin {plugin_id or '(no plugin_id)'} is not in the catalog"
    elif spec is None:
        # A renamed provider or datasource is the usual cause: say what the plugin has instead
        # (each outside part shortened on its own, so the whole is shown).
        has = Listing(sorted(f"{d} in provider {p}" for p, d in plugin), 4)
        what = Phrase(
            f"plugin {Listing([plugin_id])} has no datasource {Listing([name])} in provider "
            f"{Listing([provider])} (it has {has})"
        )
    elif kind and kind != spec.provider_type:
        what = f"datasource {name} of {plugin_id} is of type {spec.provider_type}, but the node says {kind}"
    else:
        what = ""
    if what:
        yield DATASOURCE_UNKNOWN.at(where, node=_shown(node), what=what)
    if spec is None:
        return Source(shown, None, {})
    given = data.get("datasource_parameters")
    for key in given if isinstance(given, dict) else ():
        if key not in spec.parameters:
            yield DATASOURCE_PARAMETER_UNKNOWN.at(
                at(*node.parts, "datasource_parameters", key),
                node=_shown(node),
                datasource=name,
                name=key,
                known=Listing(list(spec.parameters), 12),
            )
    return Source(shown, spec.outputs, spec.structures)


def _builtin(node: Node) -> Source:
    named = BUILTIN_OUTPUTS[node.type]
    outputs = {name for name in named if not name.endswith(".")}
    prefixes = tuple(name for name in named if name.endswith("."))
    settings = node.data.get("advanced_settings")
    if node.type == "variable-aggregator" and isinstance(settings, dict) and settings.get("group_enabled"):
        groups = settings.get("groups")
        prefixes += (
            tuple(
                f"{group['group_name']}."
                for group in groups
                if isinstance(group, dict) and isinstance(group.get("group_name"), str)
            )
            if isinstance(groups, list)
            else ()
        )
    return Source(f"the {node.type} node {_shown(node)}", frozenset(outputs), {}, prefixes)


def _read(
    reference: Reference, sources: Mapping[str, Source], variables: set[tuple[str, str]]
) -> Iterator[Finding]:
    shown = "{{#" + ".".join((reference.source, *reference.path)) + "#}}"
    node = _shown(reference.node)
    if reference.source == "rag" and len(reference.path) >= 2:
        owner, variable = reference.path[0], reference.path[1]
        if (owner, variable) not in variables:
            known = Listing(sorted(f"rag.{o}.{v}" for o, v in variables), 12)
            yield PIPELINE_VARIABLE_UNKNOWN.at(
                reference.where, node=node, reference=shown, variable=variable, owner=owner, known=known
            )
        return
    source = sources.get(reference.source)
    if source is None or source.outputs is None or not source.reads_checked or not reference.path:
        return
    path = ".".join(reference.path)
    if _produces(source, reference.path):
        return
    yield NODE_OUTPUT_UNKNOWN.at(
        reference.where,
        node=node,
        reference=shown,
        source=source.name,
        path=path,
        known=Listing(sorted(source.outputs) + [p + "*" for p in source.prefixes], 12),
    )


def _produces(source: Source, path: tuple[str, ...]) -> bool:
    outputs = source.outputs or frozenset()
    joined = ".".join(path)
    if joined in outputs or any(joined.startswith(prefix) for prefix in source.prefixes):
        return True
    normal = {output.replace("[]", "") for output in outputs}
    for cut in range(len(path), 0, -1):
        prefix = ".".join(path[:cut])
        if prefix in normal:
            return cut == len(path) or not any(o.startswith(prefix + ".") for o in normal)
    return False


def _knowledge_base(
    node: Node, sources: Mapping[str, Source], ids: set[str], at: Locate
) -> Iterator[Finding]:
    data = node.data
    structure = data.get("chunk_structure")
    if structure not in CHUNK_STRUCTURES:
        yield CHUNK_STRUCTURE_INVALID.at(
            at(*node.parts, "chunk_structure"), node=_shown(node), value=repr(structure)
        )
        return
    selector = data.get("index_chunk_variable_selector")
    where = at(*node.parts, "index_chunk_variable_selector")
    if not isinstance(selector, list) or len(selector) < 2 or not all(isinstance(p, str) for p in selector):
        yield CHUNK_VARIABLE_MISSING.at(where, node=_shown(node), problem="no index_chunk_variable_selector")
        return
    if selector[0] not in ids:
        problem = f"index_chunk_variable_selector names node {selector[0]}, which the graph does not have"
        yield CHUNK_VARIABLE_MISSING.at(where, node=_shown(node), problem=problem)
        return
    source = sources.get(selector[0])
    if source is None:
        return  # a node whose outputs are unknown (a tool missing from the catalog: W010)
    path = ".".join(selector[1:])
    expected = " or ".join(s.removeprefix(HOSTED) for s, kind in STRUCTURES.items() if kind == structure)
    declared = source.structures.get(path)
    if declared is None:
        if source.outputs is not None and not _produces(source, tuple(selector[1:])):
            return  # the output itself is missing: W033 or W020 says so
        why = (
            "is text, not chunks" if source.name.startswith("the ") else "declares no hosted chunk structure"
        )
        yield CHUNK_STRUCTURE_UNKNOWN.at(
            where,
            node=_shown(node),
            source=source.name,
            path=path,
            why=why,
            structure=structure,
            expected_schema=expected,
        )
        return
    if STRUCTURES[declared] != structure:
        yield CHUNK_STRUCTURE_MISMATCH.at(
            where,
            node=_shown(node),
            structure=structure,
            source=source.name,
            path=path,
            declared=STRUCTURES[declared],
            schema=declared.removeprefix(HOSTED),
            expected_schema=expected,
        )


def declared_variables(data: Any) -> set[tuple[str, str]]:
    """(owner, variable) of every `workflow.rag_pipeline_variables` entry."""
    workflow = data.get("workflow") if isinstance(data, dict) else None
    listed = workflow.get("rag_pipeline_variables") if isinstance(workflow, dict) else None
    return {
        (str(item.get("belong_to_node_id")), str(item.get("variable")))
        for item in (listed if isinstance(listed, list) else [])
        if isinstance(item, dict)
    }


def pipeline_findings(dsl: Dsl, catalog: Catalog, tools: Mapping[str, ToolSpec]) -> list[Finding]:
    """The findings of a knowledge pipeline beyond its tool nodes' (`tools`: the tool nodes the
    workflow check resolved in the catalog, by node id)."""
    resolved = {node: (spec.name, spec.outputs, spec.structures) for node, spec in tools.items()}
    variables = declared_variables(dsl.document.data)
    return list(check_pipeline(dsl.nodes, references(dsl), catalog.datasources, resolved, variables, dsl.at))
