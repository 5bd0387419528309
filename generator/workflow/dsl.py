"""Reading a Dify app DSL file (what "export DSL" writes): the header Dify checks on import and the
nodes of the workflow graph, each with where it is written.

Read from `api/services/app_dsl_service.py` (`import_app`, `_create_or_update_app`) and
`api/services/dsl_version.py` of langgenius/dify: the document must be a mapping; `version` (added as
"0.1.0" when missing) must be a string that `packaging` parses; `app` must be present and carry a
`mode`; workflow and advanced-chat apps must carry a `workflow` mapping. A version newer than
Dify's, or of an older major, is imported only after the user confirms it. Nodes of iterations
and loops are listed in `workflow.graph.nodes` beside the others (with `parentId`), so one walk
reads them all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from packaging.version import InvalidVersion, Version

from generator.findings import Finding, Location, Severity
from generator.load.yamlload import YamlDocument, read_yaml
from generator.rules import rule
from generator.workflow.pipeline_dsl import (
    CURRENT_PIPELINE_VERSION,
    PIPELINE_KIND,
    PIPELINE_REFUSED,
    pipeline_header,
)

# The newest DSL version this check was written against (`api/constants/dsl_version.py`).
CURRENT_DSL_VERSION = "0.6.0"
WORKFLOW_MODES = ("workflow", "advanced-chat")

DSL_REFUSED = rule(
    "W001",
    "dsl-refused",
    Severity.ERROR,
    "Dify refuses to import this DSL: {problem}",
    "Export the app again from Dify, or fix the header: `kind: app`, a quoted `version`, "
    "`app.mode` and a `workflow` mapping.",
    """
Dify's import (`AppDslService.import_app`) fails for a document that is not a mapping, a
`version` that is not a string (an unquoted `0.1` is read as a number), a missing `app` or
`app.mode`, and a workflow or advanced-chat app without a `workflow` mapping. Nothing of such a file
reaches a workspace, so nothing else in it is checked.
""",
)
DSL_NOT_WORKFLOW = rule(
    "W002",
    "not-a-workflow",
    Severity.INFO,
    "app mode {mode} has no workflow graph; only workflow and advanced-chat apps are checked",
    "Give the check the DSL of a workflow or chatflow app.",
    """
Chat, agent-chat and completion apps keep their tools in `model_config`, not in a workflow
graph; this check reads workflow graphs only.
""",
)
DSL_VERSION_CONFIRM = rule(
    "W003",
    "dsl-version-needs-confirmation",
    Severity.INFO,
    "DSL version {version} {why}: Dify imports it only after you confirm",
    "Export the app again from a current Dify to get the current DSL version ({current}).",
    """
