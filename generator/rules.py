"""What a rule is: a stable code, a default severity, message and hint templates, and its
documentation, declared as data next to the check that emits it.

Declaring a rule registers nothing: `generator.ruleset` collects the rules of the modules it lists
into one frozen set. This module imports nothing of the stages, so every stage may use it.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.findings import Finding, Location, Severity
from generator.shorten import ARGUMENT, shorten


@dataclass(frozen=True, slots=True)
class Rule:
    """A kind of finding: stable code, default severity, message and hint templates, docs."""

    code: str
    name: str
    severity: Severity
    message: str
    hint: str
    doc: str

    def at(
        self,
        where: Location,
        severity: Severity | None = None,
        hint: str | None = None,
        **values: object,
    ) -> Finding:
        """A finding of this rule at `where`; `values` fill the message and hint templates."""
        return Finding(
            file=where.file,
            line=where.line,
            column=where.column,
            pointer=where.pointer,
            rule=self.code,
            severity=severity or self.severity,
            message=_fill(self.message, values),
            hint=_fill(hint if hint is not None else self.hint, values),
        )


class _Blank(dict[str, object]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _fill(template: str, values: dict[str, object]) -> str:
    # Values may come from a stranger's manifest: shorten them so one finding stays one line.
    shown = _Blank({k: _short(v) for k, v in values.items()})
    return template.format_map(shown)


@dataclass(frozen=True, slots=True)
class Listing:
    """Several values shown in one finding: each shortened, up to `most`, then how many more."""

    items: tuple[object, ...] | list[object] | list[str]
    most: int = 50

    def __str__(self) -> str:
        shown = [_short(item) for item in list(self.items)[: self.most]]
        rest = len(self.items) - len(shown)
        return ", ".join(shown) + (f" and {rest} more" if rest > 0 else "")


class Phrase(str):
    """A text the project composed, whose parts from outside are already shortened: shown whole."""

    __slots__ = ()


def _short(value: object, limit: int = ARGUMENT) -> str:
    if isinstance(value, Listing | Phrase):
        return str(value)
    text = value if isinstance(value, str) else repr(value)
    # Line breaks and tabs read as spaces (uv and tracebacks are full of them); other invisible
    # characters are shown escaped, so a finding stays one honest line.
    text = " ".join(text.split()) if any(ch in text for ch in "\n\r\t") else text
    text = "".join(ch if ch.isprintable() else f"\\u{ord(ch):04x}" for ch in text)
    return shorten(text, limit)


def rule(
    code: str,
    name: str,
    severity: Severity,
    message: str,
    hint: str,
    doc: str,
) -> Rule:
    """Declare a rule (collected by `generator.ruleset`, which refuses a code used twice)."""
    return Rule(code, name, severity, message, hint, doc.strip())
