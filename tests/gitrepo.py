"""Real git repositories made by tests: a folder, `git init`, commits with fixed dates."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

# Fixed identities and dates: commit ids and the dates a site shows are the same on every run.
_ENVIRONMENT = {
    "GIT_AUTHOR_NAME": "Test",
    "GIT_AUTHOR_EMAIL": "test@example.org",
    "GIT_COMMITTER_NAME": "Test",
    "GIT_COMMITTER_EMAIL": "test@example.org",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
}


def git(repo: Path, *args: str, date: str = "2026-03-01T10:00:00+00:00") -> str:
    """Run git in `repo` with the test identity; its output."""
    environment = {**os.environ, **_ENVIRONMENT, "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date}
    done = subprocess.run(
        ["git", *args], cwd=repo, env=environment, capture_output=True, text=True, check=True
    )
    return done.stdout


def new_repository(repo: Path, branch: str = "main") -> Path:
    """An empty repository at `repo`."""
    repo.mkdir(parents=True, exist_ok=True)
    git(repo, "init", "-q", "-b", branch)
    return repo


def commit_folder(repo: Path, source: Path, into: str, message: str, date: str) -> str:
    """Replace `repo/into` by a copy of `source`, commit everything, return the commit id."""
    target = repo / into
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(source, target)
    # Case folders are written in the same second with the same sizes: git's index would take a
    # changed file for an unchanged one by its stat data, so the folder is added afresh.
    git(repo, "rm", "-r", "-q", "--cached", "--ignore-unmatch", into)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message, date=date)
    return git(repo, "rev-parse", "HEAD").strip()
