"""Trigger provider and event rules beyond the schemas: the provider's icon, the class files of
the provider and its events, and the classes the SDK needs in them.

Read from `dify_plugin` 0.10.2: `PluginRegistration._resolve_trigger_providers`
(`core/plugin_registration.py`) loads, when the plugin starts, the one `Trigger` subclass of the
provider's source, the `TriggerSubscriptionConstructor` subclasses of that same file, and the one
`Event` subclass of each event's source; `interfaces/trigger` declares the methods each must
define (`@abstractmethod`).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from packaging.version import InvalidVersion, Version

from generator.check import CheckContext
from generator.check.common import SourceRules, check_asset, check_source, documents, module_tree
from generator.check.provider import SOURCE_RULES as PROVIDER_SOURCE_RULES
from generator.check.sdk_classes import census, plain_subclass, unbound
from generator.findings import Finding, Location, Severity
from generator.kind_models.trigger import TriggerProvider
from generator.load.crawl import LoadedPlugin
from generator.load.values import dig
from generator.rules import rule

_E = Severity.ERROR
ICON_MISSING = rule(
    "E009",
    "trigger-icon-missing",
    _E,
    "trigger provider icon {path} does not exist",
    "Put the icon file into `_assets/` or correct its name; the name is relative to `_assets/`.",
    """
A trigger provider's `identity.icon` names a file in `_assets/`. The daemon's package check
(`CheckAssetsValid` in `pkg/plugin_packager/decoder/helper.go`) refuses the plugin when it is not
there ("trigger icon not found"). The daemon does not check `icon_dark`; a missing dark icon is a
warning: Dify shows no icon in dark mode.
""",
)
_SOURCE_DOC = """
The SDK loads each event's class from its `extra.python.source` when the plugin starts
(`_resolve_trigger_providers`: `load_single_subclass_from_source(module_name=..., parent_type=Event)`),
resolving the path as for tools (see T004, T005, T007 and T008): {what}
"""
EVENT_SOURCE_MISSING = rule(
    "E010",
    "event-source-missing",
    _E,
    "event class file {path} does not exist",
    "Create the file or correct `extra.python.source` (relative to the plugin folder).",
    _SOURCE_DOC.format(what="a missing file stops the plugin from starting."),
)
EVENT_SOURCE_NOT_PYTHON = rule(
    "E011",
    "event-source-not-python",
    _E,
    "event class file {path} is not a .py file, and no module of its name exists",
    "Point `extra.python.source` at the Python module that defines the event class.",
    _SOURCE_DOC.format(what="a file that is not Python has no loader, and the plugin does not start."),
)
EVENT_SOURCE_NOT_IMPORTABLE = rule(
    "E012",
    "event-source-not-importable",
    _E,
    "event class file {path} cannot be imported as module {module}: {problem}",
    "Use file and folder names without dots, under folders that are not also modules.",
    _SOURCE_DOC.format(
        what="`importlib.util.find_spec` of the module name made from the path fails, and the "
        "plugin does not start."
    ),
)
EVENT_SOURCE_BY_NAME = rule(
    "E013",
    "event-source-by-module-name",
    Severity.WARNING,
    "event class file {path} is not the file the SDK loads: module {module} is {loaded}",
    "Write `source: {loaded}`, the file that is actually loaded.",
    _SOURCE_DOC.format(
        what="the module name is looked up before the path, so the file named is not the code "
        "that runs. The plugin works."
    ),
)
EVENT_SOURCE_RULES = SourceRules(
    EVENT_SOURCE_MISSING, EVENT_SOURCE_NOT_PYTHON, EVENT_SOURCE_NOT_IMPORTABLE, EVENT_SOURCE_BY_NAME
)
NO_CLASS = rule(
    "E014",
    "trigger-class-missing",
    _E,
    "{path} {problem}: the SDK needs exactly one, so the plugin does not start",
    "{hint}",
    """
The SDK takes a class from a module by listing its namespace: `get_subclasses_from_module`
(`dify_plugin/core/utils/class_loader.py`) keeps every strict subclass of the base among
`vars(module).values()`, and `load_single_subclass_from_source` raises "Missing subclass of Event"
when there is none and "Multiple subclasses of Event" when there are several (imported ones count
too). `_resolve_trigger_providers` does this at start-up for the provider's source (base
`Trigger`) and for each event's source (base `Event`), so either failure stops the plugin. When
`subscription_constructor` is declared it also needs a `TriggerSubscriptionConstructor` subclass in
the provider's source ("Trigger subscription constructor configuration declared but no
implementation found"), and several are refused ("Multiple TriggerSubscriptionConstructor
subclasses found"); it looks nowhere else, not in `subscription_constructor.extra.python.source`.
A module is reported as lacking a class only when nothing it imports from the plugin's own modules
could bring one.
""",
)
ABSTRACT = rule(
    "E015",
    "trigger-method-missing",
    _E,
    "class {name} derives from dify_plugin's {base} but defines no {methods}: the SDK cannot create it "
    '("Can\'t instantiate abstract class"), so {effect}',
    "Define {methods} in {name} (see `dify_plugin/interfaces/trigger`).",
    """
