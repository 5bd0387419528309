"""Run by the interpreter of an environment that has `dify_plugin`: asks the real SDK whether it
accepts each plugin folder named on stdin (a JSON list) and writes one JSON verdict per folder to
the file named by its argument (stdout is the SDK's logger's).

What it runs is the SDK's own start-up, up to the point where plugin code would execute:
`PluginRegistration._load_plugin_configuration` (the manifest, every provider and every tool or
datasource YAML, read into the SDK's pydantic models), then, for every `extra.python.source` of a
tool provider, tool, datasource provider, datasource, trigger provider and event, the module lookup of
`import_module_from_source`: `importlib.util.find_spec` of the module name the SDK derives (suffix
dropped, `/` to `.`), else `spec_from_file_location` on the file, which must exist for
`exec_module` to succeed. Executing the modules is the runner's part, not the validator's.

Only the standard library and the SDK are imported: this file runs outside the project."""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import sys
from pathlib import Path
from typing import Any

from dify_plugin.core import plugin_registration
from dify_plugin.core.plugin_registration import PluginRegistration


def _empty_registration() -> PluginRegistration:
    """A registration with the lists `PluginRegistration.__init__` sets before it loads anything."""
    registration = PluginRegistration.__new__(PluginRegistration)
    for name in (
        "tools_configuration",
        "models_configuration",
        "endpoints_configuration",
        "agent_strategies_configuration",
        "datasource_configuration",
        "triggers_configuration",
    ):
        setattr(registration, name, [])
    return registration


def _sources(registration: PluginRegistration) -> list[str]:
    """Every `extra.python.source` the SDK resolves to a class at start-up."""
    named: list[str] = []
    for provider in registration.tools_configuration:
        named.append(provider.extra.python.source)
        named.extend(tool.extra.python.source for tool in provider.tools)
    for source_provider in registration.datasource_configuration:
        named.append(source_provider.extra.python.source)
        named.extend(datasource.extra.python.source for datasource in source_provider.datasources)
    for trigger_provider in registration.triggers_configuration:
        named.append(trigger_provider.extra.python.source)
        named.extend(event.extra.python.source for event in trigger_provider.events)
    return named


def _lookup_problem(source: str) -> str | None:
    """Why `import_module_from_source` would fail before executing the module, or None."""
    module = plugin_registration._source_to_module_name(source)
    try:
        found = importlib.util.find_spec(module)
    except (ImportError, ValueError) as error:
        # find_spec imports the parent packages; the SDK lets this propagate
        return f"find_spec({module!r}): {error}"
    if found is not None:
        return None if found.loader else f"no loader for {module}"
    script = plugin_registration._source_to_script_path(source)
    spec = importlib.util.spec_from_file_location(module, script)
    if spec is None or spec.loader is None:
        return f"no module {module} and {source} cannot be loaded as a file"
    if not Path(script).is_file():
        return f"no module {module} and no file {source}"
    return None


def verdict(folder: str) -> dict[str, Any]:
    """The SDK's verdict on one plugin folder: accepted, or the reason it refuses."""
    os.chdir(folder)
    sys.path.insert(0, folder)
    before = set(sys.modules)
    try:
        registration = _empty_registration()
        try:
            registration._load_plugin_configuration()
        except Exception as error:
            return {"folder": folder, "refused": f"configuration: {error}"[:2000]}
        for source in _sources(registration):
            problem = _lookup_problem(source)
            if problem:
                return {"folder": folder, "refused": f"class lookup: {problem}"[:2000]}
        return {"folder": folder, "refused": None}
    finally:
        # the next plugin has modules of the same names (tools, provider): forget this one's
        for name in set(sys.modules) - before:
            del sys.modules[name]
        sys.path.remove(folder)
        sys.path_importer_cache.clear()
        importlib.invalidate_caches()


def main() -> None:
    folders = json.load(sys.stdin)
    verdicts = [verdict(folder) for folder in folders]
    Path(sys.argv[1]).write_text(json.dumps(verdicts), encoding="utf-8")


if __name__ == "__main__":
    main()
