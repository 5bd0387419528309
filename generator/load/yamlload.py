"""Safe YAML reading that remembers where every value came from.

PyYAML's own composer is recursive and keeps the last of duplicate keys silently, so this module
builds values itself from the parser's event stream: iteratively (no recursion limit to hit on
hostile nesting), with a JSON pointer -> (line, column) map, duplicate-key detection, bounded
depth, size and alias expansion, and only the YAML core tags.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import yaml

from generator.findings import Finding, Location, Severity
from generator.rules import rule

try:  # libyaml's parser is much faster; fall back to the pure-Python one where it is missing
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - depends on the wheel
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

MAX_FILE_BYTES = 8 * 1024 * 1024
MAX_DEPTH = 200
MAX_NODES = 500_000
BOM = b"\xef\xbb\xbf"

YAML_SYNTAX = rule(
    "Y001",
    "yaml-syntax",
    Severity.ERROR,
    "YAML syntax error: {problem}",
    "Fix the YAML at this position; a YAML linter or editor with YAML support shows the exact cause.",
    """
The file could not be parsed as YAML. Dify parses every YAML file a plugin references when it
packages and installs the plugin, so a syntax error stops the plugin from being installed; the SDK
too reads each tool YAML a provider lists with `load_yaml_file(tool)` (`ToolProviderConfiguration.
validate_tools`), whose `yaml.safe_load` error is raised again as `yaml.YAMLError("Failed to load
YAML file ...")`, so the plugin does not start.

The usual cause is free text: an unquoted help text holding `: ` (`en_US: e.g. {"id": 1}`). So
that one such line does not hide the rest of a tool, a tool YAML whose error lies in the value of a
text field (a locale key such as `en_US`, `llm` or `llm_description`) is read again with that value
in single quotes (its continuation lines folded in, a ` #` comment cut off), up to 20 such lines.
The repaired copy is checked like any tool YAML and its code is linked as its
`extra.python.source` says, so the tool's structure and code are checked in the same round; its
tools are not run. A finding on a repaired line is not told (its value was guessed), and every
other finding on that file says in its hint that the file does not parse and which lines were read
as quoted text. An error anywhere else (indentation, an unclosed bracket, a tab) leaves the file
unread, as before.
""",
)
YAML_DUPLICATE_KEY = rule(
    "Y002",
    "duplicate-key",
    Severity.WARNING,
    "duplicate key {key!s} (first defined on line {first_line})",
    "Remove one of the two entries: YAML parsers keep only the last one, silently.",
    """
A mapping defines the same key twice. PyYAML, which Dify uses, keeps the last value and drops the
first without telling anyone, so the value you see first in the file is not the one Dify uses.
""",
)
YAML_TAG = rule(
    "Y003",
    "unsafe-tag",
    Severity.ERROR,
    "tag {tag} is not allowed; only plain YAML data is read",
    "Remove the tag: manifests are data, and Dify's safe loader refuses language-specific tags.",
    """
The file uses a tag such as `!!python/object` or a custom `!tag`. Dify reads manifests with a safe
loader that refuses such tags, and the registry never constructs objects from them.
""",
)
YAML_TOO_DEEP = rule(
    "Y004",
    "nesting-too-deep",
    Severity.ERROR,
    "nesting deeper than {limit} levels",
    "Flatten the structure; real manifests nest at most about 15 levels.",
    """
The document nests collections deeper than the registry's limit. Hostile files use deep nesting to
exhaust the stack of parsers; the registry stops reading such a file and reports it.
""",
)
YAML_TOO_LARGE = rule(
    "Y005",
    "file-too-large",
    Severity.ERROR,
    "file is {size} bytes, over the limit of {limit} bytes",
    "Split the data or remove what is not needed; the largest real manifest is about 200 KB.",
    """
The file is larger than the registry reads. The limit protects the validator and the site build
from files meant to exhaust memory.
""",
)
YAML_ALIAS_BOMB = rule(
    "Y006",
    "alias-expansion",
    Severity.ERROR,
    "the document expands to more than {limit} values through aliases or size",
    "Avoid anchors and aliases that nest each other; write the data out plainly.",
    """
