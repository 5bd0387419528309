"""Defaults that point at a private network: they work on the author's machine and nowhere else."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from generator.check import CheckContext
from generator.check.common import documents
from generator.check.hosts import local_address
from generator.findings import Finding, Severity
from generator.load.builders import credentials_key
from generator.load.crawl import LoadedPlugin
from generator.load.yamlload import YamlDocument
from generator.rules import rule

LOCAL_DEFAULT = rule(
    "A011",
    "default-on-private-network",
    Severity.WARNING,
    "the default of {what} {name} points at {host}, an address of a private network",
    "Leave the default empty (or use a public address) and say in the label or placeholder what to "
    "enter: {host} is reached only inside the author's own network.",
    """
A parameter's or a provider credential's `default` names a host that exists only inside one network:
loopback (`localhost`, `127.0.0.1`), the private ranges 10.x, 172.16-31.x and 192.168.x (and their
IPv6 counterparts), link-local addresses, or names such as `nas.local` or `host.docker.internal`
that only a local resolver answers. On the author's machine the default works; for every user of a
published plugin, Dify's plugin daemon runs elsewhere and the default leads nowhere (or, worse, to
something else on the user's own network). A warning: a plugin made for a self-hosted service may
mean it, and then says so.
""",
)


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """Parameter defaults of every tool, credential defaults of every provider."""
    for _relative, tool in documents(loaded, "tool"):
        parameters = tool.data.get("parameters")
        for index, parameter in enumerate(parameters if isinstance(parameters, list) else []):
            if isinstance(parameter, dict) and "default" in parameter:
                where = ("parameters", index, "default")
                yield from _judge(tool, where, parameter["default"], "parameter", parameter.get("name"))
    for _relative, provider in documents(loaded, "tools provider"):
        key = credentials_key(provider.data)
        credentials = provider.data.get(key)
        for name, credential in credentials.items() if isinstance(credentials, dict) else ():
            if isinstance(credential, dict) and "default" in credential:
                where = (key, name, "default")
                yield from _judge(provider, where, credential["default"], "credential", name)


def _judge(
    document: YamlDocument, where: tuple[str | int, ...], value: Any, what: str, name: Any
) -> Iterator[Finding]:
    for text in value if isinstance(value, list) else [value]:
        host = local_address(text) if isinstance(text, str) else ""
        if host:
            yield LOCAL_DEFAULT.at(document.at(*where), what=what, name=name, host=host)
            return
