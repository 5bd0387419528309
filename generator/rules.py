"""The rule registry: every finding the project can emit has a stable code defined here.

Checks define their rules next to the code that emits them with `rule(...)`; importing a
check module registers its rules. `all_rules()` imports every check module first so the
site and the CLI see the complete list.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from generator.diagnostics import Diagnostic, Location, Severity

_RULES: dict[str, Rule] = {}

# Modules that define rules; listed once so `all_rules()` is complete without a directory scan.
RULE_MODULES: tuple[str, ...] = (
    "generator.load.yamlload",
    "generator.load.package",
    "generator.load.crawl",
    "generator.check",
    "generator.run.runner",
    "generator.schemas.load",
    "generator.schemas.lock",
    "generator.diff.plugin",
    "generator.diff.version",
)


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
    ) -> Diagnostic:
        """A finding of this rule at `where`; `values` fill the message and hint templates."""
        return Diagnostic(
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


def _short(value: object, limit: int = 120) -> str:
    if isinstance(value, Listing | Phrase):
        return str(value)
    text = value if isinstance(value, str) else repr(value)
    # Line breaks and tabs read as spaces (uv and tracebacks are full of them); other invisible
    # characters are shown escaped, so a finding stays one honest line.
    text = " ".join(text.split()) if any(ch in text for ch in "\n\r\t") else text
    text = "".join(ch if ch.isprintable() else f"\\u{ord(ch):04x}" for ch in text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def rule(
    code: str,
    name: str,
    severity: Severity,
    message: str,
    hint: str,
    doc: str,
) -> Rule:
    """Define and register a rule; codes are unique and never reused."""
    if code in _RULES:
        raise ValueError(f"rule {code} is defined twice")
    defined = Rule(code, name, severity, message, hint, doc.strip())
    _RULES[code] = defined
    return defined


def all_rules() -> dict[str, Rule]:
    """Every rule the project defines, by code, in code order."""
    for module in RULE_MODULES:
        importlib.import_module(module)
    from generator.check import check_modules

    check_modules()
    return dict(sorted(_RULES.items()))


def get_rule(code: str) -> Rule:
    """The rule with this code (after `all_rules()` or the defining module was imported)."""
    return _RULES[code]
