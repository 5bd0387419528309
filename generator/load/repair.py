"""A tool YAML that does not parse, read again with its broken text lines quoted.

One unquoted `: ` in a help text (`en_US: e.g. {"id": 1}`) is a YAML syntax error (Y001) that used to
hide the whole tool: its structure went unchecked and its code was never linked, so an author fixing
the one line met every other error of the tool only in the next round. The error is nearly always
in free text, so the file is read again with that line's value quoted: only lines whose key is a
text field (a locale such as `en_US`, `llm`, `llm_description`) are touched, the value becomes the
same text in single quotes (a plain scalar's ` #` comment cut off, its continuation lines folded
in), and the line numbers of the file are kept. Repeated while the next error is again such a line
(at most `MAX_REPAIRS` lines); any other error, or a line that is not a text field, ends the attempt
and the tool stays unread, as before.

What the repaired copy says is told only where it is what the file says: a finding on a repaired
line is dropped (its value was guessed), and every other finding on the file says in its hint that
the file does not parse and which lines were read as quoted text (`told_on_repaired`). The file
keeps its Y001; Dify reads none of it, and the registry runs none of its tools.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable

from generator.findings import Finding, Severity
from generator.load.yamlload import YAML_SYNTAX, YamlDocument, read_yaml

MAX_REPAIRS = 20
# How far above the error's line the text field it belongs to may start (its continuation lines).
MAX_CONTINUATION = 20
# A text field with its value on the same line: `  en_US: ...`, `- llm: ...`.
_TEXT_FIELD = re.compile(
    r"^(?P<lead>[ ]*(?:-[ ]+)?)(?P<key>[a-z]{2}_[A-Z][A-Za-z]{1,3}|llm|llm_description)"
    r"[ ]*:[ ]+(?P<value>\S.*)$"
)
# Values that are not free text on one line: block scalars, anchors, aliases and tags.
_NOT_TEXT = ("|", ">", "&", "*", "!")


def repaired(raw: bytes, first: YamlDocument) -> YamlDocument | None:
    """`first` (the failed reading of `raw`) read again with its broken text lines quoted, or None
    when the error is not in a text field or quoting does not make the file readable."""
    errors = [f for f in first.findings if f.severity is Severity.ERROR]
    if len(errors) != 1 or errors[0].rule != YAML_SYNTAX.code:
        return None
    try:
        text = raw.decode("utf-8-sig")  # the BOM precedes line 1, column 1: positions are kept
    except UnicodeDecodeError:
        return None
    lines = text.split("\n")
    damaged: set[int] = set()
    error = errors[0]
    for _ in range(MAX_REPAIRS):
        head = _field_line(lines, error.line)
        if head is None or head in damaged:
            return None
        damaged.update(_quote(lines, head))
        again = read_yaml("\n".join(lines).encode("utf-8"), first.path)
        left = [f for f in again.findings if f.severity is Severity.ERROR]
        if not left:
            return dataclasses.replace(
                first,
                data=again.data,
                positions=again.positions,
                key_positions=again.key_positions,
                repaired=tuple(sorted(damaged)),
            )
        if len(left) != 1 or left[0].rule != YAML_SYNTAX.code:
            return None
        error = left[0]
    return None


def _field_line(lines: list[str], line: int) -> int | None:
    """The 1-based line of the text field whose value holds `line` (itself, or a continuation)."""
    for head in range(line, max(0, line - MAX_CONTINUATION), -1):
        if head > len(lines):
            return None
        match = _TEXT_FIELD.match(lines[head - 1].rstrip("\r"))
        if match is None:
            continue
        if match["value"].startswith(_NOT_TEXT):
            return None
        indent = len(match["lead"])
        if all(_continues(lines[number - 1], indent) for number in range(head + 1, line + 1)):
            return head
        return None
    return None


def _continues(line: str, indent: int) -> bool:
    """True when `line` continues a plain scalar whose key sits at column `indent` (0-based)."""
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith("#") and len(line) - len(line.lstrip(" ")) > indent


def _quote(lines: list[str], head: int) -> list[int]:
    """Rewrite the text field at line `head` (1-based) as one single-quoted line; its continuation
    lines become empty. The line numbers touched."""
    original = lines[head - 1]
    ending = "\r" if original.endswith("\r") else ""
    match = _TEXT_FIELD.match(original.rstrip("\r"))
    assert match is not None  # _field_line matched it
    indent = len(match["lead"])
    parts = [match["value"]]
    touched = [head]
    number = head + 1
    while number <= len(lines) and _continues(lines[number - 1], indent):
        parts.append(lines[number - 1].strip())
        lines[number - 1] = ""
        touched.append(number)
        number += 1
    value = " ".join(parts)
    if not value.startswith(("'", '"')):
        value = re.split(r"[ \t]#", value, maxsplit=1)[0].rstrip()  # a plain scalar's comment is not text
    quoted = "'" + value.replace("'", "''") + "'"
    lines[head - 1] = f"{match['lead']}{match['key']}: {quoted}{ending}"
    return touched


def told_on_repaired(documents: Iterable[YamlDocument], findings: Iterable[Finding]) -> list[Finding]:
    """`findings` with those on the repaired lines of a repaired document dropped, and the others
    on such a document told as read from the repaired copy (the document's own findings, its Y001
    among them, as they were)."""
    by_file = {d.path: d for d in documents if d.repaired}
    if not by_file:
        return list(findings)
    told: list[Finding] = []
    for finding in findings:
        document = by_file.get(finding.file)
        if document is None or finding in document.findings:
            told.append(finding)
        elif finding.line not in document.repaired:
            told.append(dataclasses.replace(finding, hint=f"{finding.hint} {_note(document)}"))
    return told


def _note(document: YamlDocument) -> str:
    numbers = ", ".join(str(n) for n in document.repaired)
    lines = "line" if len(document.repaired) == 1 else "lines"
    return (
        f"(This file does not parse as it stands (Y001); it was checked with {lines} {numbers} read"
        " as quoted text, and Dify reads none of it until the YAML is fixed.)"
    )