YAML anchors and aliases can make a small file expand into billions of values ("billion laughs").
The registry counts every value an alias expands to and stops reading past its limit.
""",
)
YAML_ENCODING = rule(
    "Y007",
    "invalid-utf8",
    Severity.ERROR,
    "the file is not valid UTF-8 text ({problem})",
    "Save the file as UTF-8; binary data does not belong in a YAML file.",
    """
Dify reads YAML as UTF-8. A file with invalid byte sequences or NUL bytes is binary data or uses
another encoding, and is refused.
""",
)
YAML_BOM = rule(
    "Y008",
    "utf8-bom",
    Severity.INFO,
    "the file starts with a UTF-8 byte order mark",
    "Save without a BOM; it is accepted but invisible, and some tools choke on it.",
    """
The file starts with the bytes EF BB BF. PyYAML accepts the mark, so Dify does too, but it is
invisible in editors and breaks simple text tools such as `head` checks in scripts.
""",
)
YAML_CRLF = rule(
    "Y009",
    "crlf-line-endings",
    Severity.INFO,
    "the file uses CRLF (Windows) line endings",
    "Convert to LF line endings (for example with `dos2unix` or a `.gitattributes` rule).",
    """
The file uses carriage return + line feed at line ends. YAML accepts both; LF keeps diffs clean and
matches the rest of the plugin ecosystem.
""",
)
YAML_EMPTY = rule(
    "Y010",
    "empty-document",
    Severity.ERROR,
    "the file holds no YAML document",
    "Write the expected mapping into the file.",
    """
The file is empty or only has comments. Dify expects a mapping in every referenced YAML file.
""",
)
YAML_MULTI_DOC = rule(
    "Y011",
    "multiple-documents",
    Severity.WARNING,
    "the file holds more than one YAML document; only the first is read",
    "Remove the `---` separator and the documents after it.",
    """
Dify reads one document per file. Any document after a `---` separator is ignored.
""",
)
YAML_KEY_TYPE = rule(
    "Y012",
    "non-string-key",
    Severity.WARNING,
    "key {key} is read as {kind}, not as a string",
    "Quote the key so YAML reads it as text.",
    """
