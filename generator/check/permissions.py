"""Calls into Dify that the manifest does not grant (M016).

A plugin reaches back into Dify through its session (`self.session.model.llm.invoke`,
`self.session.storage.set`, `self.session.tool.invoke`...). The plugin daemon checks each such call
against the permissions the plugin's manifest asks for, and refuses one it does not grant, each time
it is made. A run here has no Dify to call, so only the code and the manifest can show it.
"""

from __future__ import annotations

from collections.abc import Iterable

from generator.check import CheckContext
from generator.check.common import documents
from generator.check.sdk_calls import sdk_object_calls
from generator.findings import Finding, Severity
from generator.load.crawl import LoadedPlugin
from generator.load.values import dig
from generator.rules import Phrase, rule

PERMISSION_NOT_GRANTED = rule(
    "M016",
    "permission-not-granted",
    Severity.ERROR,
    "{call}(...) needs the manifest's {needs!s}, which {manifest} does not grant: the plugin daemon"
    ' refuses the call ("permission denied, you need to enable {access} access in plugin manifest")'
    " each time it is made, whatever the inputs{caught!s}",
    "Grant it in {manifest}: {grant!s}.",
    """
The plugin daemon answers a plugin's call into Dify (`dify-plugin-daemon`,
`internal/core/plugin_daemon/backwards_invocation/task.go`, `InvokeDify`) only after
`checkPermission(declaration, requestHandle)`: a table maps each kind of call to a test of the
manifest's `resource.permission` and to the error it writes back, e.g. for an LLM call
`declaration.Resource.Permission.AllowInvokeLLM()`, which is `p.Model != nil && p.Model.Enabled &&
p.Model.LLM`, else "permission denied, you need to enable llm access in plugin manifest". The SDK
raises that error in the plugin. So a tool that calls `self.session.model.llm.invoke(...)` with a
manifest that does not set `resource.permission.model.enabled: true` and `llm: true` fails at that
line for every user. The kinds, as the daemon maps them: `session.model.llm`,
`llm_structured_output` and `summary` need `model.llm`; `text_embedding`, `rerank`, `tts`,
`speech2text` and `moderation` need the model key of that name; `session.tool` needs `tool.enabled`;
`session.app` (chat, completion, workflow, fetching an app) needs `app.enabled`;
`session.workflow_node` (parameter extractor, question classifier) needs `node.enabled`;
`session.storage` needs `storage.enabled`. `session.file.upload` needs nothing.

The check reads the calls the SDK's objects receive in the modules the SDK loads (as R083 does), and
the manifest's permission values as Dify's YAML reader gives them: only `true` grants; a value that
is not a boolean is left to the manifest's own checks. Inside a `try` whose handler catches every
exception, or in an `except` handler's body, it is a warning: the tool then answers with its
handler each time, a feature that never works rather than a tool that fails.
""",
)
# session path prefix -> (manifest keys under resource.permission, the daemon's word for it)
NEEDS: dict[str, tuple[tuple[str, ...], str]] = {
    "session.model.llm": (("model", "llm"), "llm"),
    "session.model.llm_structured_output": (("model", "llm"), "llm"),
    "session.model.summary": (("model", "llm"), "llm"),
    "session.model.text_embedding": (("model", "text_embedding"), "text-embedding"),
    "session.model.rerank": (("model", "rerank"), "rerank"),
    "session.model.tts": (("model", "tts"), "tts"),
    "session.model.speech2text": (("model", "speech2text"), "speech2text"),
    "session.model.moderation": (("model", "moderation"), "moderation"),
    "session.tool": (("tool",), "tool"),
    "session.app": (("app",), "app"),
    "session.workflow_node": (("node",), "node"),
    "session.storage": (("storage",), "storage"),
}


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """M016 at each call into Dify whose permission the manifest does not grant."""
    manifest = next(documents(loaded, "manifest"), None)
    if manifest is None or loaded.plugin is None:
        return
    relative, document = manifest
    permission = dig(document.data, "resource", "permission")
    for found in sdk_object_calls(loaded):
        needed = _needed(found.path)
        if needed is None:
            continue
        keys, access = needed
        granted = _granted(permission, keys)
        if granted is not False:
            continue
        yield found.finding(
            PERMISSION_NOT_GRANTED,
            "the daemon's refusal",
            needs=Phrase(_needs(keys)),
            manifest=loaded.display_path(relative),
            access=access,
            grant=Phrase(_grant(keys)),
        )


def _needed(path: str) -> tuple[tuple[str, ...], str] | None:
    for prefix, needed in NEEDS.items():
        if path == prefix or path.startswith(prefix + "."):
            return needed
    return None


def _granted(permission: object, keys: tuple[str, ...]) -> bool | None:
    """True when the manifest grants it, False when it does not, None when a value on the way is not
    what Dify's reader takes (a string for a boolean: the manifest's own checks say so)."""
    group = dig(permission, keys[0]) if isinstance(permission, dict) else None
    if group is None:
        return False
    if not isinstance(group, dict):
        return None
    values = [group.get("enabled"), *(group.get(key) for key in keys[1:])]
    if any(value is not None and not isinstance(value, bool) for value in values):
        return None
    return all(value is True for value in values)


def _needs(keys: tuple[str, ...]) -> str:
    group = f"`resource.permission.{keys[0]}`"
    return (
        f"{group} with `enabled: true` and `{keys[1]}: true`"
        if len(keys) > 1
        else f"{group} with `enabled: true`"
    )


def _grant(keys: tuple[str, ...]) -> str:
    inner = f"enabled: true, {keys[1]}: true" if len(keys) > 1 else "enabled: true"
    return f"`resource: permission: {keys[0]}: {{{inner}}}`"
