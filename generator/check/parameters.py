"""Tool parameter rules beyond the schema: names, options, defaults, `multiple`, LLM descriptions."""

from __future__ import annotations

import re
from collections.abc import Generator, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from generator.check import CheckContext
from generator.check.common import documents
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.load.reader import PluginReader
from generator.load.values import kind_of
from generator.load.yamlload import MAX_FILE_BYTES, YamlDocument
from generator.rules import Phrase, rule
from generator.shorten import shorten

SELECTS = ("select", "dynamic-select")
# The Python type a default must have for each parameter type; other types take any JSON value.
DEFAULT_KINDS: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "secret-input": (str,),
    "select": (str,),
    "dynamic-select": (str,),
    "date": (str,),
    "number": (int, float),
    "boolean": (bool,),
    "checkbox": (bool,),
}

DUPLICATE_NAME = rule(
    "A004",
    "duplicate-parameter-name",
    Severity.WARNING,
    "parameter {name} is declared again (first at line {first_line})",
    "Rename or remove one of them: a tool receives one value per name.",
    """
Two parameters of one tool share a `name`. The tool receives its inputs as a mapping by name, so only
one value reaches it, and the workflow editor shows two fields for one input.
""",
)
OPTION_NOT_STRING = rule(
    "A005",
    "option-value-not-string",
    Severity.WARNING,
    "option value {raw} is read by YAML as {kind}; {outcome}",
    "Quote the value (value: '{raw}') so the tool receives the same text installed and under remote "
    "debugging.",
    """
An option `value` is a string to Dify, but YAML reads unquoted `false`, `no`, `1` or an empty value as
a boolean, a number or null. What the tool then receives depends on who reads the declaration:

- An installed plugin's declaration is read by the plugin daemon, which decodes the YAML with
  gopkg.in/yaml.v3 into `ParameterOption.Value string`
  (dify-plugin-daemon `pkg/entities/plugin_entities/constant.go`). yaml.v3 sets a string field to the
  scalar's text as written: `false` stays `'false'`, `no` stays `'no'`, `1` stays `'1'`, `0x10` stays
  `'0x10'`. A null (`value:` with nothing after it, `~`, `null`) leaves the field empty, `''`, which
  the field's `validate:"required"` refuses wherever the daemon validates the declaration.
- Under remote debugging the plugin sends its own declaration, and the SDK turns the value into a
  string with Python's `str()` (`ToolParameterOption.transform_id_to_str`): `false` becomes
  `'False'`, `no` becomes `'False'` too, `0x10` becomes `'16'`, null becomes `'None'`.

So for a boolean, a null or a number YAML rewrites, the tool receives different text once installed
than while it was debugged. For a number written in plain digits (`1`) both give the same text, so
quoting changes nothing the tool receives; the finding then only asks for the string the published
schema and editors expect.
""",
)
_SAME_TEXT_HINT = (
    "The tool receives the string {coerced!r} whether or not it is quoted; quote it (value: '{raw}') "
    "only for editors and the published schema, which expect a string."
)
_NULL_HINT = "Give the option the value the tool should receive, quoted (value: 'none' for instance)."
_AS_WRITTEN = (
    "the daemon keeps the text {written!r} for an installed plugin, while under remote debugging "
    "the SDK sends {coerced!r}"
)
_NULL_OUTCOME = (
    "the daemon reads it as an empty string, where its `value` field is marked required, while under "
    "remote debugging the SDK sends 'None'"
)
DEFAULT_WRONG_TYPE = rule(
    "A006",
    "default-wrong-type",
    Severity.WARNING,
    "default {value} of a {type} parameter is {kind}",
    "Write the default with the parameter's type: {expected}.",
    """
A parameter's `default` does not have the type of the parameter: a quoted `'true'` on a boolean, a
number on a string or select parameter, text on a number. Dify passes the default as written, so the
tool receives a value of an unexpected type, and the editor may show the field empty.
""",
)
DEFAULT_NOT_OPTION = rule(
    "A007",
    "default-not-in-options",
    Severity.WARNING,
    "default {value} is not one of the options ({options})",
    "Make the default one of the option values, or add it as an option.",
    """
The `default` of a select parameter is not among its option values (compared as Dify does, after
turning values into strings). The editor then shows no option selected while the tool receives a
value the user cannot pick.
""",
)
MULTIPLE_NOT_SELECT = rule(
    "A008",
    "multiple-not-allowed",
    Severity.ERROR,
    "`multiple: true` on a {type} parameter; only select and dynamic-select allow it",
    "Remove `multiple`, or make the parameter a select or dynamic-select.",
    """
The SDK allows `multiple` only on `select` and `dynamic-select` parameters and refuses the tool
otherwise.
""",
)
MULTIPLE_DEFAULT = rule(
    "A009",
    "multiple-default-shape",
    Severity.ERROR,
    "default must be a list exactly when `multiple` is true (multiple: {multiple}, default: {kind})",
    "With `multiple: true` write the default as a list of option values; without it, as one value.",
    """
For select and dynamic-select parameters the SDK checks that `default` is a list if and only if
`multiple` is true, and refuses the tool otherwise.
""",
)
LLM_DESCRIPTION_MISSING = rule(
    "A010",
    "llm-description-missing",
    Severity.WARNING,
    "parameter {name} is filled by a model (form: llm) but has no llm_description",
    "Add `llm_description`: tell the model what to put into this parameter.",
    """
Parameters with `form: llm` are filled by a language model from the conversation. The model sees the
`llm_description`; without it, it has only the name to guess from and fills the value poorly.
""",
)
SECRET_FOR_MODEL = rule(
    "A012",
    "secret-parameter-filled-by-model",
    Severity.WARNING,
    "parameter {name} is a secret (type: secret-input) that a model fills (form: llm): an agent's model"
    " has to write the secret into its call, so it must be pasted into the conversation, which keeps it",
    "Declare the secret as a credential of the provider (`credentials_for_provider`, read with"
    " `self.runtime.credentials`), or give the parameter `form: form` so a person enters it.",
    """
A `secret-input` parameter is meant for a value a person types and Dify keeps hidden (its form field
masks it). With `form: llm` the parameter is listed in the tool's schema for the model, which fills
it from the conversation: an agent then has to write an API key or password into its tool call,
which it does not know (it invents one, or asks the user to paste the secret into the chat, where
it is stored in the conversation). The provider's credentials are the place for a secret the tool
needs on every call; a workflow user can still fill a `form: form` parameter. A warning: Dify
accepts it.
""",
)

