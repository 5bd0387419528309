"""Changes of one tool between two versions: its parameters and its output variables.

What was removed is placed in the old version's files, everything else in the new one's.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from generator.diff.changes import Change, change_rule
from generator.diff.interface import Output, ToolFace
from generator.findings import Finding
from generator.plugin_model import Parameter
from generator.rules import Rule

PARAMETER_REMOVED = change_rule(
    "D010",
    "parameter-removed",
    Change.BREAKING,
    "parameter {name} of tool {tool} was removed",
    "Keep the parameter (ignore it if it is no longer used), or release the change as a major version.",
    """
A workflow node stores the values it passes to a tool by parameter name. When the parameter is
gone, the stored value is dropped without a word and the node behaves differently.
""",
)
PARAMETER_RENAMED = change_rule(
    "D011",
    "parameter-renamed",
    Change.BREAKING,
    "parameter {old} of tool {tool} renamed? {name} has the same label and type",
    "Keep the old name; a rename is a removal plus an addition for every workflow using the tool.",
    """
A parameter disappeared and another with the same English label and type appeared: most likely a
rename. Workflows keep the value under the old name, so the new parameter is empty after the upgrade.
""",
)
PARAMETER_ADDED_REQUIRED = change_rule(
    "D012",
    "required-parameter-added",
    Change.BREAKING,
    "tool {tool} gained the required parameter {name}",
    "Make the parameter optional with a default, or release the change as a major version.",
    """
Existing workflow nodes have no value for a parameter that did not exist; when it is required, the
node fails to run until someone edits every workflow using the tool.
""",
)
PARAMETER_ADDED = change_rule(
    "D013",
    "parameter-added",
    Change.COMPATIBLE,
    "tool {tool} gained the optional parameter {name}",
    "Release it as a minor version.",
    """
A new optional parameter: existing workflows leave it empty and keep working.
""",
)
PARAMETER_MADE_REQUIRED = change_rule(
    "D014",
    "parameter-made-required",
    Change.BREAKING,
    "parameter {name} of tool {tool} is now required",
    "Keep it optional (with a default), or release the change as a major version.",
    """
Workflows that left the parameter empty were valid; now their node refuses to run.
""",
)
PARAMETER_MADE_OPTIONAL = change_rule(
    "D015",
    "parameter-made-optional",
    Change.COMPATIBLE,
    "parameter {name} of tool {tool} is no longer required",
    "Release it as a minor version.",
    """
Every workflow that set the parameter still does; new ones may leave it empty.
""",
)
DEFAULT_REMOVED = change_rule(
    "D016",
    "parameter-default-removed",
    Change.BREAKING,
    "parameter {name} of tool {tool} lost its default {default}",
    "Keep the default, or release the change as a major version.",
    """
A workflow that left the parameter empty got the default; now the tool receives nothing (None).
""",
)
DEFAULT_ADDED = change_rule(
    "D017",
    "parameter-default-added",
    Change.COMPATIBLE,
    "parameter {name} of tool {tool} has a new default {default}",
    "Release it as a minor version.",
    """
Workflows that left the parameter empty now pass the default.
""",
)
DEFAULT_CHANGED = change_rule(
    "D018",
    "parameter-default-changed",
    Change.NOTE,
    "the default of parameter {name} of tool {tool} changed from {old} to {new}",
    "Say so in the release notes: workflows that left the parameter empty now behave differently.",
    """
Workflows that left the parameter empty now pass another value.
""",
)
PARAMETER_TYPE_CHANGED = change_rule(
    "D019",
    "parameter-type-changed",
    Change.BREAKING,
    "parameter {name} of tool {tool} changed type from {old} to {new}",
    "Add a new parameter of the new type instead, or release the change as a major version.",
    """
The values workflows store for the parameter were made for the old type (a string where a number
is now expected, a text where a file is).
""",
)
PARAMETER_FORM_CHANGED = change_rule(
    "D020",
    "parameter-form-changed",
    Change.BREAKING,
    "parameter {name} of tool {tool} changed form from {old} to {new}",
    "Keep the form, or release the change as a major version.",
    """
`form` decides who fills a parameter: the node's settings (`form`), the model (`llm`) or the
provider (`schema`). Workflows set up for one form lose or ignore the value under another.
""",
)
PARAMETER_MULTIPLE_CHANGED = change_rule(
    "D021",
    "parameter-multiple-changed",
    Change.BREAKING,
    "parameter {name} of tool {tool} changed multiple from {old} to {new}",
    "Keep `multiple` as it was, or release the change as a major version.",
    """
With `multiple` the tool receives a list, without it a single value: the stored values and the
tool's code no longer agree.
""",
)
OPTION_REMOVED = change_rule(
    "D022",
    "option-removed",
    Change.BREAKING,
    "option {value} of parameter {name} of tool {tool} was removed",
    "Keep the option (map it to its replacement in the code), or release the change as a major version.",
    """
