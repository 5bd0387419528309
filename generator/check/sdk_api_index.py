"""The names a plugin takes from `dify_plugin` itself: what `from dify_plugin import X` can import,
the attributes of the SDK's `Plugin` (what `main.py` calls) and of its `Tool` (what a tool's
`self` has from the SDK), and the parameters `Tool.__init__` requires, in the published releases.

`sdk_api_index.json` (beside this module) holds, for each release read, the names the package's
`__init__.py` binds with its submodules, and the attributes of `Plugin` (`dify_plugin/plugin.py`,
with those of its base classes found in the wheel, and what its methods store on `self`), and the
signatures of what a plugin's `self` calls on the SDK's base classes (`sdk_signatures.py`), and
under "modules" every module of the package with the names it binds (`sdk_modules.py`):
`python -m generator.check.sdk_api_index WHEEL...` (run by Python 3.12 or later: the wheels from
0.8 on use its syntax) writes it again from the wheels (the committed
index was read from 17 releases, 0.0.1b15 to 0.10.2). Releases between two read ones are not
known name by name: a check takes the releases up to the first read one at or after the version
the plugin installs.
"""

from __future__ import annotations

import ast
import json
import sys
import zipfile
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from packaging.version import Version

from generator.check.sdk_modules import derive_modules, merge_modules, modules_upto
from generator.check.sdk_signatures import Signature, derive_signatures, in_releases, window
from generator.check.undeclared import class_members

INDEX = Path(__file__).with_name("sdk_api_index.json")
PACKAGE = "dify_plugin"
PLUGIN_MODULE = "dify_plugin/plugin.py"
# What pydantic's `BaseModel` and pydantic-settings' `BaseSettings` give an instance beside the
# `model_*` names (the methods pydantic 2 keeps from pydantic 1, deprecated but still there).
PYDANTIC_MEMBERS = frozenset(
    {
        "construct",
        "copy",
        "dict",
        "from_orm",
        "json",
        "parse_file",
        "parse_obj",
        "parse_raw",
        "schema",
        "schema_json",
        "settings_customise_sources",
        "update_forward_refs",
        "validate",
    }
)
# Bases that give a class nothing a plugin would call.
_PLAIN_BASES = frozenset({"object", "ABC", "Generic"})


@cache
def _data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(INDEX.read_text(encoding="utf-8"))
    return data


@cache
def _releases() -> tuple[dict[str, Any], ...]:
    return tuple(_data()["releases"])


def _upto(version: Version | None) -> tuple[dict[str, Any], ...]:
    """The releases read up to the first read release at or after `version` (all when it is None
    or newer than every one read): a name none of them has is not in `version` either, names being
    added over time (one removed later stays found in the releases before)."""
    releases = _releases()
    if version is None:
        return releases
    later = [i for i, release in enumerate(releases) if Version(release["version"]) >= version]
    return releases[: later[0] + 1] if later else releases


def oldest_release() -> Version:
    """The oldest release read: `package_names` and `plugin_attributes` of it are the fewest those of
    any version are (each takes the releases up to one, and always this one)."""
    return Version(_releases()[0]["version"])


def package_names(version: Version | None = None) -> frozenset[str]:
    """Every name `from dify_plugin import NAME` imports in some release read (up to `version`,
    see `_upto`)."""
    return frozenset(name for release in _upto(version) for name in release["package"])


@cache
def sdk_modules(version: Version | None = None) -> dict[str, frozenset[str] | None]:
    """Every module of dify_plugin (dotted, `dify_plugin` itself among them) in some release read
    up to `version` (see `_upto`), with every name one of those releases binds in it; None for a
    module whose names are unknown (see `sdk_modules.py`)."""
    releases = _upto(version)
    return modules_upto(_data()["modules"], Version(releases[-1]["version"]) if version else None)


def first_release(module: str, name: str | None = None) -> str | None:
    """The first release read whose `module` exists (binds `name`, or has it as a submodule, when
    one is given); None when no release read has it."""
    entries = _data()["modules"]
    if name is not None and f"{module}.{name}" in entries:
        return str(entries[f"{module}.{name}"]["since"])
    entry = entries.get(module)
    if entry is None or name is None:
        return None if entry is None else str(entry["since"])
    names = entry["names"] or {}
    return next((since for since, added in names.items() if name in added), None)


def plugin_attributes(version: Version | None = None) -> frozenset[str] | None:
    """Every attribute of `Plugin` in some release read (up to `version`); None when a release's
    could not be read whole (a base class outside the wheel)."""
    found: set[str] = set()
    for release in _upto(version):
        if release["plugin"] is None:
            return None
        found.update(release["plugin"])
    return frozenset(found)


