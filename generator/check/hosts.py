"""Which host names in a plugin's files are places it contacts: URLs found in code and YAML, with the
names that are never dialled (source hosting, schema namespaces, documentation, examples) left out,
as the marketplace's access-domain scan leaves them out."""

from __future__ import annotations

import ipaddress
import re

URL = re.compile(r"""(?i)\bhttps?://([^\s/?#"'`<>)\]}\\,;*]+)""")
_HOST = re.compile(r"^(?:\*\.)?(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}$")
_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*://", re.IGNORECASE)

# Named in code and manifests, never contacted by the plugin: where its source lives, identifiers
# of specifications, package mirrors and font CDNs, and knowledge bases quoted in messages.
_NEVER_DIALLED = frozenset(
    {
        "github.com",
        "www.github.com",
        "gist.github.com",
        "raw.githubusercontent.com",
        "gitlab.com",
        "bitbucket.org",
        "gitee.com",
        "codeberg.org",
        "www.w3.org",
        "w3.org",
        "json-schema.org",
        "schema.org",
        "spdx.org",
        "opensource.org",
        "www.apache.org",
        "creativecommons.org",
        "purl.org",
        "schemas.openxmlformats.org",
        "dify.ai",
        "pypi.org",
        "files.pythonhosted.org",
        "fonts.googleapis.com",
        "fonts.gstatic.com",
        "stackoverflow.com",
        "en.wikipedia.org",
        "localhost",
        "host.docker.internal",
    }
)
_NEVER_DIALLED_SUFFIXES = (".readthedocs.io", ".readthedocs.org", ".github.io", ".gitlab.io")
# RFC 2606 and RFC 6761 names (placeholders by definition) and names of local networks.
_RESERVED = frozenset({"example.com", "example.org", "example.net"})
_RESERVED_SUFFIXES = (
    ".example.com",
    ".example.org",
    ".example.net",
    ".example",
    ".test",
    ".invalid",
    ".localhost",
    ".local",
    ".internal",
)
# `docs.vendor.com`, `developer.vendor.com`: links for the reader, not endpoints.
_DOCUMENTATION_LABELS = frozenset({"docs", "doc", "developer", "developers", "learn", "help", "support"})


def hosts_in(text: str) -> list[str]:
    """The contacted-looking host names of the URLs in `text`, in order."""
    found: list[str] = []
    for match in URL.finditer(text):
        host = normalise(match.group(1))
        if host and contacted(host):
            found.append(host)
    return found


def normalise(raw: str) -> str:
    """A URL's host part without user, port, trailing dot or case; "" for IPv6 literals and junk."""
    host = raw.strip().strip(".").lower().rsplit("@", 1)[-1]
    if host.startswith("["):
        return ""
    return host.split(":", 1)[0]


def declared_host(raw: str) -> str:
    """What an author writes in `network.domains` (`https://api.x.com/v1`, `*.x.com`) as a host."""
    value = _SCHEME.sub("", raw.strip().strip("\"'")).split("/", 1)[0]
    return normalise(value)


def contacted(host: str) -> bool:
    """False for names the plugin never dials and for loopback addresses."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        pass
    else:
        return not (address.is_loopback or address.is_unspecified)
    if not _HOST.match(host) or host in _NEVER_DIALLED or host in _RESERVED:
        return False
    if host.endswith(_NEVER_DIALLED_SUFFIXES + _RESERVED_SUFFIXES):
        return False
    return host.split(".", 1)[0] not in _DOCUMENTATION_LABELS


# Addresses that lead somewhere only inside one network: loopback, the private ranges of RFC 1918
# and RFC 4193, link-local ones; and names that only a local resolver answers.
_LOCAL_NETWORKS = tuple(
    ipaddress.ip_network(network)
    for network in (
        "127.0.0.0/8",
        "10.0.0.0/8",
        "172.16.0.0/12",
        "192.168.0.0/16",
        "169.254.0.0/16",
        "::1/128",
        "fc00::/7",
        "fe80::/10",
    )
)
_LOCAL_NAMES = frozenset({"localhost", "host.docker.internal"})
_LOCAL_SUFFIXES = (".localhost", ".local", ".internal", ".lan", ".home.arpa")


def local_address(value: str) -> str:
    """The host of `value` (a URL, or a bare `host[:port][/path]`) when it reaches only a private
    network (10.x, 172.16-31.x, 192.168.x, loopback, `.local`, `localhost`); "" otherwise."""
    text = value.strip()
    if not text or any(ch.isspace() for ch in text):
        found = URL.search(text)
        if found is None:
            return ""
        text = found.group(0)
    raw = _SCHEME.sub("", text).split("/", 1)[0].rsplit("@", 1)[-1]
    host = raw[1 : raw.find("]")] if raw.startswith("[") and "]" in raw else raw.split(":", 1)[0]
    host = host.strip(".").lower()
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host if host in _LOCAL_NAMES or host.endswith(_LOCAL_SUFFIXES) else ""
    return host if any(address in network for network in _LOCAL_NETWORKS) else ""


def covered(host: str, declared: tuple[str, ...]) -> bool:
    """Whether a declaration names `host`: exactly, or as `*.x.com` (which covers x.com too)."""
    for entry in declared:
        if entry == host or (entry.startswith("*.") and (host == entry[2:] or host.endswith(entry[1:]))):
            return True
    return False
