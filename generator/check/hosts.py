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


def covered(host: str, declared: tuple[str, ...]) -> bool:
    """Whether a declaration names `host`: exactly, or as `*.x.com` (which covers x.com too)."""
    for entry in declared:
        if entry == host or (entry.startswith("*.") and (host == entry[2:] or host.endswith(entry[1:]))):
            return True
    return False