def tool_attributes() -> frozenset[str] | None:
    """Every attribute of the SDK's `Tool` in any release read (a tool's `self` may use any of them,
    whichever release it installs); None when a release's could not be read whole."""
    found: set[str] = set()
    for release in _releases():
        if release.get("tool") is None:
            return None
        found.update(release["tool"])
    return frozenset(found)


def env_attributes(version: Version | None = None) -> frozenset[str] | None:
    """Every attribute of `DifyPluginEnv` in some release read (up to `version`): its own settings
    and methods, and those of its base, pydantic-settings' `BaseSettings` (`PYDANTIC_MEMBERS`, and
    any `model_*` name); None when a release's could not be read."""
    found: set[str] = set(PYDANTIC_MEMBERS)
    for release in _upto(version):
        if release.get("env") is None:
            return None
        found.update(release["env"])
    return frozenset(found)


def tool_init(version: Version | None = None) -> list[str] | None:
    """The parameters `Tool.__init__` requires in every release read up to `version` (see `_upto`):
    the fewest any of them requires; None when one release's could not be read."""
    required: list[str] | None = None
    for release in _upto(version):
        names = release.get("tool_init")
        if names is None:
            return None
        required = names if required is None or len(names) < len(required) else required
    return required


def release_versions() -> tuple[Version, ...]:
    """The releases read, oldest first."""
    return tuple(Version(release["version"]) for release in _releases())


def signatures(cls: str, path: str, version: Version | None) -> list[tuple[str, Signature]] | None:
    """The signatures of the method at dotted `path` of the SDK's class `cls` (see
    `sdk_signatures.py`) in the releases read that `version` may have, one per release; None when
    one of those releases lacks it (a name no release has is another check's)."""
    releases = window(_releases(), version)
    found = in_releases(releases, cls, path)
    return found if found and len(found) == len(releases) else None


def signatures_anywhere(cls: str, path: str) -> list[tuple[str, Signature]]:
    """The signatures of the method at dotted `path` of the SDK's class `cls` in every release read
    that has it."""
    return in_releases(_releases(), cls, path)


def derive(wheels: list[Path]) -> dict[str, object]:
    """The index, one entry per wheel, oldest release first."""
    releases = []
    modules = []
    for wheel in sorted(wheels, key=lambda path: Version(path.name.split("-")[1])):
        with zipfile.ZipFile(wheel) as archive:
            members = set(archive.namelist())

            def read(member: str, archive: zipfile.ZipFile = archive, held: set[str] = members) -> str | None:
                return archive.read(member).decode() if member in held else None

            package = sorted(_package_names(members, read(f"{PACKAGE}/__init__.py") or ""))
            plugin = _plugin_attributes(read)
            tool = _tool_attributes(members, read)
            tool_init = _tool_init(members, read)
            env = _env_fields(members, read)
            signatures = derive_signatures(members, read)
            modules.append((wheel.name.split("-")[1], derive_modules(members, read)))
        releases.append(
            {
                "version": wheel.name.split("-")[1],
                "package": package,
                "plugin": sorted(plugin) if plugin else None,
                "tool": sorted(tool) if tool else None,
                "tool_init": tool_init,
                "env": env,
                "signatures": signatures,
            }
        )
    return {"releases": releases, "modules": merge_modules(modules)}


def _package_names(members: set[str], init_source: str) -> set[str]:
    """Names the package's `__init__.py` binds, and its submodules and subpackages."""
    names: set[str] = set()
    for statement in ast.parse(init_source).body:
        if isinstance(statement, ast.Import | ast.ImportFrom):
            names.update((alias.asname or alias.name).split(".")[0] for alias in statement.names)
        elif isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(statement.name)
        elif isinstance(statement, ast.Assign | ast.AnnAssign):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            names.update(t.id for target in targets for t in ast.walk(target) if isinstance(t, ast.Name))
    for member in members:
        parts = member.split("/")
        if len(parts) >= 2 and parts[0] == PACKAGE:
            name = parts[1].removesuffix(".py")
            if name.isidentifier() and not parts[1].endswith((".pyi", ".typed")):
                names.add(name)
    return names


def _plugin_attributes(read: Callable[[str], str | None]) -> set[str] | None:
    source = read(PLUGIN_MODULE)
    return _class_attributes(read, PLUGIN_MODULE, source, "Plugin") if source else None