`dify_plugin/interfaces/trigger` declares abstract methods: `Event._on_event` (turns the request
into the workflow's variables), `Trigger._dispatch_event` (checks a delivery and names its events),
and `TriggerSubscriptionConstructor._create_subscription`, `_delete_subscription` and
`_refresh_subscription`. Python refuses to create a class that leaves one undefined, so every
delivery to the event or the provider fails with a `TypeError`, or, for the constructor, every
subscription Dify creates for a user. The check reads the file without running it and reports only
a class whose one base is the SDK's class, whose body is plain methods and assignments, and that
binds the method nowhere in it.
""",
)

OLD_DIFY = rule(
    "E016",
    "trigger-on-older-dify",
    Severity.WARNING,
    "meta.minimum_dify_version {version} is older than 1.10.0, the first Dify with trigger plugins",
    "Set `meta.minimum_dify_version: 1.10.0` (or newer).",
    """
Trigger plugins came with Dify 1.10.0: older versions of Dify and of its plugin daemon do not read
`plugins: triggers:`, so a user of such a version can install nothing that works. A manifest whose
`meta.minimum_dify_version` is older tells that user the plugin fits; Dify's official trigger
plugins all set 1.10.0.
""",
)
_TRIGGERS_SINCE = Version("1.10.0")


@dataclass(frozen=True, slots=True)
class _Base:
    """One of the SDK's base classes a trigger plugin derives from, and what it requires."""

    name: str
    methods: tuple[str, ...]
    effect: str


_TRIGGER = _Base("Trigger", ("_dispatch_event",), "every delivery to the provider fails")
_CONSTRUCTOR = _Base(
    "TriggerSubscriptionConstructor",
    ("_create_subscription", "_delete_subscription", "_refresh_subscription"),
    "no subscription can be created, refreshed or deleted through Dify",
)
_EVENT = _Base("Event", ("_on_event",), "every delivery of the event fails")


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """The icon and class files of every trigger provider and event."""
    for _relative, document in documents(loaded, "triggers provider"):
        for field, severity in (("icon", None), ("icon_dark", Severity.WARNING)):
            yield from check_asset(
                loaded,
                document.at("identity", field),
                dig(document.data, "identity", field),
                ICON_MISSING,
                "trigger provider icon",
                severity,
            )
        yield from check_source(loaded, document, PROVIDER_SOURCE_RULES, "provider class file")
    for _relative, document in documents(loaded, "event"):
        yield from check_source(loaded, document, EVENT_SOURCE_RULES, "event class file")
    if loaded.plugin is None:
        return
    yield from _dify_version(loaded)
    for provider in loaded.plugin.parts_of(TriggerProvider):
        yield from _provider_classes(loaded, provider)
        done: set[str] = set()
        for event in provider.events:
            found = module_tree(loaded, event.source)
            if found is not None and found[0] not in done:
                done.add(found[0])
                yield from _classes(loaded, found, _EVENT, required=True)


def _dify_version(loaded: LoadedPlugin) -> Iterator[Finding]:
    plugin = loaded.plugin
    if plugin is None or not plugin.parts_of(TriggerProvider) or not plugin.minimum_dify_version:
        return
    try:
        version = Version(plugin.minimum_dify_version)
    except InvalidVersion:
        return  # the manifest's schema reports a malformed version
    if version < _TRIGGERS_SINCE:
        manifest = loaded.documents["manifest.yaml"]
        yield OLD_DIFY.at(manifest.at("meta", "minimum_dify_version"), version=plugin.minimum_dify_version)


def _provider_classes(loaded: LoadedPlugin, provider: TriggerProvider) -> Iterator[Finding]:
    found = module_tree(loaded, provider.source)
    if found is None:
        return
    yield from _classes(loaded, found, _TRIGGER, required=True)
    yield from _classes(loaded, found, _CONSTRUCTOR, required=provider.has_constructor, single=False)


def _classes(
    loaded: LoadedPlugin, found: tuple[str, ast.Module], base: _Base, required: bool, single: bool = True
) -> Iterator[Finding]:
    """The class of `base` in one module: present (when `required`), one only (when the SDK takes
    one: `single`, or a constructor, of which it refuses several too), and creatable."""
    file, tree = found
    where = Location(loaded.display_path(file), 1, 1)
    counted = census(tree, base.name, lambda node: _local(loaded, node))
    if len(counted.derived) > 1 and (single or base is _CONSTRUCTOR):
        names = ", ".join(node.name for node in counted.derived)
        first = counted.derived[1]
        yield NO_CLASS.at(
            Location(where.file, first.lineno, first.col_offset + 1),
            path=file,
            problem=f"defines several subclasses of dify_plugin's {base.name} ({names})",
            hint=f"Keep one subclass of {base.name} in the file; move shared code into a base that "
            "does not derive from it, or into another module.",
        )
        return
    if not counted.derived and required and not counted.uncertain:
        problem = f"defines no subclass of dify_plugin's {base.name}"
        yield NO_CLASS.at(where, path=file, problem=problem, hint=_hint(base))
        return
    node = plain_subclass(tree, base.name)
    missing = unbound(node, base.methods) if node is not None else ()
    if node is not None and missing:
        yield ABSTRACT.at(
            Location(where.file, node.lineno, node.col_offset + 1),
            name=node.name,
            base=base.name,
            methods=", ".join(f"`{method}`" for method in missing),
            effect=base.effect,
        )


def _hint(base: _Base) -> str:
    if base is _CONSTRUCTOR:
        return (
            "Define the TriggerSubscriptionConstructor subclass in the provider's source file "
            "(the SDK looks for it there only), or remove `subscription_constructor`."
        )
    return f"Define a class deriving from `dify_plugin.interfaces.trigger.{base.name}` in this file."


def _local(loaded: LoadedPlugin, node: ast.ImportFrom) -> bool:
    """True when `from ... import` reads one of the plugin's own modules (relative, or a top-level
    name that is a folder or module of the plugin)."""
    if node.level:
        return True
    top = (node.module or "").split(".")[0]
    return bool(top) and (loaded.reader.is_dir(top) or loaded.reader.is_file(f"{top}.py"))
