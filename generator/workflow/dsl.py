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
Dify's import (`AppDslService.import_app`) fails for a `version` that is not a string (an
unquoted `0.1` is read as a number), a missing `app` or `app.mode`, and a workflow or advanced-chat
app without a `workflow` mapping. Nothing of such a file reaches a workspace, so nothing else in it
is checked. (A file that is no app DSL at all, a list or a Compose file, is rule W004.)
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
NOT_A_DSL = rule(
    "W004",
    "not-an-app-dsl",
    Severity.ERROR,
    "this YAML is not a Dify app DSL: {why}",
    "{fix}",
    """
The file reads as YAML but is no app that Dify exports ("Export DSL" writes a mapping with
`kind: app`, a `version`, the `app` and, for workflows and chatflows, the `workflow` graph). A
list, a scalar, a mapping whose `kind` is something else (a Kubernetes or Compose file), or a
mapping with none of `kind: app`, `app` and `workflow` is something else: Dify's import refuses it,
and nothing in it is checked. A plugin's own YAML (a manifest, a provider or a tool) is named as
such: `dify-registry validate` checks those.
""",
)
_PLUGIN_KEYS = {"plugins": "a plugin's manifest", "tools": "a provider YAML", "parameters": "a tool YAML"}


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
    if isinstance(data, dict) and data.get("kind") == PIPELINE_KIND:
        return _pipeline(document, data)
    why = _not_a_dsl(data)
    if why:
        fix = "Give the check a file made by an app's Export DSL in Dify."
        if isinstance(data, dict) and (named := next((v for k, v in _PLUGIN_KEYS.items() if k in data), "")):
            fix = f"This looks like {named}: check the plugin with `dify-registry validate`."
        return Dsl(document, (*document.findings, NOT_A_DSL.at(start, why=why, fix=fix)), ())
    header = list(_header(document, data))
    if any(d.severity is Severity.ERROR for d in header) or any(
        d.rule == DSL_NOT_WORKFLOW.code for d in header
    ):
        return Dsl(document, (*document.findings, *header), ())
    return Dsl(document, (*document.findings, *header), tuple(_nodes(data)))


def _not_a_dsl(data: Any) -> str:
    """Why a document is no app DSL at all, or "" when it claims to be one."""
    if not isinstance(data, dict):
        return f"it is {'a list' if isinstance(data, list) else 'a single value'}, not a mapping"
    kind = data.get("kind")
    if kind is not None and kind != "app":
        return f"its kind is {str(kind)[:40]!r}, not 'app'"
    if kind is None and "app" not in data and "workflow" not in data:
        keys = ", ".join(str(key)[:30] for key in list(data)[:6]) or "none"
        return f"it has none of `kind: app`, `app` and `workflow` (its keys: {keys})"
    return ""


def _pipeline(document: YamlDocument, data: dict[str, Any]) -> Dsl:
    """A knowledge pipeline: its own header (`RagPipelineDslService.import_rag_pipeline`), then the
    nodes as for an app."""
    version = data.get("version", "0.1.0") or "0.1.0"
    problem = _version_problem(version)
    if problem:
        refusal = DSL_REFUSED.at(document.at("version"), problem=problem)
        return Dsl(document, (*document.findings, refusal), ())
    refused = pipeline_header(document, data)
    if refused:
        nodes = ("workflow", "graph", "nodes")
        where = document.at("rag_pipeline") if "rag_pipeline" in refused else document.at(*nodes)
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