OPTION_SENDS_OTHER = rule(
    "R133",
    "select-option-sends-another-value",
    Severity.WARNING,
    "parameter {name}: the option labelled {label} sends `{value}`, {relation!s} the option labelled"
    " {other}: a user who picks {label} gets {other}",
    "Give the option the value its label names (and check which values the code handles), or correct"
    " the label.",
    """
A select parameter shows each option's label and sends its value: Dify's forms build their items as
`{ value: option.value, name: option.label[language] || option.label.en_US }`, store `item.value`
on `onSelect` and show the first item whose value is the stored one; the SDK's `ParameterOption` is
`value: str` ("The value of the option") and `label: I18nObject` ("The label of the option"), and the
tool receives the value. So two options with the same value are one choice under two labels: a user
who picks the second gets the first's value, and the form shows the first's label. Told for an
option whose value is another option's value, or the same but for case, spaces, `-` and `_` when
that other option's English label names it (`MongoDB` labelled MongoDB), and whose own English label
names something else: an option labelled MySQL with the value `mongodb` makes every user who picks
MySQL run MongoDB's branch of the code, and no choice reaches MySQL's (a copied option whose value
was not changed). Options whose values differ only in case and whose labels name neither value (`Mb`
Megabit, `MB` Megabyte) are silent, as are distinct values (`ga` labelled Irish beside `gaa`
labelled Ga). A warning at the option's value: Dify accepts it.
""",
)


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """Findings for every parameter of every tool."""
    for relative, tool in documents(loaded, "tool"):
        specs = tool.data.get("parameters")
        if not isinstance(specs, list):
            continue
        seen: dict[str, int] = {}
        for index, spec in enumerate(specs):
            if not isinstance(spec, dict):
                continue
            name = spec.get("name")
            if isinstance(name, str):
                if name in seen:
                    where = tool.at("parameters", index, "name")
                    yield DUPLICATE_NAME.at(where, name=name, first_line=seen[name])
                else:
                    seen[name] = tool.at("parameters", index, "name").line
            yield from _parameter(tool, index, spec, _Source(loaded.reader, relative))


def dify_string(value: Any) -> str:
    """The string Dify makes of an option value (Python's `str`)."""
    return value if isinstance(value, str) else str(value)


def _parameter(tool: YamlDocument, index: int, spec: dict[str, Any], source: _Source) -> Iterator[Finding]:
    kind = spec.get("type")
    multiple = spec.get("multiple") is True
    default = spec.get("default")
    if spec.get("form") == "llm" and not spec.get("llm_description"):
        yield LLM_DESCRIPTION_MISSING.at(tool.at("parameters", index), name=spec.get("name"))
    if spec.get("form") == "llm" and kind == "secret-input":
        yield SECRET_FOR_MODEL.at(tool.at("parameters", index, "form"), name=spec.get("name"))
    if multiple and isinstance(kind, str) and kind not in SELECTS:
        yield MULTIPLE_NOT_SELECT.at(tool.at("parameters", index, "multiple"), type=kind)
    values = yield from _options(tool, index, spec.get("options"), source)
    if kind == "select":
        yield from _sending_others(tool, index, spec)
    if default is None or not isinstance(kind, str):
        return
    if kind in SELECTS and isinstance(default, list) != multiple:
        yield MULTIPLE_DEFAULT.at(
            tool.at("parameters", index, "default"),
            multiple=yaml_spelling(multiple),
            kind=kind_of(default),
        )
        return
    items = default if isinstance(default, list) else [default]
    yield from _default_types(tool, index, kind, items)
    if kind == "select" and values:
        for item in items:
            if not isinstance(item, dict | list) and dify_string(item) not in values:
                yield DEFAULT_NOT_OPTION.at(
                    tool.at("parameters", index, "default"),
                    value=item,
                    options=", ".join(sorted(values)),
                )


