"""The outbound domains a plugin's code names (a static scan of URLs, as the marketplace shows them
under "Access domain" on a plugin's page), cross-checked with the manifest's `network.domains`."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from generator.check import CheckContext
from generator.check.common import documents, every_node, submission_only
from generator.check.hosts import URL, covered, declared_host, hosts_in
from generator.check.safety import dotted_name, http_call_names
from generator.findings import Finding, Severity
from generator.load.crawl import LoadedPlugin
from generator.load.values import dig
from generator.load.yamlload import YamlDocument
from generator.rules import Listing, rule

# A file naming more hosts than this is a data table (a list of endpoints per region, fixtures),
# not a list of the places the plugin dials: the marketplace's scan skips such files too.
MAX_HOSTS_PER_FILE = 20
MAX_HOSTS = 200
_CODE_SUFFIXES = (".py", ".js", ".ts", ".json")
# YAML keys whose values are links for people (where to get a key, the documentation, the source) or
# texts shown to them, never addresses the plugin requests.
_FOR_PEOPLE = frozenset(
    {"url", "help", "privacy", "repo", "documentation", "icon", "icon_dark", "website", "homepage"}
    | {"label", "description", "human_description", "llm_description", "placeholder", "human", "llm"}
    | {"oauth_schema", "$ref", "$schema", "$id", "network"}
)
_URL_CALLS = frozenset({"urlopen", "urllib.request.urlopen", "request.urlopen", "aiohttp.ClientSession"})


@dataclass(frozen=True, slots=True)
class Host:
    """A host named by the plugin, and the first place (plugin-relative file, line) naming it."""

    name: str
    file: str
    line: int


@dataclass(frozen=True, slots=True)
class AccessDomains:
    """What the static scan found: hosts, network call sites and how many of them build their
    address at run time, data files skipped, and the manifest's declaration (None when absent)."""

    hosts: tuple[Host, ...] = ()
    call_sites: int = 0
    built_at_run_time: int = 0
    skipped_files: int = 0
    declared: tuple[str, ...] | None = None


ACCESS_DOMAINS = rule(
    "U028",
    "access-domains",
    Severity.INFO,
    "the plugin names {count} outbound domain(s): {hosts}; {built} of {sites} network call(s) build "
    "their address at run time",
    "Check that the list is complete: the marketplace shows it on the plugin's page; declare the "
    "domains in the manifest's `network.domains`.",
    """
The marketplace shows on each plugin's page the domains its code contacts ("Access domain"), found
by a static scan of the URLs in the package (`check-access-domains.py` and `toolkit/scan/hosts.py`
of `langgenius/dify-marketplace-toolkit`). The registry scans the same way and shows the result on
the plugin's page: URLs in Python string literals (not docstrings or comments), in JSON and
JavaScript files, and in YAML values that are not links or texts for people. Names a plugin never
dials are left out: source hosting, schema identifiers (`$ref`, `xmlns`), package mirrors,
documentation hosts (`docs.*`, `*.readthedocs.io`), loopback addresses and reserved example
domains. A file naming more than 20 hosts is taken as a data table and skipped. The count of network
calls (`requests`, `httpx`, `urlopen`, `aiohttp`) whose arguments hold no literal URL says how much
the list cannot show: those calls build their address at run time. Where the plugin's examples were
run, the page also lists the hosts the runs tried to reach (observed beats guessed).
""",
)
UNDECLARED_DOMAIN = rule(
    "U029",
    "domain-not-declared",
    Severity.WARNING,
    "{host} is named in {place} but not declared in the manifest's network.domains",
    "Add `{host}` (or a `*.` wildcard covering it) to network.domains, or remove the address.",
    """
`network.domains` in `manifest.yaml` is an optional declaration of the domains the plugin contacts.
The marketplace's pre-check compares it with its static scan: a domain the code names but the
declaration leaves out is reported, the reverse is not (addresses built at run time or held by an
SDK cannot be found by a scan, which is what a declaration is for). The registry does the same when
the manifest declares `network.domains`; a wildcard `*.example.com` covers its subdomains and the
domain itself. Without a declaration, rule U028 lists what was found.
""",
)