Workflows that chose the option still send its value, which the tool no longer offers.
""",
)
OPTION_ADDED = change_rule(
    "D023",
    "option-added",
    Change.COMPATIBLE,
    "option {value} of parameter {name} of tool {tool} was added",
    "Release it as a minor version.",
    """
A new choice; workflows keep the ones they made.
""",
)
RANGE_NARROWED = change_rule(
    "D024",
    "parameter-range-narrowed",
    Change.BREAKING,
    "the {bound} of parameter {name} of tool {tool} changed from {old} to {new}, narrowing it",
    "Keep the range, or release the change as a major version.",
    """
A value that workflows stored inside the old `min`/`max` may now be out of range.
""",
)
RANGE_WIDENED = change_rule(
    "D025",
    "parameter-range-widened",
    Change.COMPATIBLE,
    "the {bound} of parameter {name} of tool {tool} changed from {old} to {new}, widening it",
    "Release it as a minor version.",
    """
Every value in the old range is still accepted.
""",
)
OUTPUT_REMOVED = change_rule(
    "D030",
    "output-removed",
    Change.BREAKING,
    "output variable {path} of tool {tool} was removed",
    "Keep setting the variable, or release the change as a major version.",
    """
Nodes after the tool read the variable by its path; once it is gone they silently read None.
""",
)
OUTPUT_ADDED = change_rule(
    "D031",
    "output-added",
    Change.COMPATIBLE,
    "output variable {path} of tool {tool} was added",
    "Release it as a minor version.",
    """
A new variable in the picker; existing workflows do not read it.
""",
)
OUTPUT_TYPE_CHANGED = change_rule(
    "D032",
    "output-type-changed",
    Change.BREAKING,
    "output variable {path} of tool {tool} changed type from {old} to {new}",
    "Add a variable of the new type instead, or release the change as a major version.",
    """
Nodes reading the variable were built for the old type (a number where a string now arrives).
""",
)
OUTPUT_MADE_OPTIONAL = change_rule(
    "D033",
    "output-made-optional",
    Change.BREAKING,
    "output variable {path} of tool {tool} is no longer required",
    "Keep it required (always set it), or release the change as a major version.",
    """
Nodes after the tool relied on the variable being set; now they may read None.
""",
)
OUTPUT_MADE_REQUIRED = change_rule(
    "D034",
    "output-made-required",
    Change.NOTE,
    "output variable {path} of tool {tool} is now required",
    "Nothing to do for workflows; release it as at least a patch.",
    """
The variable is now always set; nodes that read it get a value more often than before.
""",
)
OUTPUT_REF_CHANGED = change_rule(
    "D035",
    "output-ref-changed",
    Change.BREAKING,
    "output variable {path} of tool {tool} changed $ref from {old} to {new}",
    "Keep the referenced schema, or release the change as a major version.",
    """