YAML reads unquoted keys such as `yes`, `on`, `1` or `null` as booleans, numbers or null. Dify
expects text keys; quote them to say what you mean.
""",
)

_CORE_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:timestamp",
    "tag:yaml.org,2002:map",
    "tag:yaml.org,2002:seq",
    "tag:yaml.org,2002:merge",
}

Position = tuple[int, int]


@dataclass(frozen=True)
class YamlDocument:
    """A parsed file: its data, where each value and key starts, and findings from reading it."""

    path: str
    data: Any
    positions: dict[str, Position] = field(repr=False)
    key_positions: dict[str, Position] = field(repr=False)
    findings: tuple[Finding, ...] = ()
    # The lines read as quoted text in a file that does not parse as it stands (`load/repair.py`).
    repaired: tuple[int, ...] = ()

    @property
    def ok(self) -> bool:
        """True when the file was read (it may still carry notes such as a BOM)."""
        return not any(d.severity is Severity.ERROR for d in self.findings)

    def locate(self, pointer: str, *, key: bool = False) -> Location:
        """Where the value (or, with `key`, its key) at `pointer` starts; else its nearest parent."""
        table = self.key_positions if key else self.positions
        probe = pointer
        while True:
            found = table.get(probe) or self.positions.get(probe)
            if found is not None:
                return Location(self.path, found[0], found[1], pointer)
            if not probe:
                return Location(self.path, 1, 1, pointer)
            probe = probe.rsplit("/", 1)[0]

    def at(self, *parts: str | int) -> Location:
        """Location of the value at the path given as parts (keys and list indexes)."""
        return self.locate(pointer_of(*parts))

    def key_at(self, *parts: str | int) -> Location:
        """Location of the key at the path given as parts."""
        return self.locate(pointer_of(*parts), key=True)


def escape_token(token: str | int) -> str:
    """One JSON pointer reference token (RFC 6901)."""
    text = str(token)
    if "~" not in text and "/" not in text:
        return text
    return text.replace("~", "~0").replace("/", "~1")


def pointer_of(*parts: str | int) -> str:
    """The JSON pointer for a path of keys and indexes."""
    return "".join("/" + escape_token(p) for p in parts)


def read_yaml(raw: bytes, path: str) -> YamlDocument:
    """Parse `raw` bytes (the content of `path`) into a YamlDocument; never raises on bad input."""
    notes: list[Finding] = []
    start = Location(path, 1, 1, "")
    if len(raw) > MAX_FILE_BYTES:
        return _failed(path, YAML_TOO_LARGE.at(start, size=len(raw), limit=MAX_FILE_BYTES))
    if raw.startswith(BOM):
        notes.append(YAML_BOM.at(start))
        raw = raw[len(BOM) :]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as bad:
        return _failed(path, YAML_ENCODING.at(_byte_location(raw, bad.start, path), problem=bad.reason))
    if "\x00" in text:
        return _failed(
            path,
            YAML_ENCODING.at(_char_location(text, text.index("\x00"), path), problem="NUL byte"),
        )
    if "\r\n" in text:
        notes.append(YAML_CRLF.at(_char_location(text, text.index("\r\n"), path)))
    builder = _Builder(path)
    loader = _Loader(text)
    try:
        # Events pulled straight from the loader: no generator frame to resume per event.
        data = builder.build(iter(loader.get_event, None))
    except _Stop as stop:
        return _failed(path, *notes, *builder.findings, stop.finding)
    except yaml.MarkedYAMLError as bad:
        mark = bad.problem_mark or bad.context_mark
        where = Location(path, mark.line + 1, mark.column + 1, "") if mark else start
        problem = bad.problem or bad.context or "invalid YAML"
        if "nesting depth" in problem:  # libyaml's own guard, below ours only for bare brackets
            return _failed(path, *notes, *builder.findings, YAML_TOO_DEEP.at(where, limit=MAX_DEPTH))
        return _failed(path, *notes, *builder.findings, YAML_SYNTAX.at(where, problem=problem))
    except yaml.YAMLError as bad:  # reader errors such as control characters
        return _failed(path, *notes, YAML_SYNTAX.at(start, problem=str(bad).splitlines()[0]))
    finally:
        loader.dispose()
    if builder.empty:
        notes.append(YAML_EMPTY.at(start))
    return YamlDocument(path, data, builder.positions, builder.key_positions, (*notes, *builder.findings))


def oversized(path: str, size: int) -> YamlDocument:
    """The document of a file too large to read (its size known without reading it)."""
    return _failed(path, YAML_TOO_LARGE.at(Location(path, 1, 1, ""), size=size, limit=MAX_FILE_BYTES))


def _failed(path: str, *findings: Finding) -> YamlDocument:
    return YamlDocument(path, None, {}, {}, findings)


def _byte_location(raw: bytes, offset: int, path: str) -> Location:
    line = raw.count(b"\n", 0, offset) + 1
    column = offset - (raw.rfind(b"\n", 0, offset) + 1) + 1
    return Location(path, line, column, "")


def _char_location(text: str, offset: int, path: str) -> Location:
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return Location(path, line, column, "")


class _Stop(Exception):
    """Reading stops here: a limit was hit."""

    def __init__(self, finding: Finding) -> None:
        super().__init__(finding.message)
        self.finding = finding


@dataclass
class _Frame:
    """A collection being built: a list, or a dict waiting for its next key or value."""

    container: Any
    pointer: str
    anchor: str | None
    start_count: int
    is_map: bool
    key: Any = None
    key_mark: Position | None = None
    has_key: bool = False
    first_lines: dict[str, int] = field(default_factory=dict)
    merge_keys: list[Any] = field(default_factory=list)


class _Builder:
    """Turns parser events into Python values with positions; iterative on purpose."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.positions: dict[str, Position] = {}
        self.key_positions: dict[str, Position] = {}
        self.findings: list[Finding] = []
        self.anchors: dict[str, tuple[Any, int]] = {}
        self.count = 0
        self.empty = True
        self._constructor = yaml.SafeLoader("")  # scalar construction and implicit tag rules

    def build(self, events: Iterator[yaml.Event]) -> Any:
        stack: list[_Frame] = []
        result: Any = None
        documents = 0
        scalar = yaml.ScalarEvent
        for event in events:
            if type(event) is scalar and documents == 1 and stack and _is_text(event):
                self._text(stack[-1], event)
                continue
            if isinstance(event, yaml.DocumentStartEvent):
                documents += 1
                if documents == 2:
                    self.findings.append(YAML_MULTI_DOC.at(self._loc(event, "")))
                continue
            if documents > 1 or isinstance(
                event, yaml.StreamStartEvent | yaml.StreamEndEvent | yaml.DocumentEndEvent
            ):
                continue
            if isinstance(event, yaml.MappingEndEvent | yaml.SequenceEndEvent):
                frame = stack.pop()
                if frame.merge_keys:
                    _apply_merges(frame.container, frame.merge_keys)
                if frame.anchor:
                    self.anchors[frame.anchor] = (frame.container, self.count - frame.start_count)
                value = frame.container
                if not stack:
                    result = value
                else:
                    self._attach(stack[-1], value, event)
                continue
            self.empty = False
            parent = stack[-1] if stack else None
            if parent is not None and parent.is_map and not parent.has_key:
                self._take_key(parent, event)
                continue
            pointer = self._child_pointer(parent)
            value, opened = self._node(event, pointer, len(stack))
            if opened is not None:
                stack.append(opened)
                continue
            if parent is None:
                result = value
            else:
                self._attach(parent, value, event)
        return result

    def _text(self, parent: _Frame, event: yaml.ScalarEvent) -> None:
        """The common case, kept short: a key or value inside a collection that can only be text."""
        self.empty = False
        self.count += 1
        if self.count > MAX_NODES:
            raise _Stop(YAML_ALIAS_BOMB.at(self._loc(event, ""), limit=MAX_NODES))
        mark = event.start_mark
        position = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        if parent.is_map and not parent.has_key:
            parent.key, parent.key_mark, parent.has_key = event.value, position, True
        else:
            self.positions.setdefault(self._child_pointer(parent), position)
            self._attach(parent, event.value, event)

    def _child_pointer(self, parent: _Frame | None) -> str:
        if parent is None:
            return ""
        if not parent.is_map:
            return parent.pointer + "/" + str(len(parent.container))
        return parent.pointer + "/" + escape_token(_key_text(parent.key))

    def _node(self, event: yaml.Event, pointer: str, depth: int) -> tuple[Any, _Frame | None]:
        self._tick(event)
        self.positions.setdefault(pointer, _pos(event))
        if isinstance(event, yaml.AliasEvent):
            return self._alias(event), None
        tag = getattr(event, "tag", None)
        if isinstance(event, yaml.ScalarEvent):
            value = self._scalar(event, pointer)
            if event.anchor:
                self.anchors[event.anchor] = (value, 1)
            return value, None
        if depth >= MAX_DEPTH:
            raise _Stop(YAML_TOO_DEEP.at(self._loc(event, pointer), limit=MAX_DEPTH))
        self._check_tag(
            tag,
            event,
            pointer,
            "tag:yaml.org,2002:map" if isinstance(event, yaml.MappingStartEvent) else "tag:yaml.org,2002:seq",
        )
        assert isinstance(event, yaml.CollectionStartEvent)  # scalars and aliases returned above
        is_map = isinstance(event, yaml.MappingStartEvent)
        return None, _Frame({} if is_map else [], pointer, event.anchor, self.count, is_map)

    def _take_key(self, frame: _Frame, event: yaml.Event) -> None:
        self._tick(event)
        if isinstance(event, yaml.ScalarEvent):
            key = self._scalar(event, frame.pointer + "/?")
        elif isinstance(event, yaml.AliasEvent):
            key = self._alias(event)
        else:
            raise _Stop(
                YAML_SYNTAX.at(self._loc(event, frame.pointer), problem="a mapping or list used as a key")
            )
        frame.key, frame.key_mark, frame.has_key = key, _pos(event), True

    def _attach(self, frame: _Frame, value: Any, event: yaml.Event) -> None:
        if not frame.is_map:
            frame.container.append(value)
            return
        key, frame.has_key = frame.key, False
        if key == "<<" and frame.key_mark is not None:
            frame.merge_keys.append(value)
            return
        if not isinstance(key, str):
            kind = "null" if key is None else type(key).__name__
            self.findings.append(
                YAML_KEY_TYPE.at(self._at(frame.key_mark, frame.pointer), key=repr(key), kind=kind)
            )
        text = _key_text(key)
        child = frame.pointer + "/" + escape_token(text)
        if text in frame.container:
            first_line = frame.first_lines.get(text, 0)
            self.findings.append(
                YAML_DUPLICATE_KEY.at(self._at(frame.key_mark, child), key=text, first_line=first_line)
            )
        else:
            frame.first_lines[text] = (frame.key_mark or (0, 0))[0]
            if frame.key_mark is not None:
                self.key_positions[child] = frame.key_mark
        frame.container[text] = value

    def _scalar(self, event: yaml.ScalarEvent, pointer: str) -> Any:
        if event.style and event.tag is None:
            return event.value  # quoted and block scalars without a tag are text: the common case
        if event.tag and event.tag != "!":
            tag = event.tag
            self._check_tag(tag, event, pointer, "tag:yaml.org,2002:str")
        else:
            tag = self._constructor.resolve(  # type: ignore[no-untyped-call]
                yaml.ScalarNode, event.value, event.implicit
            )
        if tag == "tag:yaml.org,2002:timestamp":
            return event.value  # keep dates as written: manifests are JSON data, not Python objects
        if tag == "tag:yaml.org,2002:str" or tag not in _CORE_TAGS or tag == "tag:yaml.org,2002:merge":
            return event.value
        node = yaml.ScalarNode(tag, event.value, None, None, event.style)
        try:
            value = self._constructor.construct_object(node)
        except (ValueError, yaml.constructor.ConstructorError):
            return event.value
        if isinstance(value, datetime.date):
            return event.value
        return value

    def _check_tag(self, tag: str | None, event: yaml.Event, pointer: str, default: str) -> None:
        if tag in (None, "!", default) or tag in _CORE_TAGS:
            return
        raise _Stop(YAML_TAG.at(self._loc(event, pointer), tag=tag))

    def _alias(self, event: yaml.AliasEvent) -> Any:
        anchored = self.anchors.get(event.anchor or "")
        if anchored is None:
            raise _Stop(YAML_SYNTAX.at(self._loc(event, ""), problem=f"unknown alias *{event.anchor}"))
        value, size = anchored
        # Aliased values are shared, not copied, but every later walk over the data would
        # expand them: count their full size against the budget.
        self.count += size
        if self.count > MAX_NODES:
            raise _Stop(YAML_ALIAS_BOMB.at(self._loc(event, ""), limit=MAX_NODES))
        return value

    def _tick(self, event: yaml.Event) -> None:
        self.count += 1
        if self.count > MAX_NODES:
            raise _Stop(YAML_ALIAS_BOMB.at(self._loc(event, ""), limit=MAX_NODES))

    def _loc(self, event: yaml.Event, pointer: str) -> Location:
        return self._at(_pos(event), pointer)

    def _at(self, position: Position | None, pointer: str) -> Location:
        line, column = position or (1, 1)
        return Location(self.path, line, column, pointer)


