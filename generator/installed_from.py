"""Where this generator was installed from, as a pip requirement another machine can install.

`init` writes a workflow that installs the registry on GitHub's runners. The package is not on PyPI
under every version, so the workflow installs what this machine installed when pip recorded it as
a requirement a runner can reach too: a git repository at its commit (PEP 610's `direct_url.json`,
`vcs_info`). A local folder (an editable checkout) cannot be reached from a runner; nor can
anything else be promised: then the caller says so.
"""

from __future__ import annotations

import json
from importlib import metadata

DISTRIBUTION = "dify-registry"


def installed_requirement() -> str | None:
    """`dify-registry @ git+URL@COMMIT` when this generator was installed from a git repository
    reachable over the network; None otherwise (an index, a local folder, an archive)."""
    try:
        text = metadata.distribution(DISTRIBUTION).read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        return None
    return requirement_from(text)


def requirement_from(text: str | None) -> str | None:
    """The requirement a `direct_url.json` (its text) records, when a runner can install it."""
    try:
        recorded = json.loads(text) if text else None
    except ValueError:
        return None
    if not isinstance(recorded, dict):
        return None
    url, vcs = recorded.get("url"), recorded.get("vcs_info")
    if not isinstance(url, str) or not isinstance(vcs, dict) or vcs.get("vcs") != "git":
        return None
    if not url.startswith(("https://", "http://", "ssh://", "git://")):
        return None  # a repository on this machine's disk
    commit = vcs.get("commit_id")
    return f"{DISTRIBUTION} @ git+{url}@{commit}" if isinstance(commit, str) else None
