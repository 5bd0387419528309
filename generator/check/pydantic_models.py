"""pydantic models constructed with arguments they refuse or drop (R120, R121, R122).

The SDK's messages (`ToolInvokeMessage`, `ToolInvokeMessage.TextMessage`, ...) are pydantic models:
`ToolInvokeMessage.TextMessage("hi")` fails with TypeError (pydantic's `BaseModel.__init__` takes
keywords only), and `ToolInvokeMessage.BlobMessage(blob=b, meta={...})` keeps the blob and drops
`meta` without a word (the models ignore unknown keywords). A plugin's own model whose field has an
`alias` takes the value under that alias only: `Request(start=1)` for `start: int = Field(alias=
"from")` leaves `start` at its default. All found without running, at the construction.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from generator.check import CheckContext
from generator.check.common import children, every_node
from generator.check.dead_code import unreached_functions
from generator.check.own_attributes import on_every_call
from generator.check.plugin_code import PluginCode, imported_module, plugin_code
from generator.check.sdk_calls import loaded_modules
from generator.check.sdk_file import own_nodes
from generator.check.sdk_names import bound_names, sdk_imports
from generator.check.undeclared import constant
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.rules import Listing, Phrase, rule

POSITIONAL = rule(
    "R120",
    "sdk-model-positional",
    Severity.ERROR,
    "{call}: the SDK's {model} is a pydantic model, whose constructor takes keywords only, so it fails"
    ' with TypeError ("BaseModel.__init__() takes 1 positional argument"){when!s}',
    "{fix!s}",
    """
The SDK's messages are pydantic models (`dify_plugin/entities/invoke_message.py` in 0.10.2,
`dify_plugin/entities/tool.py` before 0.5.0):

    class InvokeMessage(BaseModel):
        class TextMessage(BaseModel):
            text: str
        ...
        type: MessageType
        message: TextMessage | JsonMessage | ... | None
        meta: dict | None = None

and `ToolInvokeMessage`, `AgentInvokeMessage` and `DatasourceMessage` derive from it adding
nothing. pydantic's `BaseModel.__init__(self, /, **data)` takes no positional argument: with SDK
0.10.2 (pydantic 2), `ToolInvokeMessage.TextMessage("hi")` and `ToolInvokeMessage(
self.create_text_message("x"))` both raise `TypeError: BaseModel.__init__() takes 1 positional
argument but 2 were given` (pydantic 1's `__init__(__pydantic_self__, **data)` refuses them
alike). A message helper already returns the whole message: `yield self.create_text_message("x")`;
a message made by hand names its fields: `ToolInvokeMessage(type=ToolInvokeMessage.MessageType.TEXT,
message=ToolInvokeMessage.TextMessage(text="x"))`.

An error where the line runs on every call of its function (no branch, loop, handler or
short-circuit before it, as T012 grades it), else a warning: the calls that reach it fail. The
models are those of every release read (0.0.1b15, 0.0.1b40, 0.0.1b60, 0.1.0, 0.3.0, 0.5.0, 0.10.2:
the same fields in each, `LogMessage` from 0.0.1b60 and `RetrieverResourceMessage` from 0.3.0;
`AgentInvokeMessage` derived from `ToolInvokeMessage` before 0.5.0), named as the module imports
them from `dify_plugin` and bound nowhere else in it.
""",
)
UNKNOWN_FIELD = rule(
    "R121",
    "sdk-model-keyword-dropped",
    Severity.WARNING,
    "{call}: the SDK's {model} has no field `{keyword}` (its fields: {fields}), and pydantic drops a"
    " keyword the model does not declare, so {outcome!s}",
    "{fix!s}",
    """
The SDK's message models (R120) declare their fields and nothing else: `BlobMessage` has only
`blob`, `TextMessage` only `text`, `ToolInvokeMessage` `type`, `message` and `meta`. They set no
`model_config`, so pydantic's default `extra="ignore"` applies: a keyword the model does not
declare is dropped without a word. With SDK 0.10.2, `ToolInvokeMessage.BlobMessage(blob=b"x",
meta={"mime_type": "text/html"})` gives `blob=b'x'`, the meta gone: Dify then names the file
itself and types it `application/octet-stream` (the run's R018 sees that at the tool, after the
fact). The meta of a blob belongs to the message: `self.create_blob_message(blob, meta={...})`, or
`ToolInvokeMessage(type=..., message=ToolInvokeMessage.BlobMessage(blob=b), meta={...})`.