The variable's structure comes from another hosted schema now; nodes reading its parts were built
for the old one.
""",
)


def tool_changes(old: ToolFace, new: ToolFace) -> Iterator[Finding]:
    """Every change of parameters and output variables between two versions of one tool."""
    tool = "/".join(new.key)
    yield from _parameter_changes(old, new, tool)
    yield from output_changes(old.outputs, new.outputs, TOOL_OUTPUT_RULES, tool=tool)


def _parameter_changes(old: ToolFace, new: ToolFace, tool: str) -> Iterator[Finding]:
    before = {p.name: p for p in old.tool.parameters}
    after = {p.name: p for p in new.tool.parameters}
    gone = [p for name, p in before.items() if name not in after]
    came = [p for name, p in after.items() if name not in before]
    for removed in gone:
        twin = next((p for p in came if _same_shape(removed, p)), None)
        if twin is None:
            yield PARAMETER_REMOVED.at(removed.origin, name=removed.name, tool=tool)
        else:
            came.remove(twin)
            yield PARAMETER_RENAMED.at(twin.origin, old=removed.name, name=twin.name, tool=tool)
    for added in came:
        kind = PARAMETER_ADDED_REQUIRED if added.required else PARAMETER_ADDED
        yield kind.at(added.origin, name=added.name, tool=tool)
    for name, was in before.items():
        if name in after:
            yield from _parameter_fields(was, after[name], old, new, tool)


def _same_shape(removed: Parameter, added: Parameter) -> bool:
    return bool(removed.label.en) and removed.label.en == added.label.en and removed.type == added.type


def _parameter_fields(
    was: Parameter, now: Parameter, old: ToolFace, new: ToolFace, tool: str
) -> Iterator[Finding]:
    name = now.name
    if was.required != now.required:
        kind = PARAMETER_MADE_REQUIRED if now.required else PARAMETER_MADE_OPTIONAL
        yield kind.at(new.field(now.origin, "required"), name=name, tool=tool)
    yield from _default_change(was, now, old, new, tool)
    for field, rule in (
        ("type", PARAMETER_TYPE_CHANGED),
        ("form", PARAMETER_FORM_CHANGED),
        ("multiple", PARAMETER_MULTIPLE_CHANGED),
    ):
        before, after = _shown(getattr(was, field)), _shown(getattr(now, field))
        if before != after:
            yield rule.at(new.field(now.origin, field), name=name, tool=tool, old=before, new=after)
    values = {o.value for o in now.options}
    for option in was.options:
        if option.value not in values:
            yield OPTION_REMOVED.at(option.origin, value=option.value, name=name, tool=tool)
    values = {o.value for o in was.options}
    for option in now.options:
        if option.value not in values:
            yield OPTION_ADDED.at(option.origin, value=option.value, name=name, tool=tool)
    yield from _range_change(was, now, new, tool)


def _default_change(
    was: Parameter, now: Parameter, old: ToolFace, new: ToolFace, tool: str
) -> Iterator[Finding]:
    if was.default == now.default:
        return
    if now.default is None:
        yield DEFAULT_REMOVED.at(
            old.field(was.origin, "default"), name=now.name, tool=tool, default=was.default
        )
    elif was.default is None:
        yield DEFAULT_ADDED.at(
            new.field(now.origin, "default"), name=now.name, tool=tool, default=now.default
        )
    else:
        where = new.field(now.origin, "default")
        yield DEFAULT_CHANGED.at(where, name=now.name, tool=tool, old=was.default, new=now.default)


def _range_change(was: Parameter, now: Parameter, new: ToolFace, tool: str) -> Iterator[Finding]:
    for bound, before, after, sign in (
        ("min", was.minimum, now.minimum, 1),
        ("max", was.maximum, now.maximum, -1),
    ):
        if before == after:
            continue
        # A bound that appears narrows the range; one that disappears widens it; a minimum that
        # grows or a maximum that shrinks narrows it.
        narrowed = before is None or (after is not None and sign * (after - before) > 0)
        kind = RANGE_NARROWED if narrowed else RANGE_WIDENED
        where = new.field(now.origin, bound)
        yield kind.at(where, bound=bound, name=now.name, tool=tool, old=_bound(before), new=_bound(after))


def _shown(value: object) -> str:
    """A field's value as YAML writes it (`true`, not Python's `True`)."""
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def _bound(value: float | None) -> str:
    if value is None:
        return "none"
    return str(int(value)) if value.is_integer() else str(value)


class OutputRules(NamedTuple):
    """The rules of output variable changes for one kind of part (a tool's, an event's)."""

    removed: Rule
    added: Rule
    type_changed: Rule
    made_optional: Rule
    made_required: Rule
    ref_changed: Rule


TOOL_OUTPUT_RULES = OutputRules(
    OUTPUT_REMOVED,
    OUTPUT_ADDED,
    OUTPUT_TYPE_CHANGED,
    OUTPUT_MADE_OPTIONAL,
    OUTPUT_MADE_REQUIRED,
    OUTPUT_REF_CHANGED,
)


def output_changes(
    before: dict[str, Output], after: dict[str, Output], rules: OutputRules, **part: str
) -> Iterator[Finding]:
    """Every change of output variables; `part` names the tool or event in the messages (severity
    and hint are the rules' own, passed as None so that `part` fills only the message)."""
    for path in _tops(before, after):
        yield rules.removed.at(before[path].where, None, None, path=path, **part)
    for path, was in before.items():
        now = after.get(path)
        if now is None:
            continue
        if was.type != now.type:
            old, new = was.type or "any", now.type or "any"
            yield rules.type_changed.at(now.where, None, None, path=path, old=old, new=new, **part)
        if was.required != now.required:
            kind = rules.made_required if now.required else rules.made_optional
            yield kind.at(now.where, None, None, path=path, **part)
        if was.ref != now.ref:
            old, new = was.ref or "none", now.ref or "none"
            yield rules.ref_changed.at(now.where, None, None, path=path, old=old, new=new, **part)
    for path in _tops(after, before):
        yield rules.added.at(after[path].where, None, None, path=path, **part)


def _tops(present: dict[str, Output], other: dict[str, Output]) -> list[str]:
    """Paths of `present` missing from `other`, without those below another such path: a removed
    object is one change, not one per property inside it."""
    missing = sorted(path for path in present if path not in other)
    tops: list[str] = []
    for path in missing:
        if not any(path.startswith((f"{top}.", f"{top}[]")) for top in tops):
            tops.append(path)
    return tops