def _tool_attributes(members: set[str], read: Callable[[str], str | None]) -> set[str] | None:
    """The attributes of the module-level class `Tool` of the package, wherever the release keeps it."""
    found = _tool_module(members, read)
    return _class_attributes(read, found[0], found[1], "Tool") if found else None


def _tool_init(members: set[str], read: Callable[[str], str | None]) -> list[str] | None:
    """The parameters `Tool.__init__` requires (after `self`, positional, no default); None when
    the class defines no `__init__` of its own or takes `*args`/`**kwargs`."""
    found = _tool_module(members, read)
    body = ast.parse(found[1]).body if found else []
    node = next((s for s in body if isinstance(s, ast.ClassDef) and s.name == "Tool"), None)
    init = class_members(node).get("__init__", []) if node else []
    method = init[-1] if init else None
    if not isinstance(method, ast.FunctionDef) or method.args.vararg or method.args.kwarg:
        return None
    positional = [*method.args.posonlyargs, *method.args.args][1:]
    return [arg.arg for arg in positional[: len(positional) - len(method.args.defaults)]]


def _env_fields(members: set[str], read: Callable[[str], str | None]) -> list[str] | None:
    """What the class body of `DifyPluginEnv` binds (its settings and methods); what its pydantic
    base gives is not in the wheel (`env_attributes` adds it)."""
    found = _tool_module(members, read, "DifyPluginEnv")
    body = ast.parse(found[1]).body if found else []
    node = next((s for s in body if isinstance(s, ast.ClassDef) and s.name == "DifyPluginEnv"), None)
    return sorted(class_members(node)) if node else None


def _tool_module(
    members: set[str], read: Callable[[str], str | None], name: str = "Tool"
) -> tuple[str, str] | None:
    """The wheel member that defines the module-level class `name`, and its source."""
    for member in sorted(members):
        source = read(member) if member.startswith(f"{PACKAGE}/") and member.endswith(".py") else None
        if source and f"\nclass {name}(" in source:
            return member, source
    return None


def _class_attributes(
    read: Callable[[str], str | None], path: str, source: str, name: str
) -> set[str] | None:
    """The attributes of class `name` of the module at `path`, its bases' included; None when a
    base is not in the wheel or the class looks attributes up itself."""
    tree = ast.parse(source)
    node = next((s for s in tree.body if isinstance(s, ast.ClassDef) and s.name == name), None)
    if node is None:
        return None
    found = set(class_members(node))
    if "__getattr__" in found or "__getattribute__" in found:
        return None
    for method in node.body:
        if isinstance(method, ast.FunctionDef | ast.AsyncFunctionDef) and method.args.args:
            own = method.args.args[0].arg
            found.update(
                n.attr
                for n in ast.walk(method)
                if isinstance(n, ast.Attribute)
                and isinstance(n.value, ast.Name)
                and n.value.id == own
                and not isinstance(n.ctx, ast.Load)
            )
    for base in node.bases:
        base_name = (
            base.value.id if isinstance(base, ast.Subscript) and isinstance(base.value, ast.Name) else None
        )
        base_name = base_name or (base.id if isinstance(base, ast.Name) else None)
        if base_name in _PLAIN_BASES:
            continue
        if base_name and any(isinstance(s, ast.ClassDef) and s.name == base_name for s in tree.body):
            inherited = _class_attributes(read, path, source, base_name) if base_name != name else None
            if inherited is None:
                return None
            found |= inherited
            continue
        where = _imported_from(path, tree, base_name) if base_name else None
        module = read(where) if where else None
        inherited = (
            _class_attributes(read, where, module, base_name) if where and module and base_name else None
        )
        if inherited is None:
            return None
        found |= inherited
    return found


def _imported_from(path: str, tree: ast.Module, name: str) -> str | None:
    """The wheel member that `from dify_plugin.x import name` (or `from .x import name`) in the
    module at `path` names."""
    imports = [s for s in tree.body if isinstance(s, ast.ImportFrom) and s.module]
    for statement in imports:
        if any((alias.asname or alias.name) == name for alias in statement.names):
            package = path.split("/")[:-1]
            base = package[: len(package) - statement.level + 1] if statement.level else []
            return "/".join([*base, *(statement.module or "").split(".")]) + ".py"
    return None


if __name__ == "__main__":
    index = derive([Path(argument) for argument in sys.argv[1:]])
    INDEX.write_text(json.dumps(index, indent=1) + "\n", encoding="utf-8")