Dify compares the file's `version` with its own (`check_version_compatibility`): a newer version,
or one of an older major version, leaves the import pending until the user confirms it. The check
reads the file as it is.
""",
)


@dataclass(frozen=True, slots=True)
class Node:
    """One node of the graph: its id, type, title and `data`, and where that `data` is."""

    id: str
    type: str
    title: str
    data: dict[str, Any]
    index: int

    @property
    def parts(self) -> tuple[str | int, ...]:
        """The path of its `data` in the document."""
        return ("workflow", "graph", "nodes", self.index, "data")


@dataclass(frozen=True)
class Dsl:
    """A read DSL file: its document, header findings, and (for a workflow) its nodes."""

    document: YamlDocument
    findings: tuple[Finding, ...]
    nodes: tuple[Node, ...]
    kind: str = "app"  # or `rag_pipeline` (generator/workflow/pipeline.py)

    @property
    def path(self) -> str:
        """The file as findings name it."""
        return self.document.path

    def at(self, *parts: str | int) -> Location:
        """Where the value at `parts` is written (its nearest written parent when absent)."""
        return self.document.at(*parts)


def read_dsl(raw: bytes, path: str) -> Dsl:
    """Read a DSL file; never raises on bad input (a finding says what is wrong)."""
    document = read_yaml(raw, path)
    if not document.ok:
        return Dsl(document, document.findings, ())
    data = document.data
    start = Location(path, 1, 1, "")
    if not isinstance(data, dict):
        return Dsl(document, (*document.findings, DSL_REFUSED.at(start, problem="it is not a mapping")), ())
    if data.get("kind") == PIPELINE_KIND:
        return _pipeline(document, data)
    header = list(_header(document, data))
    if any(d.severity is Severity.ERROR for d in header) or any(
        d.rule == DSL_NOT_WORKFLOW.code for d in header
    ):
        return Dsl(document, (*document.findings, *header), ())
    return Dsl(document, (*document.findings, *header), tuple(_nodes(data)))


def _pipeline(document: YamlDocument, data: dict[str, Any]) -> Dsl:
    """A knowledge pipeline: its own header (`RagPipelineDslService.import_rag_pipeline`), then the
    nodes as for an app."""
    version = data.get("version", "0.1.0") or "0.1.0"
    problem = _version_problem(version)
    if problem:
        return Dsl(
            document, (*document.findings, DSL_REFUSED.at(document.at("version"), problem=problem)), ()
        )
    refused = pipeline_header(document, data)
    if refused:
        where = (
            document.at("rag_pipeline")
            if "rag_pipeline" in refused
            else document.at("workflow", "graph", "nodes")
        )
        return Dsl(document, (*document.findings, PIPELINE_REFUSED.at(where, problem=refused)), ())
    found = list(document.findings)
    why = _confirmation(Version(version), CURRENT_PIPELINE_VERSION)
    if why:
        found.append(
            DSL_VERSION_CONFIRM.at(
                document.at("version"), version=version, why=why, current=CURRENT_PIPELINE_VERSION
            )
        )
    return Dsl(document, tuple(found), tuple(_nodes(data)), PIPELINE_KIND)


def _version_problem(version: Any) -> str:
    """Why Dify refuses a DSL `version` (not text, or not a version `packaging` reads), or ""."""
    if not isinstance(version, str):
        return f"`version` is {type(version).__name__} {version!r}, not a string (quote it)"
    try:
        Version(version)
    except InvalidVersion:
        return f"`version` {version!r} is not a version"
    return ""


def _header(document: YamlDocument, data: dict[str, Any]) -> list[Finding]:
    found: list[Finding] = []
    version = data.get("version", "0.1.0") or "0.1.0"
    problem = _version_problem(version)  # as Dify parses it (packaging): exactly what Dify refuses
    if problem:
        return [DSL_REFUSED.at(document.at("version"), problem=problem)]
    parsed = Version(version)
    app = data.get("app")
    if not isinstance(app, dict) or not app:
        return [DSL_REFUSED.at(document.at("app"), problem="`app` is missing")]
    mode = app.get("mode")
    if not mode or not isinstance(mode, str):
        return [DSL_REFUSED.at(document.at("app", "mode"), problem="`app.mode` is missing")]
    if mode not in WORKFLOW_MODES:
        return [DSL_NOT_WORKFLOW.at(document.at("app", "mode"), mode=mode)]
    if not isinstance(data.get("workflow"), dict) or not data["workflow"]:
        return [DSL_REFUSED.at(document.at("workflow"), problem="a workflow app without `workflow`")]
    why = _confirmation(parsed)
    if why:
        found.append(
            DSL_VERSION_CONFIRM.at(
                document.at("version"), version=version, why=why, current=CURRENT_DSL_VERSION
            )
        )
    return found


def _confirmation(theirs: Version, current: str = CURRENT_DSL_VERSION) -> str:
    """Why Dify leaves the import pending (`check_version_compatibility`), or ""."""
    mine = Version(current)
    if theirs > mine:
        return f"is newer than the Dify version this check knows ({current})"
    if theirs.major < mine.major:
        return "is of an older major version"
    return ""


def _nodes(data: dict[str, Any]) -> list[Node]:
    graph = data["workflow"].get("graph")
    nodes = graph.get("nodes") if isinstance(graph, dict) else None
    found: list[Node] = []
    for index, node in enumerate(nodes if isinstance(nodes, list) else []):
        body = node.get("data") if isinstance(node, dict) else None
        if not isinstance(body, dict):
            continue
        node_id = node.get("id")
        kind, title = body.get("type"), body.get("title")
        found.append(
            Node(
                str(node_id) if isinstance(node_id, str | int) else "",
                kind if isinstance(kind, str) else "",
                title if isinstance(title, str) else "",
                body,
                index,
            )
        )
    return found
