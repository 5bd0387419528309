"""Changes of a plugin between two versions above its tools: identity, providers, tools added or
removed, provider credentials, and the manifest facts an installation depends on."""

from __future__ import annotations

from collections.abc import Iterator

from generator.diff.changes import Change, change_rule
from generator.diff.events import event_changes
from generator.diff.interface import Face
from generator.diff.tools import tool_changes
from generator.diff.version import parse_version
from generator.findings import Finding
from generator.load.values import dig
from generator.plugin_model import Provider
from generator.rules import Listing

IDENTITY_CHANGED = change_rule(
    "D001",
    "plugin-identity-changed",
    Change.BREAKING,
    "the plugin's {field} changed from {old} to {new}",
    "Keep author and name: Dify identifies a plugin by them, so this is a different plugin.",
    """
Dify names a plugin `author/name`; workflows refer to its tools through that identity. With
another author or name, the new version does not upgrade the old one, and every workflow keeps
pointing at the old plugin.
""",
)
TOOL_REMOVED = change_rule(
    "D002",
    "tool-removed",
    Change.BREAKING,
    "tool {tool} was removed",
    "Keep the tool (it may delegate to its replacement), or release the change as a major version.",
    """
Workflow nodes name the tool by provider and tool name; after the upgrade they point at nothing.
""",
)
TOOL_ADDED = change_rule(
    "D003",
    "tool-added",
    Change.COMPATIBLE,
    "tool {tool} was added",
    "Release it as a minor version.",
    """
A new tool; existing workflows do not use it.
""",
)
PROVIDER_REMOVED = change_rule(
    "D004",
    "provider-removed",
    Change.BREAKING,
    "provider {name} was removed (with its tools {tools})",
    "Keep the provider, or release the change as a major version.",
    """
Workflows and the credentials users stored belong to the provider; without it both are gone.
""",
)
PROVIDER_ADDED = change_rule(
    "D005",
    "provider-added",
    Change.COMPATIBLE,
    "provider {name} was added",
    "Release it as a minor version.",
    """
A new provider; existing workflows do not use it.
""",
)
CREDENTIAL_ADDED_REQUIRED = change_rule(
    "D040",
    "required-credential-added",
    Change.BREAKING,
    "provider {provider} asks for the new required credential {name}",
    "Make the credential optional, or release the change as a major version.",
    """
Users authorised the provider with the old credentials; a new required one leaves every existing
authorisation incomplete until someone enters it.
""",
)
CREDENTIAL_ADDED = change_rule(
    "D041",
    "credential-added",
    Change.COMPATIBLE,
    "provider {provider} has the new optional credential {name}",
    "Release it as a minor version.",
    """
Existing authorisations stay valid; the new field is empty.
""",
)
CREDENTIAL_REMOVED = change_rule(
    "D042",
    "credential-removed",
    Change.NOTE,
    "credential {name} of provider {provider} was removed",
    "Nothing breaks: stored values are ignored. Say so in the release notes.",
    """
The value users stored is no longer read.
""",
)
CREDENTIAL_TYPE_CHANGED = change_rule(
    "D043",
    "credential-type-changed",
    Change.BREAKING,
    "credential {name} of provider {provider} changed type from {old} to {new}",
    "Add a credential of the new type instead, or release the change as a major version.",
    """
The value users stored was entered for the old type (a text where a choice or a secret is now expected).
""",
)
CREDENTIAL_MADE_REQUIRED = change_rule(
    "D044",
    "credential-made-required",
    Change.BREAKING,
    "credential {name} of provider {provider} is now required",
    "Keep it optional, or release the change as a major version.",
    """
Authorisations that left the field empty are incomplete after the upgrade.
""",
)
MINIMUM_DIFY_RAISED = change_rule(
    "D050",
    "minimum-dify-raised",
    Change.BREAKING,
    "meta.minimum_dify_version was raised from {old} to {new}",
    "Release it as a major version: installations on an older Dify cannot upgrade.",
    """
Dify refuses to install a plugin that needs a newer Dify: installations on the versions in between
are left behind.
""",
)
PERMISSION_ADDED = change_rule(
    "D051",
    "permission-added",
    Change.COMPATIBLE,
    "the plugin asks for the new permission {name}",
    "Say why in the release notes; release it as at least a minor version.",
    """
The plugin can now do more (invoke models, use storage, ...): administrators see the new
permission when they upgrade.
""",
)
KIND_REMOVED = change_rule(
    "D052",
    "plugin-kind-removed",
    Change.BREAKING,
    "the plugin no longer provides {kind}",
    "Keep the kind, or release the change as a major version.",
    """
Everything users built on that kind of extension (tools, models, endpoints, ...) is gone.
""",
)
KIND_ADDED = change_rule(
    "D053",
    "plugin-kind-added",
    Change.COMPATIBLE,
    "the plugin now also provides {kind}",
    "Release it as a minor version.",
    """
A new kind of extension; existing uses are untouched.
""",
)
RUNNER_CHANGED = change_rule(
    "D054",
    "runner-changed",
    Change.NOTE,
    "meta.runner.{field} changed from {old} to {new}",
    "Check that the plugin starts with the new runner; say so in the release notes.",
    """
The plugin's code runs differently (another Python version or entry point); workflows are not
affected when it still starts.
""",
)