A warning: the value is lost, the message still made. When a field the model requires is missing
too (`TextMessage(content="x")`, `text` never given), pydantic refuses the message with
ValidationError: then an error where the line runs on every call of its function, else a warning,
as R120. A call that spreads `**kwargs` is not judged.
""",
)
ALIAS_BY_NAME = rule(
    "R122",
    "model-field-given-by-name",
    Severity.WARNING,
    "{call}: `{keyword}` is the name of {model}'s field whose alias is `{alias}` ({file}:{line}), and"
    " the model does not populate by name, so pydantic takes the value only as `{alias}`: {outcome!s}",
    "Pass it as `{alias}` (`{model}(**{{{alias!r}: ...}})`), or set `model_config ="
    " ConfigDict(populate_by_name=True)` on {model}.",
    """
A pydantic field with an alias (`start: int | None = Field(None, alias="from")`) is filled from the
alias only, unless the model allows its name (pydantic 2: `model_config = ConfigDict(
populate_by_name=True)`, or `validate_by_name=True` from 2.11; pydantic 1: `class Config:
allow_population_by_field_name = True`). Tried with pydantic 2 as the SDK 0.10.2 installs it:
`Model(start=5)` leaves `start` at None, the keyword dropped as an unknown one (extra="ignore", the
default); with `extra="forbid"` it is refused; a required field given only by its name is missing
(ValidationError). pydantic 1 behaves the same (tried with the `pydantic.v1` that pydantic 2.14
ships, where `allow_population_by_field_name = True` does let `start=5` in). (pydantic 2.14 warns
that pydantic 1's `allow_population_by_field_name` "has been renamed to 'validate_by_name'" and
then does not honour it: `Model(start=5)` still leaves None. The check is silent on a model that
sets it all the same: the plugin may pin pydantic 1.)