def _options(
    tool: YamlDocument, index: int, options: Any, source: _Source
) -> Generator[Finding, None, set[str]]:
    """Report option values YAML reads as non-strings; return the values as Dify sees them."""
    values: set[str] = set()
    if not isinstance(options, list):
        return values
    for position, option in enumerate(options):
        if not isinstance(option, dict) or "value" not in option:
            continue
        raw = option["value"]
        values.add(dify_string(raw))
        if not isinstance(raw, str):
            where = tool.at("parameters", index, "options", position, "value")
            yield _option_not_string(where, raw, source.written(where) or yaml_spelling(raw))
    return values


def _sending_others(tool: YamlDocument, index: int, spec: dict[str, Any]) -> Iterator[Finding]:
    """R133 for each option that sends another option's value (or that value in another case, when
    the other option's label names it) while its own label names something else."""
    options = spec.get("options")
    labelled = [
        (position, option["value"], _english(option.get("label")))
        for position, option in enumerate(options if isinstance(options, list) else [])
        if isinstance(option, dict) and isinstance(option.get("value"), str)
    ]
    for position, value, label in labelled:
        if not label or _folded(label) == _folded(value):
            continue
        for other_position, other_value, other_label in labelled:
            if other_position == position or not other_label or _folded(other_label) == _folded(label):
                continue
            same = other_value == value
            if same or (_folded(other_value) == _folded(value) and _folded(other_label) == _folded(value)):
                relation = "the value of" if same else f"which differs only in case from `{other_value}` of"
                yield OPTION_SENDS_OTHER.at(
                    tool.at("parameters", index, "options", position, "value"),
                    name=spec.get("name"),
                    label=shorten(label, 40),
                    value=shorten(value, 40),
                    relation=Phrase(shorten(relation, 80)),
                    other=shorten(other_label, 40),
                )
                break


def _english(label: Any) -> str:
    """An option's English label (`label.en_US`, or a label written as plain text)."""
    if isinstance(label, dict):
        label = label.get("en_US")
    return label.strip() if isinstance(label, str) else ""


def _folded(text: str) -> str:
    """Text compared as a reader does: without case, spaces, `-` and `_`."""
    return re.sub(r"[\s_-]+", "", text).casefold()


def _option_not_string(where: Location, raw: Any, written: str) -> Finding:
    """A005 worded by what each of Dify's readers makes of the scalar (see the rule's text)."""
    coerced, kind = dify_string(raw), kind_of(raw)
    if raw is None:
        return OPTION_NOT_STRING.at(
            where, hint=_NULL_HINT, raw=written, kind=kind, outcome=Phrase(_NULL_OUTCOME)
        )
    # the parts from the stranger's file are shortened before the composed sentence is kept whole
    written_short, coerced_short = shorten(written, 40), shorten(coerced, 40)
    if written == coerced:  # plain digits: both readers give the text as written
        outcome, hint = f"the tool receives the string {coerced_short!r} either way", _SAME_TEXT_HINT
    else:
        outcome, hint = _AS_WRITTEN.format(written=written_short, coerced=coerced_short), None
    outcome = Phrase(outcome)
    return OPTION_NOT_STRING.at(where, hint=hint, raw=written, kind=kind, outcome=outcome, coerced=coerced)


@dataclass(frozen=True)
class _Source:
    """The text of one tool file, for what YAML's reading of a scalar loses."""

    reader: PluginReader
    relative: str

    def written(self, where: Location) -> str | None:
        """A plain scalar's text as the file spells it (the daemon keeps it so), or None."""
        raw = self.reader.head(self.relative, MAX_FILE_BYTES + 1)
        if raw is None:
            return None
        lines = raw.decode("utf-8", errors="replace").splitlines()
        if not 0 < where.line <= len(lines):
            return None
        tail = lines[where.line - 1][where.column - 1 :]
        text = re.split(r"\s#|[,\]}]", tail, maxsplit=1)[0].strip()
        return text or None


def _default_types(tool: YamlDocument, index: int, kind: str, items: list[Any]) -> Iterator[Finding]:
    expected = DEFAULT_KINDS.get(kind)
    if expected is None:
        return
    for item in items:
        wrong = not isinstance(item, expected) or (bool not in expected and isinstance(item, bool))
        if wrong:
            yield DEFAULT_WRONG_TYPE.at(
                tool.at("parameters", index, "default"),
                value=repr(item) if isinstance(item, str) else yaml_spelling(item),
                type=kind,
                kind=kind_of(item),
                expected=" or ".join(_TYPE_WORDS[t] for t in expected),
            )


_TYPE_WORDS = {str: "a string", int: "an integer", float: "a number", bool: "true or false (unquoted)"}


def yaml_spelling(value: Any) -> str:
    """A scalar as YAML writes it (`false`, not Python's `False`)."""
    if value is None:
        return "null"
    return str(value).lower() if isinstance(value, bool) else str(value)