def plugin_changes(old: Face, new: Face) -> Iterator[Finding]:
    """Every interface change from `old` to `new`."""
    for field in ("author", "name"):
        before, after = getattr(old.plugin, field), getattr(new.plugin, field)
        if before != after:
            yield IDENTITY_CHANGED.at(new.manifest_at(field), field=field, old=before, new=after)
    yield from _providers(old, new)
    for key, was in old.tools.items():
        now = new.tools.get(key)
        if now is not None:
            yield from tool_changes(was, now)
        elif key[0] in new.providers:
            yield TOOL_REMOVED.at(was.tool.origin, tool="/".join(key))
    for key, now in new.tools.items():
        if key not in old.tools and key[0] in old.providers:
            yield TOOL_ADDED.at(now.tool.origin, tool="/".join(key))
    yield from event_changes(old, new)
    yield from _manifest(old, new)


def _providers(old: Face, new: Face) -> Iterator[Finding]:
    for name, was in old.providers.items():
        now = new.providers.get(name)
        if now is None:
            tools = Listing([tool.name for tool in was.tools])
            yield PROVIDER_REMOVED.at(was.origin, name=name, tools=tools)
        else:
            yield from _credentials(was, now)
    for name, now in new.providers.items():
        if name not in old.providers:
            yield PROVIDER_ADDED.at(now.origin, name=name)


def _credentials(old: Provider, new: Provider) -> Iterator[Finding]:
    before = {c.name: c for c in old.credentials}
    after = {c.name: c for c in new.credentials}
    for name, was in before.items():
        now = after.get(name)
        if now is None:
            yield CREDENTIAL_REMOVED.at(was.origin, name=name, provider=old.name)
            continue
        if was.type != now.type:
            yield CREDENTIAL_TYPE_CHANGED.at(
                now.origin, name=name, provider=new.name, old=was.type, new=now.type
            )
        if now.required and not was.required:
            yield CREDENTIAL_MADE_REQUIRED.at(now.origin, name=name, provider=new.name)
    for name, now in after.items():
        if name not in before:
            kind = CREDENTIAL_ADDED_REQUIRED if now.required else CREDENTIAL_ADDED
            yield kind.at(now.origin, name=name, provider=new.name)


def _manifest(old: Face, new: Face) -> Iterator[Finding]:
    before, after = old.plugin.minimum_dify_version, new.plugin.minimum_dify_version
    if _raised(before, after):
        where = new.manifest_at("meta", "minimum_dify_version")
        yield MINIMUM_DIFY_RAISED.at(where, old=before or "none", new=after)
    for name, where in new.permissions.items():
        if name not in old.permissions:
            yield PERMISSION_ADDED.at(where, name=name)
    for kind in old.plugin.kinds:
        if kind not in new.plugin.kinds:
            yield KIND_REMOVED.at(old.manifest_at("plugins", kind), kind=kind)
    for kind in new.plugin.kinds:
        if kind not in old.plugin.kinds:
            yield KIND_ADDED.at(new.manifest_at("plugins", kind), kind=kind)
    for field in ("language", "version", "entrypoint"):
        was, now = _runner(old, field), _runner(new, field)
        if was != now:
            yield RUNNER_CHANGED.at(new.manifest_at("meta", "runner", field), field=field, old=was, new=now)


def _raised(before: str, after: str) -> bool:
    """True when `after` needs a newer Dify than `before` (a minimum appearing counts)."""
    now = parse_version(after)
    if now is None:
        return False
    was = parse_version(before)
    return was is None or now > was


def _runner(face: Face, field: str) -> str:
    value = dig(face.manifest.data, "meta", "runner", field)
    return str(value) if value is not None else "none"
