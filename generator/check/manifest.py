"""Manifest rules beyond the schema: plugin kinds, icons, README, entrypoint, creation time,
package size."""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime

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


CREATED_AT_NOT_A_TIME = rule(
    "M017",
    "created-at-not-a-time",
    Severity.ERROR,
    "created_at `{value}` is not a date and time{why!s}: the daemon and the SDK both refuse the manifest,"
    " so the plugin cannot be installed",
    'Write the creation time in RFC 3339, as `dify plugin init` does: `created_at: "2025-03-27T08:03:44Z"`.',
    """
The daemon reads `created_at` into a Go `time.Time` (`pkg/entities/plugin_entities/
plugin_declaration.go`: the field `CreatedAt time.Time` tagged `yaml:"created_at,omitempty"`): a
YAML timestamp is taken as one, and a quoted string is parsed by `time.Time.UnmarshalText`, which
takes RFC 3339 only; a value that is no time fails the decoding of the whole manifest, and the
package is refused. The SDK's own copy of the manifest is a pydantic model whose `created_at` is a
`datetime.datetime` (`dify_plugin/core/entities/plugin/setup.py`); tried with SDK 0.10.2,
`"2025-03-227T08:03:44Z"` raises ValidationError ("Input should be a valid datetime or date"). The
check reports only values no reader of dates would take (a day 227, a month 13, text): a timestamp
in another layout YAML knows (`2025-03-27 08:03:44`) is left alone.
""",
)
# A date, optionally with a time and a zone, in the layouts YAML's timestamps allow.
_TIMESTAMP = re.compile(
    r"(\d{4})-(\d{1,2})-(\d{1,2})"
    r"(?:[Tt ]|\s+)?(?:(\d{1,2}):(\d{2}):(\d{2})(?:\.\d+)?\s*(?:[Zz]|[+-]\d{1,2}(?::?\d{2})?)?)?"
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
        yield from _created_at(manifest)
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


def _created_at(manifest: YamlDocument) -> Iterable[Finding]:
    value = manifest.data.get("created_at")
    if not isinstance(value, str):
        return  # missing or of another type: the schema says so
    why = _not_a_time(value.strip())
    if why is not None:
        yield CREATED_AT_NOT_A_TIME.at(manifest.at("created_at"), value=value, why=Phrase(why))


def _not_a_time(value: str) -> str | None:
    """Why `value` is no date and time (a phrase, "" when no part can be named), None when it is one."""
    match = _TIMESTAMP.fullmatch(value)
    if match is None:
        return ""
    year, month, day, hour, minute, second = (int(part or 0) for part in match.groups())
    try:
        datetime(year, month, day, hour, minute, second)
    except ValueError as error:
        return f" ({error})"
    return None
