"""What `init`'s workflow installs by default: the git repository and commit pip recorded for this
generator (PEP 610), when a runner can reach it; otherwise the release pin, with a note."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from generator.installed_from import requirement_from


def recorded(url: str, **extra: object) -> str:
    return json.dumps({"url": url, **extra})


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            recorded(
                "https://github.com/acme/dify-registry.git", vcs_info={"vcs": "git", "commit_id": "abc123"}
            ),
            "dify-registry @ git+https://github.com/acme/dify-registry.git@abc123",
        ),
        (recorded("file:///home/me/dify-registry", vcs_info={"vcs": "git", "commit_id": "abc123"}), None),
        (recorded("file:///home/me/dify-registry", dir_info={"editable": True}), None),
        (recorded("https://example.org/dify_registry-0.1.0.tar.gz", archive_info={}), None),
        (recorded("https://hg.example.org/repo", vcs_info={"vcs": "hg", "commit_id": "1"}), None),
        ("{not json", None),
        ("[]", None),
        (None, None),
    ],
    ids=["git-https", "git-on-disk", "editable", "archive", "mercurial", "broken", "not-an-object", "none"],
)
def test_only_a_reachable_git_install_is_a_requirement(text: str | None, expected: str | None) -> None:
    assert requirement_from(text) == expected


def test_init_from_a_local_checkout_says_what_the_workflow_installs(tmp_path: Path) -> None:
    """This checkout is an editable install: init writes the release pin and says so."""
    (tmp_path / "plugins").mkdir()
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "generator",
            "init",
            str(tmp_path),
            "plugins",
            "--site-url",
            "https://x.example/",
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert "note: the workflow installs `dify-registry==" in result.stderr
    workflow = (tmp_path / ".github" / "workflows" / "publish-catalog.yml").read_text(encoding="utf-8")
    assert "dify-registry==" in workflow