The check reads the plugin's own classes deriving directly from pydantic's `BaseModel`, whose
fields are annotated names with `Field(..., alias="...")` (or `validation_alias`, a string),
and whose configuration it can read (no `alias_generator`, no base of its own). A construction of
such a class by its name (defined in the module, or imported from the plugin's module defining it)
with a keyword equal to an aliased field's name is reported: a warning when the field has a
default (the value is dropped: the feature it carries never works); when the field is required,
or the model forbids extra keywords, pydantic refuses the construction (ValidationError): an error
where the line runs on every call of its function, else a warning, as R120.
""",
)

# The SDK's message models: the fields of each, and those it requires (no default), the same in
# every release read (0.0.1b15 to 0.10.2; `RetrieverResourceMessage` from 0.3.0).
_TOP = (frozenset({"type", "message", "meta"}), frozenset({"type", "message"}))
_NESTED: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "TextMessage": (frozenset({"text"}), frozenset({"text"})),
    "JsonMessage": (frozenset({"json_object"}), frozenset({"json_object"})),
    "BlobMessage": (frozenset({"blob"}), frozenset({"blob"})),
    "BlobChunkMessage": (
        frozenset({"id", "sequence", "total_length", "blob", "end"}),
        frozenset({"id", "sequence", "total_length", "blob", "end"}),
    ),
    "VariableMessage": (
        frozenset({"variable_name", "variable_value", "stream"}),
        frozenset({"variable_name", "variable_value"}),
    ),
    "LogMessage": (
        frozenset({"id", "label", "parent_id", "error", "status", "data", "metadata"}),
        frozenset({"label", "status", "data"}),
    ),
    "RetrieverResourceMessage": (
        frozenset({"retriever_resources", "context"}),
        frozenset({"retriever_resources", "context"}),
    ),
}
_MESSAGES = ("ToolInvokeMessage", "InvokeMessage", "AgentInvokeMessage", "DatasourceMessage")
# What a nested message is made of by the SDK's helper, for the fix.
_HELPERS = {
    "TextMessage": "self.create_text_message(text)",
    "JsonMessage": "self.create_json_message(data)",
    "BlobMessage": "self.create_blob_message(blob, meta={...})",
    "VariableMessage": "self.create_variable_message(name, value)",
}
_BY_NAME = frozenset({"populate_by_name", "allow_population_by_field_name", "validate_by_name"})


@dataclass(frozen=True, slots=True)
class _Model:
    """A pydantic model: how the message names it, its fields and those it requires; for the
    plugin's own, the aliased fields (name -> alias, line) and whether it forbids extra keywords."""

    shown: str
    fields: frozenset[str]
    required: frozenset[str]
    aliased: dict[str, tuple[str, int]]
    forbids: bool = False
    file: str = ""


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """R120/R121 at the SDK's message models made with positional or unknown arguments, R122 at
    the plugin's own models given an aliased field by its name."""
    if loaded.plugin is None:
        return
    code = plugin_code(loaded)
    own = _own_models(code)
    unreached = unreached_functions(loaded)
    for module in sorted(loaded_modules(loaded, code)):
        relative, tree = code.modules[module]
        models = _sdk_models(tree) | _visible_models(code, module, tree, own)
        if not models:
            continue
        display = loaded.display_path(relative)
        for function in every_node(tree):
            if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef) or id(function) in unreached:
                continue
            nodes = own_nodes(function)
            parents = {child: parent for parent in nodes for child in children(parent)}
            for node in nodes:
                if isinstance(node, ast.Call) and (model := models.get(ast.unparse(node.func))) is not None:
                    straight = on_every_call(node, function, parents)
                    yield from _judge(
                        Location(display, node.lineno, node.col_offset + 1), node, model, straight
                    )


def _judge(where: Location, call: ast.Call, model: _Model, straight: bool) -> Iterator[Finding]:
    shown = _shown(call)
    failing = Severity.ERROR if straight else Severity.WARNING
    when = Phrase(", on every call that reaches this line" if straight else ", each time this line runs")
    if call.args and not any(isinstance(argument, ast.Starred) for argument in call.args):
        if not model.aliased:
            yield POSITIONAL.at(
                where, failing, call=shown, model=model.shown, when=when, fix=Phrase(_fix(model, call))
            )
        return
    if any(keyword.arg is None for keyword in call.keywords):
        return
    given = {keyword.arg for keyword in call.keywords if keyword.arg}
    if model.aliased:
        yield from _by_name(where, call, model, given, failing, when)
        return
    missing = sorted(model.required - given)
    for keyword in call.keywords:
        name = keyword.arg or ""
        if name in model.fields:
            continue
        outcome = f"the value given as `{name}` never reaches Dify"
        if missing:
            outcome += (
                f", and the required {', '.join(f'`{m}`' for m in missing)} is missing: pydantic refuses the"
                " message (ValidationError)" + str(when)
            )
        yield UNKNOWN_FIELD.at(
            where,
            failing if missing else None,
            call=shown,
            model=model.shown,
            keyword=name,
            fields=Listing(sorted(model.fields)),
            outcome=Phrase(outcome),
            fix=Phrase(_keyword_fix(model, name)),
        )
        return  # one finding a call: the first keyword dropped says it


def _by_name(
    where: Location, call: ast.Call, model: _Model, given: set[str], failing: Severity, when: Phrase
) -> Iterator[Finding]:
    for keyword in call.keywords:
        name = keyword.arg or ""
        if name not in model.aliased or model.aliased[name][0] in given:
            continue
        alias, line = model.aliased[name]
        refused = name in model.required or model.forbids
        if name in model.required:
            outcome = f"the required `{alias}` is missing, and pydantic refuses it (ValidationError){when}"
        elif model.forbids:
            outcome = f"the model forbids extra keywords, and pydantic refuses it (ValidationError){when}"
        else:
            outcome = f"`{name}` keeps its default and the value is dropped"
        yield ALIAS_BY_NAME.at(
            where,
            failing if refused else None,
            call=_shown(call),
            keyword=name,
            model=model.shown,
            alias=alias,
            file=model.file,
            line=line,
            outcome=Phrase(outcome),
        )


