"""An entry point that never creates the SDK's `Plugin` (T015): the plugin cannot start.

The daemon starts a Python plugin with `python -m <entrypoint>`; what serves Dify's requests is the
SDK's `Plugin(...)`, run by its `run()`. A plugin none of whose modules ever creates one ends as soon
as its entry module has run.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from generator.check import CheckContext
from generator.check.common import every_node
from generator.check.plugin_code import plugin_code
from generator.check.sdk_api_index import PACKAGE
from generator.check.sdk_names import stops_at_start
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.load.values import dig
from generator.rules import rule

NEVER_STARTED = rule(
    "T015",
    "plugin-never-created",
    Severity.ERROR,
    "the entry point {entry} never creates the SDK's Plugin (no module of the plugin calls `Plugin(...)`):"
    " `python -m {entry}` ends once the module has run, and the plugin never serves a request",
    "End {file} with `Plugin(DifyPluginEnv()).run()` (`from dify_plugin import DifyPluginEnv, Plugin`):"
    " the SDK registers the providers the manifest lists by itself.",
    """
The daemon starts a Python plugin with `python -m <meta.runner.entrypoint>`
(`exec.Command(pythonPath, "-m", r.Config.Meta.Runner.Entrypoint)`,
`internal/core/local_runtime/subprocess.go`) and waits for it to answer over its standard streams.
What answers is the SDK's `Plugin` (`dify_plugin/plugin.py`): creating it reads the manifest and
registers every provider it lists (`PluginRegistration`), and its `run()` serves Dify's requests
until the daemon stops it. An entry module that only creates `DifyPluginEnv()` or calls methods of
its own (`env.register_provider(...)`, a method no SDK class has) exits at once, so the plugin never
starts. The check reads every Python file of the plugin and reports only when none calls `Plugin`,
imported from `dify_plugin` or any name ending in `.Plugin`, and none derives a class from it. It
is silent when the entry module already stops at a name the SDK lacks (T013, T014: an import that
fails, `env.register_provider(...)`): that finding names the line and says how a plugin starts, one
cause, one finding.
""",
)


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """T015 for a Python plugin whose entry module exists and no module creates a Plugin."""
    manifest = loaded.documents.get("manifest.yaml")
    data = manifest.data if manifest is not None else None
    entry = dig(data, "meta", "runner", "entrypoint")
    python = dig(data, "meta", "runner", "language") == "python"
    if loaded.plugin is None or not isinstance(entry, str) or not python:
        return
    code = plugin_code(loaded)
    if entry not in code.modules or any(_creates_plugin(tree) for _file, tree in code.modules.values()):
        return
    if stops_at_start(loaded, code):
        return  # T013 / T014 name the line the entry module stops at, and say how a plugin starts
    relative, tree = code.modules[entry]
    first = tree.body[0] if tree.body else None
    yield NEVER_STARTED.at(
        Location(loaded.display_path(relative), first.lineno if first else 1, 1),
        entry=entry,
        file=loaded.display_path(relative),
    )


def _creates_plugin(tree: ast.Module) -> bool:
    """True when the module may create a Plugin: it calls `Plugin`, an alias of the SDK's, or any
    `x.Plugin`, or derives a class from one of them (a subclass is created instead)."""
    names = {"Plugin"}
    for node in every_node(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == PACKAGE:
            names.update(alias.asname for alias in node.names if alias.name == "Plugin" and alias.asname)
    for node in every_node(tree):
        if isinstance(node, ast.Call) and _names(node.func, names):
            return True
        if isinstance(node, ast.ClassDef) and any(_names(base, names) for base in node.bases):
            return True
    return False


def _names(node: ast.expr, names: set[str]) -> bool:
    return (isinstance(node, ast.Name) and node.id in names) or (
        isinstance(node, ast.Attribute) and node.attr == "Plugin"
    )
