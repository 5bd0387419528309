"""The header of a knowledge pipeline's DSL (`kind: rag_pipeline`): what Dify refuses before it reads
the graph, read from `RagPipelineDslService.import_rag_pipeline`
(api/services/rag_pipeline/rag_pipeline_dsl_service.py of langgenius/dify). Apart from
`generator/workflow/pipeline.py` so that the DSL reader (`dsl.py`) can use it without a cycle."""

from __future__ import annotations

from typing import Any

from generator.findings import Severity
from generator.load.yamlload import YamlDocument
from generator.rules import rule

PIPELINE_KIND = "rag_pipeline"
# The pipeline DSL's own version (`CURRENT_DSL_VERSION` of the pipeline DSL service).
CURRENT_PIPELINE_VERSION = "0.1.0"

PIPELINE_REFUSED = rule(
    "W030",
    "pipeline-refused",
    Severity.ERROR,
    "Dify refuses to import this knowledge pipeline: {problem}",
    "Export the pipeline again from Dify: it needs a `rag_pipeline` mapping and one Knowledge Base "
    "(`knowledge-index`) node.",
    """
Dify's pipeline import (`RagPipelineDslService.import_rag_pipeline`) fails with "Missing rag_pipeline
data in YAML content" when the `rag_pipeline` mapping is missing, and with "DSL is not valid, please
check the Knowledge Index node." when the graph has no `knowledge-index` node: the dataset is made
from that node's configuration. Nothing of such a file reaches a workspace.
""",
)


def pipeline_header(document: YamlDocument, data: dict[str, Any]) -> str:
    """Why Dify refuses the pipeline before reading its graph, or ""."""
    if not data.get("rag_pipeline"):
        return "Missing rag_pipeline data in YAML content"
    workflow = data.get("workflow")
    graph = workflow.get("graph") if isinstance(workflow, dict) else None
    nodes = graph.get("nodes") if isinstance(graph, dict) else None
    if not any(
        isinstance(node, dict)
        and isinstance(node.get("data"), dict)
        and node["data"].get("type") == "knowledge-index"
        for node in (nodes if isinstance(nodes, list) else [])
    ):
        return (
            "DSL is not valid, please check the Knowledge Index node. (the graph has no knowledge-index node)"
        )
    return ""
