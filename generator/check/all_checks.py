"""Every check module, named once in the order they run: adding a check is adding a line to `CHECKS`.

A typed mapping against the `Check` protocol, so that mypy sees that each module has
`check(loaded, context)`; each module also declares its rules as data (`generator.ruleset` collects
them).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Protocol

from generator.check import (
    CheckContext,
    abstract_tool,
    binaries,
    bytes_text,
    class_missing,
    constant_tests,
    credential_checks,
    credential_reads,
    credential_refusals,
    datasource,
    dependencies,
    dependency_file,
    domains,
    empty_results,
    environment,
    error_answers,
    examples,
    file_branches,
    float_arguments,
    http_bodies,
    http_flow,
    invoke_shape,
    invoked_providers,
    json_data,
    literal_keys,
    local_defaults,
    locales,
    lookups,
    manifest,
    message_payloads,
    missing_imports,
    none_messages,
    optional_credentials,
    optional_reads,
    output_schema,
    own_attributes,
    own_calls,
    parameters,
    permissions,
    placeholder,
    plugin_start,
    programs,
    provider,
    pydantic_models,
    python,
    readme,
    reserved_names,
    result_keys,
    safety,
    schema,
    sdk_calls,
    sdk_file,
    sdk_names,
    secrets,
    select_credentials,
    select_options,
    select_silent,
    select_unhandled,
    submission,
    success_answers,
    tested_keys,
    texts,
    tool,
    tool_construction,
    trigger,
    typed_reads,
    unbound_paths,
    undeclared,
    undefined_names,
    unparsed,
    unread_parameters,
    unyielded,
    variable_types,
    variables_in_code,
    yielded_generators,
)
from generator.findings import Finding
from generator.load.crawl import LoadedPlugin
from generator.load.repair import told_on_repaired


class Check(Protocol):
    """A check module: the findings of one concern for one plugin."""

    def check(self, loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]: ...


CHECKS: Mapping[str, Check] = MappingProxyType(
    {
        "schema": schema,
        "manifest": manifest,
        "provider": provider,
        "credential_refusals": credential_refusals,
        "tool": tool,
        "parameters": parameters,
        "local_defaults": local_defaults,
        "locales": locales,
        "submission": submission,
        "secrets": secrets,
        "binaries": binaries,
        "dependencies": dependencies,
        "dependency_file": dependency_file,
        "python": python,
        "safety": safety,
        "domains": domains,
        "output_schema": output_schema,
        "texts": texts,
        "readme": readme,
        "examples": examples,
        "unyielded": unyielded,
        "undeclared": undeclared,
        "unread_parameters": unread_parameters,
        "lookups": lookups,
        "tested_keys": tested_keys,
        "bytes_text": bytes_text,
        "optional_reads": optional_reads,
        "typed_reads": typed_reads,
        "select_options": select_options,
        "select_unhandled": select_unhandled,
        "select_silent": select_silent,
        "none_messages": none_messages,
        "empty_results": empty_results,
        "reserved_names": reserved_names,
        "credential_reads": credential_reads,
        "credential_checks": credential_checks,
        "optional_credentials": optional_credentials,
        "select_credentials": select_credentials,
        "own_attributes": own_attributes,
        "own_calls": own_calls,
        "invoked_providers": invoked_providers,
        "missing_imports": missing_imports,
        "sdk_names": sdk_names,
        "sdk_calls": sdk_calls,
        "message_payloads": message_payloads,
        "pydantic_models": pydantic_models,
        "permissions": permissions,
        "undefined_names": undefined_names,
        "unbound_paths": unbound_paths,
        "variables_in_code": variables_in_code,
        "variable_types": variable_types,
        "yielded_generators": yielded_generators,
        "placeholder": placeholder,
        "error_answers": error_answers,
        "plugin_start": plugin_start,
        "tool_construction": tool_construction,
        "programs": programs,
        "http_bodies": http_bodies,
        "http_flow": http_flow,
        "success_answers": success_answers,
        "literal_keys": literal_keys,
        "json_data": json_data,
        "environment": environment,
        "float_arguments": float_arguments,
        "abstract_tool": abstract_tool,
        "class_missing": class_missing,
        "invoke_shape": invoke_shape,
        "sdk_file": sdk_file,
        "file_branches": file_branches,
        "result_keys": result_keys,
        "constant_tests": constant_tests,
        "unparsed": unparsed,
        "trigger": trigger,
        "datasource": datasource,
    }
)


def check_plugin(loaded: LoadedPlugin, context: CheckContext) -> list[Finding]:
    """Every finding for one plugin: loading findings plus every check's."""
    findings = list(loaded.findings)
    for module in CHECKS.values():
        findings.extend(module.check(loaded, context))
    return told_on_repaired(loaded.documents.values(), findings)