def _fix(model: _Model, call: ast.Call) -> str:
    nested = model.shown.rsplit(".", 1)[-1]
    if nested in _HELPERS:
        fields = sorted(model.fields)
        return (
            f"Name the field: `{model.shown}({fields[0]}=...)`, or let the SDK's helper make the whole"
            f" message: `{_HELPERS[nested]}`."
        )
    if len(call.args) == 1 and isinstance(call.args[0], ast.Call):
        return (
            "Yield the message itself: a `self.create_*_message(...)` helper already returns a whole message."
        )
    return (
        f"Name the fields: `{model.shown}(type=..., message=...)`, or use a `self.create_*_message(...)`"
        " helper."
    )


def _keyword_fix(model: _Model, keyword: str) -> str:
    if keyword == "meta":
        return (
            "The meta belongs to the message: `self.create_blob_message(blob, meta={...})`, or"
            " `ToolInvokeMessage(type=..., message=..., meta={...})`."
        )
    return f"Give only the fields the model declares ({', '.join(sorted(model.fields))})."


def _sdk_models(tree: ast.Module) -> dict[str, _Model]:
    """The SDK's message models by the expression that names them in this module (`TIM`,
    `TIM.TextMessage`), for each name imported from dify_plugin and bound nowhere else in it."""
    imported = sdk_imports(tree)
    bound: dict[str, int] = {}
    for node in every_node(tree):
        for name in bound_names(node):
            bound[name] = bound.get(name, 0) + 1
    found: dict[str, _Model] = {}
    for message in _MESSAGES:
        for local in imported.get(message, ()):
            if bound.get(local, 0) != 1:
                continue
            found[local] = _Model(message, *_TOP, {})
            for nested, (fields, required) in _NESTED.items():
                found[f"{local}.{nested}"] = _Model(f"{message}.{nested}", fields, required, {})
    return found


def _own_models(code: PluginCode) -> dict[tuple[str, str], _Model]:
    """The plugin's pydantic models with an aliased field that do not populate by name, by module
    and class name."""
    found: dict[tuple[str, str], _Model] = {}
    for module, (relative, tree) in code.modules.items():
        bases = _pydantic_names(tree, "BaseModel")
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and _plain_model(node, bases):
                model = _own_model(node, relative, _pydantic_names(tree, "ConfigDict"))
                if model is not None:
                    found[(module, node.name)] = model
    return found


def _pydantic_names(tree: ast.Module, name: str) -> set[str]:
    """The local names under which the module imports `name` from pydantic (or pydantic.v1)."""
    return {
        alias.asname or alias.name
        for node in tree.body
        if isinstance(node, ast.ImportFrom) and node.module in {"pydantic", "pydantic.v1"} and not node.level
        for alias in node.names
        if alias.name == name
    }


def _plain_model(node: ast.ClassDef, bases: set[str]) -> bool:
    """A class deriving from pydantic's BaseModel alone, with no class keywords or decorators."""
    return (
        len(node.bases) == 1
        and isinstance(node.bases[0], ast.Name)
        and node.bases[0].id in bases
        and not node.keywords
        and not node.decorator_list
    )