@submission_only
def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """The access-domain note and undeclared domains, only with `--submission`."""
    found = access_domains(loaded)
    manifest = next((document for _, document in documents(loaded, "manifest")), None)
    if manifest is None:
        return
    if found.hosts or found.call_sites:
        names = Listing([host.name for host in found.hosts], most=20) if found.hosts else "none"
        yield ACCESS_DOMAINS.at(
            manifest.key_at("network") if found.declared is not None else manifest.at(),
            count=len(found.hosts),
            hosts=names,
            built=found.built_at_run_time,
            sites=found.call_sites,
        )
    if found.declared is None:
        return
    for host in found.hosts:
        if not covered(host.name, found.declared):
            place = f"{host.file}:{host.line}"
            yield UNDECLARED_DOMAIN.at(manifest.at("network", "domains"), host=host.name, place=place)


def access_domains(loaded: LoadedPlugin) -> AccessDomains:
    """The scan of one plugin, made once (the site and the check both ask)."""
    return loaded.reader.derived("access-domains", "", lambda: _scan(loaded))


def _scan(loaded: LoadedPlugin) -> AccessDomains:
    hosts: dict[str, Host] = {}
    sites = built = skipped = 0
    per_file: list[tuple[str, list[tuple[str, int]]]] = []
    for file in loaded.reader.tree.files:
        if not file.relative.endswith(_CODE_SUFFIXES) or file.relative.rsplit("/", 1)[-1].startswith("."):
            continue
        text = loaded.reader.packaged_text(file)
        if text is None:
            continue
        if file.relative.endswith(".py"):
            named, file_sites, file_built = _python_hosts(loaded.reader.python_tree(file))
            sites, built = sites + file_sites, built + file_built
        else:
            named = [(host, n) for n, line in enumerate(text.splitlines(), 1) for host in hosts_in(line)]
        per_file.append((file.relative, named))
    for relative, document in loaded.documents.items():
        if isinstance(document.data, dict):
            per_file.append((relative, list(_yaml_hosts(document.data, document, ()))))
    for relative, named in per_file:
        if len({host for host, _ in named}) > MAX_HOSTS_PER_FILE:
            skipped += 1
            continue
        for host, line in named:
            if host not in hosts and len(hosts) < MAX_HOSTS:
                hosts[host] = Host(host, relative, line)
    return AccessDomains(
        tuple(sorted(hosts.values(), key=lambda h: h.name)), sites, built, skipped, _declared(loaded)
    )


def _python_hosts(tree: ast.Module | None) -> tuple[list[tuple[str, int]], int, int]:
    """Hosts in string literals (docstrings left out; comments never reach the tree), the network
    call sites, and how many of them hold no literal URL."""
    if tree is None:
        return [], 0, 0  # U013 reports the file; a scan of its lines would count comments
    docstrings = {id(doc) for node in every_node(tree) if (doc := _docstring(node)) is not None}
    named = [
        (host, node.lineno)
        for node in every_node(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
        for host in hosts_in(node.value)
    ]
    calls = http_call_names(tree)
    sites = built = 0
    for node in every_node(tree):
        if isinstance(node, ast.Call) and (
            dotted_name(node.func) in calls or dotted_name(node.func) in _URL_CALLS
        ):
            sites += 1
            arguments = [*node.args, *(k.value for k in node.keywords)]
            if not any(_names_host(argument) for argument in arguments):
                built += 1
    return named, sites, built


def _docstring(node: ast.AST) -> ast.Constant | None:
    """The docstring node of a module, class or function: a URL there documents, it is not called."""
    if not isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return None
    first = node.body[0] if node.body else None
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
        return first.value if isinstance(first.value.value, str) else None
    return None


def _names_host(node: ast.AST) -> bool:
    """Whether a call argument holds a literal URL (of any host, a left-out one too)."""
    return any(
        isinstance(sub, ast.Constant) and isinstance(sub.value, str) and URL.search(sub.value)
        for sub in ast.walk(node)
    )


def _yaml_hosts(value: Any, document: YamlDocument, path: tuple[str | int, ...]) -> Iterator[tuple[str, int]]:
    if isinstance(value, dict):
        for key, child in value.items():
            if isinstance(key, str) and key.lower() not in _FOR_PEOPLE:
                yield from _yaml_hosts(child, document, (*path, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _yaml_hosts(child, document, (*path, index))
    elif isinstance(value, str):
        for host in hosts_in(value):
            yield host, document.at(*path).line


def _declared(loaded: LoadedPlugin) -> tuple[str, ...] | None:
    for _relative, manifest in documents(loaded, "manifest"):
        domains = dig(manifest.data, "network", "domains")
        if isinstance(domains, list):
            return tuple(h for h in (declared_host(d) for d in domains if isinstance(d, str)) if h)
    return None
