"""Package indexes named in a plugin's requirements, tried before the build: uv retries an index it
cannot reach for many seconds and then fails with a message that hides which line named it."""

from __future__ import annotations

import urllib.error
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from generator.findings import Finding, Severity
from generator.load.reqlines import redacted
from generator.rules import rule
from generator.run.reqfile import Named

INDEX_UNREACHABLE = rule(
    "R040",
    "index-unreachable",
    Severity.WARNING,
    "the package index {url} cannot be reached from this machine ({why}); the environment was not "
    "built and no tool of the plugin was run",
    "Check the URL. Dify's install must reach the index too: publish the packages to PyPI, or ship "
    "their wheels in the plugin (./wheels/<name>.whl) if the index is private.",
    """
A requirements file can name other package indexes (`-i`, `--index-url`, `--extra-index-url`,
`--find-links` with a URL). Before building an environment the runner asks each of them for a
response, a few seconds at most; one that does not answer at all (no such host, connection refused,
time-out) is reported with its line and the environment is not built, because uv would fail after
long retries. It is a warning, not an error: the index may be reachable from the machine Dify
runs on (a private network) while it is not from here. A user name or password in the URL is not
shown.
""",
)

SOURCE_UNREACHABLE = rule(
    "R058",
    "source-unreachable",
    Severity.WARNING,
    "a dependency could not be fetched from this machine ({why}); the environment was not built and "
    "no tool of the plugin was run",
    "Dify's install must reach the source too (a git repository or a URL named in pyproject.toml, "
    "uv.lock or requirements.txt): publish the package to PyPI, or ship its wheel in the plugin "
    "(./wheels/<name>.whl), if the source is private.",
    """
A dependency can come from a git repository or a URL instead of a package index (`pkg @ git+https://...`
in `pyproject.toml`, locked in `uv.lock`). Dify's plugin daemon fetches it when it installs the
plugin (`uv sync`), with the network of the machine it runs on. When the build here fails because
that source did not answer at all (its host name does not resolve, the connection is refused or
times out), the failure says nothing about the plugin: the source may well be reachable where Dify
runs. So it is a warning, not the error R009 (a source that answers with "not found" stays R009).
""",
)

# uv's and git's words for a source that gave no answer at all (not one that answered "not found").
NO_ANSWER = (
    "could not resolve host",
    "failed to lookup address",
    "temporary failure in name resolution",
    "name or service not known",
    "dns error",
    "network is unreachable",
    "connection refused",
    "connection timed out",
    "operation timed out",
)


def no_answer(problem: str) -> str:
    """The words of a build failure that say a source could not be reached, or ""."""
    lowered = problem.lower()
    for words in NO_ANSWER:
        at = lowered.find(words)
        if at >= 0:
            # The reason ends where git's quote, uv's next hint or its next error begins.
            ends = [lowered.find(mark, at) for mark in ("'", " hint:", " error:", " caused by:")]
            end = min([e for e in ends if e > at] or [at + 120])
            return " ".join(problem[at:end].split())
    return ""


PROBE_TIMEOUT = 5.0
MAX_PROBED = 10


def _unreachable(url: str) -> str:
    """Why `url` gives no HTTP answer at all, or "" when it answers (any status counts)."""
    request = urllib.request.Request(url, method="HEAD", headers={"User-Agent": "dify-registry"})
    try:
        with urllib.request.urlopen(request, timeout=PROBE_TIMEOUT):
            return ""
    except urllib.error.HTTPError:
        return ""
    except urllib.error.URLError as problem:
        return str(problem.reason)
    except (OSError, ValueError) as problem:
        return str(problem) or type(problem).__name__


def unreachable_indexes(indexes: list[Named], shown: Callable[[str], str]) -> list[Finding]:
    """One finding per index that does not answer, all tried at once (bounded by PROBE_TIMEOUT)."""
    distinct = list({named.value: named for named in indexes}.values())[:MAX_PROBED]
    if not distinct:
        return []
    with ThreadPoolExecutor(max_workers=len(distinct)) as pool:
        reasons = list(pool.map(_unreachable, [named.value for named in distinct]))
    return [
        INDEX_UNREACHABLE.at(named.at(shown), url=redacted(named.value), why=" ".join(why.split()))
        for named, why in zip(distinct, reasons, strict=True)
        if why
    ]