def _own_model(node: ast.ClassDef, relative: str, config_dicts: set[str]) -> _Model | None:
    """The model's aliased fields and configuration; None when it populates by name, has no aliased
    field, or its configuration cannot be read."""
    aliased: dict[str, tuple[str, int]] = {}
    fields: set[str] = set()
    required: set[str] = set()
    forbids = False
    for statement in node.body:
        if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
            name = statement.target.id
            fields.add(name)
            alias, has_default = _field(statement.value)
            if alias is None:
                return None  # an alias the check cannot read
            if alias and alias != name:
                aliased[name] = (alias, statement.lineno)
            if not has_default:
                required.add(name)
        elif (configured := _model_config(statement)) is not None:
            settings = _settings(configured, config_dicts)
            if settings is None:
                return None
            forbids = forbids or settings.get("extra") == "forbid"
            if _by_name_or_unknown(settings):
                return None
        elif isinstance(statement, ast.ClassDef) and statement.name == "Config":
            settings = {}
            for inner in statement.body:
                if (
                    isinstance(inner, ast.Assign)
                    and len(inner.targets) == 1
                    and isinstance(inner.targets[0], ast.Name)
                ):
                    settings[inner.targets[0].id] = _value(inner.value)
            forbids = forbids or settings.get("extra") == "forbid"
            if _by_name_or_unknown(settings):
                return None
    if not aliased:
        return None
    return _Model(node.name, frozenset(fields), frozenset(required), aliased, forbids, relative)


_UNKNOWN = object()


def _value(node: ast.expr) -> object:
    """A setting's value: a constant, `Extra.forbid`'s name, or unknown."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "Extra":
        return node.attr
    return _UNKNOWN


def _by_name_or_unknown(settings: dict[str, object]) -> bool:
    """True when the settings let the model take a field by its name, or may: a flag not plainly
    False, or an alias generator."""
    return "alias_generator" in settings or any(
        settings[key] is not False for key in _BY_NAME & settings.keys()
    )


def _model_config(statement: ast.stmt) -> ast.expr | None:
    """The value a class body's `model_config = ...` statement gives; None for another statement."""
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target: ast.expr = statement.targets[0]
    elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
        target = statement.target
    else:
        return None
    return statement.value if isinstance(target, ast.Name) and target.id == "model_config" else None


def _settings(value: ast.expr, config_dicts: set[str]) -> dict[str, object] | None:
    """`ConfigDict(a=..)` or `{"a": ..}` as its settings; None for anything else."""
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in config_dicts:
        if any(keyword.arg is None for keyword in value.keywords) or value.args:
            return None
        return {keyword.arg or "": _value(keyword.value) for keyword in value.keywords}
    if isinstance(value, ast.Dict):
        keys = [constant(key) if key is not None else None for key in value.keys]
        if all(isinstance(key, str) for key in keys):
            return {str(key): _value(item) for key, item in zip(keys, value.values, strict=True)}
    return None


def _field(value: ast.expr | None) -> tuple[str | None, bool]:
    """The alias of a field's `Field(...)` ("" for none, None when computed) and whether it has a
    default."""
    if value is None:
        return "", False
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "Field"):
        return "", True
    keywords = {keyword.arg: keyword.value for keyword in value.keywords}
    if None in keywords:
        return None, True
    alias = ""
    for name in ("validation_alias", "alias"):
        if name in keywords:
            text = constant(keywords[name])
            if not isinstance(text, str):
                return None, True
            alias = text
            break
    first = value.args[0] if value.args else keywords.get("default")
    ellipsis = isinstance(first, ast.Constant) and first.value is Ellipsis
    has_default = (first is not None and not ellipsis) or "default_factory" in keywords
    return alias, has_default


def _visible_models(
    code: PluginCode, module: str, tree: ast.Module, own: dict[tuple[str, str], _Model]
) -> dict[str, _Model]:
    """The plugin's aliased models this module names: its own classes, and those it imports by
    name from the plugin's module defining them (bound nowhere else in it)."""
    if not own:
        return {}
    found = {name: model for (where, name), model in own.items() if where == module}
    for statement in tree.body:
        if isinstance(statement, ast.ImportFrom):
            source = imported_module(code.modules[module][0], statement)
            for alias in statement.names:
                model = own.get((source or "", alias.name))
                if model is not None:
                    found[alias.asname or alias.name] = model
    bound: dict[str, int] = {}
    for node in every_node(tree):
        for name in bound_names(node):
            bound[name] = bound.get(name, 0) + 1
    return {name: model for name, model in found.items() if bound.get(name, 0) == 1}


def _shown(call: ast.Call) -> str:
    text = ast.unparse(call)
    return text if len(text) <= 80 else ast.unparse(call.func) + "(...)"