# First characters of plain scalars that an implicit resolver may read as something other than text
# (booleans, numbers, null, merge keys, timestamps); any other plain scalar is a string.
_RESOLVED_FIRST = frozenset(k for k in yaml.SafeLoader.yaml_implicit_resolvers if k)


def _is_text(event: yaml.ScalarEvent) -> bool:
    """True when the scalar reads as a string whatever the resolvers say: a quoted or block scalar,
    or a plain one no resolver can claim; untagged and unanchored either way."""
    if event.tag is not None or event.anchor is not None:
        return False
    value = event.value
    return bool(event.style) or (bool(value) and value[0] not in _RESOLVED_FIRST)


def _pos(event: yaml.Event) -> Position:
    mark = event.start_mark
    return (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)


def _key_text(key: Any) -> str:
    if isinstance(key, str):
        return key
    if isinstance(key, bool):
        return "true" if key else "false"
    return "null" if key is None else str(key)


def _apply_merges(container: Any, merges: list[Any]) -> None:
    """YAML merge keys (`<<: *base`): explicit keys win over merged ones."""
    if not isinstance(container, dict):
        return
    for merged in merges:
        sources = merged if isinstance(merged, list) else [merged]
        for source in sources:
            if isinstance(source, dict):
                for key, value in source.items():
                    container.setdefault(key, value)
