"""What text output shows of many findings: each plugin's under its name, a few of each rule per
plugin (the rest counted), and the count of each rule at the end, as `ruff --statistics` does.

A collection of 149 plugins gave 3,067 lines of findings, most of them the same few rules again and
again; a person reads the first few of each and the counts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from generator.findings import Finding, Severity, count_by_severity

SHOWN_PER_RULE = 3  # findings of one rule shown per plugin without --show-all


@dataclass(frozen=True)
class FindingGroup:
    """The findings of one plugin (`owner` "" for findings of no plugin), and what is left out."""

    owner: str
    shown: tuple[Finding, ...]
    hidden: Counter[str]  # rule code -> findings of it not shown
    counts: dict[Severity, int]


def group_findings(
    findings: Sequence[Finding], owners: Sequence[tuple[str, Sequence[Finding]]], show_all: bool
) -> list[FindingGroup]:
    """Findings of no plugin first, then each plugin's that has any, in the order of `owners`."""
    owned = {d for _, found in owners for d in found}
    unowned = [d for d in findings if d not in owned]
    groups = [("", unowned), *owners]
    return [_group(owner, found, show_all) for owner, found in groups if found]


def _group(owner: str, found: Sequence[Finding], show_all: bool) -> FindingGroup:
    seen: Counter[str] = Counter()
    shown: list[Finding] = []
    hidden: Counter[str] = Counter()
    for finding in found:
        seen[finding.rule] += 1
        if show_all or not owner or seen[finding.rule] <= SHOWN_PER_RULE:
            shown.append(finding)
        else:
            hidden[finding.rule] += 1
    return FindingGroup(owner, tuple(shown), hidden, count_by_severity(found))


def hidden_line(group: FindingGroup) -> str:
    """What a plugin's group leaves out, or "" when it shows everything."""
    if not group.hidden:
        return ""
    total = sum(group.hidden.values())
    rules = ", ".join(f"{code} ({count})" for code, count in sorted(group.hidden.items()))
    return f"  ... {total} more of {rules} in this plugin; --show-all shows every finding"


def rule_statistics(findings: Iterable[Finding]) -> list[str]:
    """One line per rule: count, code and name, the most frequent first."""
    counts = Counter(d.rule for d in findings)
    if not counts:
        return []  # a clean run need not import every rule module (the runner's among them)
    from generator.ruleset import all_rules

    rules = all_rules()
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    width = len(str(ordered[0][1])) if ordered else 1
    return [
        f"{count:>{width}}  {code:<5} {rules[code].name if code in rules else ''}".rstrip()
        for code, count in ordered
    ]
