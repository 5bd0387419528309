"""Manifest rules beyond the schema: plugin kinds, icons, README, entrypoint, package size."""

from __future__ import annotations

from collections.abc import Iterable

from generator.check import CheckContext
from generator.check.common import check_asset, documents
from generator.findings import Finding, Location, Severity
from generator.load.crawl import PLUGIN_KINDS, LoadedPlugin
from generator.load.values import dig
from generator.load.yamlload import YamlDocument
from generator.rules import Phrase, rule

MAX_PLUGIN_BYTES = 50 * 1024 * 1024
# Dify runs one of these kinds per plugin; tools and endpoints may accompany any of them.
EXCLUSIVE_KINDS = ("models", "agent_strategies", "datasources", "triggers")

NO_PLUGIN_KIND = rule(
    "M010",
    "no-plugin-kind",
    Severity.ERROR,
    "the manifest lists no tools, models, endpoints, agent strategies, datasources or triggers",
    "List at least one provider YAML under `plugins:` (for a tool plugin: `plugins.tools`).",
    """
A plugin must provide something: the daemon refuses a manifest whose `plugins` block lists no file
under any kind.
""",
)
EXCLUSIVE_KIND = rule(
    "M011",
    "exclusive-plugin-kinds",
    Severity.ERROR,
    "plugin kinds {kinds} cannot be combined in one plugin",
    "Split the plugin: models, agent strategies, datasources and triggers each need a plugin of their own.",
    """
The daemon accepts at most one of `models`, `agent_strategies`, `datasources` and `triggers` in a
plugin (tools and endpoints may accompany any of them).
""",
)
ICON_MISSING = rule(
    "M012",
    "plugin-icon-missing",
    Severity.ERROR,
    "plugin icon {path} does not exist",
    "Put the icon file into `_assets/` or correct its name; the name is relative to `_assets/`.",
    """
The manifest's `icon` (and `icon_dark`, when given) names a file in `_assets/`. The packager checks
that the icons exist and refuses the plugin otherwise.
""",
)
README_MISSING = rule(
    "M013",
    "readme-missing",
    Severity.WARNING,
    "the plugin has no README.md",
    "Add a README.md in English that says what the plugin does, how to set it up and where its source is.",
    """
Dify installs a plugin without a README, but the marketplace shows the README as the plugin's page
and refuses a submission without one (run with `--submission` to apply the marketplace's checks).
""",
)
TOO_LARGE = rule(
    "M014",
    "plugin-too-large",
    Severity.ERROR,
    "the plugin holds {size} MB of files, over Dify's limit of 50 MB uncompressed",
    "Exclude what is not needed at run time (tests, data, build output) with a .difyignore file.",
    """
`dify plugin package` refuses plugins larger than 50 MB uncompressed, counting every file that
`.difyignore` (or, without it, `.gitignore`) does not exclude.
""",
)
ENTRYPOINT_MISSING = rule(
    "M015",
    "entrypoint-missing",
    Severity.ERROR,
    "the runner's entrypoint {entry} {problem!s}: Dify starts the plugin with `python -m {entry}`,"
    " which fails",
    "Create the module (usually main.py running `Plugin(DifyPluginEnv()).run()`) "
    "or fix `meta.runner.entrypoint`.",
    """
Dify starts a Python plugin by running the module named by `meta.runner.entrypoint` (usually
`main`, the file `main.py` at the plugin's top level): the daemon runs `python -m <entrypoint>`
(`exec.Command(pythonPath, "-m", r.Config.Meta.Runner.Entrypoint)` in
`internal/core/local_runtime/subprocess.go`). A module that does not exist, or a value that is no
dotted module name at all (`tool.py:HeyGenTool`, a file and a class), and the plugin never starts.
""",
)


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """Manifest findings that a schema cannot express."""
    for _relative, manifest in documents(loaded, "manifest"):
        yield from _kinds(manifest)
        for field in ("icon", "icon_dark"):
            yield from check_asset(
                loaded, manifest.at(field), manifest.data.get(field), ICON_MISSING, "plugin icon"
            )
        yield from _entrypoint(loaded, manifest)
    if loaded.plugin is not None and not (loaded.root / "README.md").is_file():
        yield README_MISSING.at(
            Location(loaded.display_path("README.md"), 1, 1),
            Severity.ERROR if context.submission else None,
        )
    if loaded.plugin is not None:
        tree = loaded.reader.tree
        if tree.size > MAX_PLUGIN_BYTES:
            yield TOO_LARGE.at(loaded.plugin.origin, size=round(tree.size / 1024 / 1024, 1))


def _kinds(manifest: YamlDocument) -> Iterable[Finding]:
    block = manifest.data.get("plugins")
    if not isinstance(block, dict):
        return  # the schema reports a missing or mistyped block
    used = [kind for kind in PLUGIN_KINDS if isinstance(block.get(kind), list) and block[kind]]
    if not used:
        yield NO_PLUGIN_KIND.at(manifest.key_at("plugins"))
    exclusive = [kind for kind in used if kind in EXCLUSIVE_KINDS]
    if len(exclusive) > 1:
        yield EXCLUSIVE_KIND.at(manifest.key_at("plugins", exclusive[1]), kinds=" and ".join(exclusive))


def _entrypoint(loaded: LoadedPlugin, manifest: YamlDocument) -> Iterable[Finding]:
    entry = dig(manifest.data, "meta", "runner", "entrypoint")
    if not isinstance(entry, str) or not entry:
        return
    where = manifest.at("meta", "runner", "entrypoint")
    if not all(part.isidentifier() for part in entry.split(".")):
        yield ENTRYPOINT_MISSING.at(
            where, entry=entry, problem=Phrase("is not a module name (dotted names, no `.py`, no `:`)")
        )
        return
    named = entry.replace(".", "/") + ".py"
    if not loaded.reader.is_file(named):
        problem = Phrase(f"names {named}, which does not exist")
        yield ENTRYPOINT_MISSING.at(where, entry=entry, problem=problem)
