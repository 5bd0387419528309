"""The complete, frozen set of rules: collected from the modules that declare them.

This module sits above the stages (only the command line, the site and the reports use it): it
imports every module that declares rules, while those modules import nothing of it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from types import MappingProxyType, ModuleType
from typing import cast

import generator.check.library_calls
import generator.check.select_never
import generator.diff.changes
import generator.diff.events
import generator.diff.plugin_changes
import generator.diff.tools
import generator.diff.version
import generator.load.crawl
import generator.load.event_examples
import generator.load.examples
import generator.load.kinds.trigger
import generator.load.package
import generator.load.recordings
import generator.load.registry_examples
import generator.load.yamlload
import generator.run.assemble
import generator.run.dependencies
import generator.run.event_runs
import generator.run.indexes
import generator.run.judge
import generator.run.lockfile
import generator.run.native
import generator.run.pyversion
import generator.run.replay
import generator.run.reqfile
import generator.run.returned
import generator.run.runner
import generator.run.verdict
import generator.schemas.inline
import generator.schemas.lint
import generator.schemas.load
import generator.schemas.lock
import generator.workflow.check
import generator.workflow.dsl
import generator.workflow.pipeline
import generator.workflow.pipeline_dsl
import generator.workflow.triggers
from generator.check.all_checks import CHECKS
from generator.rules import Rule

# Modules that declare rules besides the check modules (`CHECKS`); listed once, so the set is
# complete without a directory scan (`tests/test_ruleset.py` fails on a declaring module left out).
RULE_MODULES: tuple[ModuleType, ...] = (
    generator.load.yamlload,
    generator.check.select_never,  # R085, told by select_unhandled's check (one reading, two rules)
    generator.check.library_calls,  # R130, R131, told by the pipeline once an environment is built
    generator.load.package,
    generator.load.crawl,
    generator.load.examples,
    generator.load.recordings,
    generator.load.registry_examples,
    generator.load.kinds.trigger,
    generator.run.runner,
    generator.run.assemble,
    generator.run.returned,
    generator.run.dependencies,
    generator.run.lockfile,
    generator.run.pyversion,
    generator.run.indexes,
    generator.run.native,
    generator.run.judge,
    generator.run.replay,
    generator.run.reqfile,
    generator.run.verdict,
    generator.schemas.inline,
    generator.schemas.lint,
    generator.schemas.load,
    generator.schemas.lock,
    generator.diff.changes,
    generator.diff.events,
    generator.diff.plugin_changes,
    generator.diff.tools,
    generator.diff.version,
    generator.workflow.dsl,
    generator.workflow.check,
    generator.workflow.triggers,
    generator.load.event_examples,
    generator.run.event_runs,
    generator.workflow.pipeline_dsl,
    generator.workflow.pipeline,
)


class DuplicateRule(ValueError):
    """Two different rules were declared with one code."""


def collect(modules: Iterable[ModuleType]) -> Mapping[str, Rule]:
    """The rules the modules hold at their top level, alone or in a table (a dict, tuple or list),
    by code in code order; a module that imports another's rule holds the same object, which
    counts once."""
    found: dict[str, Rule] = {}
    for module in modules:
        for rule in _held(vars(module).values()):
            known = found.setdefault(rule.code, rule)
            if known is not rule:
                raise DuplicateRule(f"rule {rule.code} is declared twice (in {module.__name__})")
    return MappingProxyType(dict(sorted(found.items())))


def _held(values: Iterable[object]) -> Iterable[Rule]:
    for value in values:
        if isinstance(value, Rule):
            yield value
        elif isinstance(value, Mapping | tuple | list):
            items = value.values() if isinstance(value, Mapping) else value
            yield from (item for item in items if isinstance(item, Rule))


@cache
def all_rules() -> Mapping[str, Rule]:
    """Every rule the project declares, by code, in code order."""
    return collect((*RULE_MODULES, *(cast(ModuleType, module) for module in CHECKS.values())))


def get_rule(code: str) -> Rule:
    """The rule with this code."""
    return all_rules()[code]
