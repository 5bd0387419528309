"""Progress on a terminal (a pseudo-terminal here): drawn for environment builds, runs and the site's
render; silent in CI, with `--format json`, and when stderr is not a terminal."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

CASE = REPO / "tests" / "cases" / "collection" / "official"
CLEAR = "\r\x1b[K"


def _environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "NO_COLOR", "FORCE_COLOR")}
    return {**env, **extra}


def _on_terminal(argv: list[str], cwd: Path, env: dict[str, str]) -> tuple[int, str]:
    """Run the command with stdout and stderr on a pseudo-terminal; everything it drew."""
    main, secondary = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "generator", *argv],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=secondary,
        stderr=secondary,
    )
    os.close(secondary)
    chunks = []
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:  # the other end closed (Linux reports EIO)
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(main)
    return process.wait(timeout=600), b"".join(chunks).decode("utf-8", errors="replace")


@pytest.mark.slow
def test_build_draws_the_render_on_a_terminal(tmp_path: Path) -> None:
    """The plugins as they are checked, then the default language's pages one by one, then the
    other languages' pages, then the search index, each closed by a line."""
    argv = ["build", str(CASE), "--no-run", "--site-dir", str(tmp_path / "site")]
    code, drawn = _on_terminal(argv, tmp_path, _environment(PYTHONPATH=str(REPO)))
    assert code == 0, drawn
    assert CLEAR + "plugins checked [1/" in drawn
    assert re.search(r"plugins checked: (\d+)/\1 in ", drawn), drawn
    assert CLEAR + "pages (en) [1/" in drawn
    assert "\npages (en): " in drawn.replace(CLEAR, "\n")
    assert re.search(r"other languages: (\d+)/\1 in ", drawn), drawn
    assert "search index: done in " in drawn
    assert "Building prefix dict" not in drawn  # jieba's start-up lines


def test_runs_and_environments_are_drawn(tmp_path: Path) -> None:
    """`run` draws the environments it builds and the runs as they end."""
    plugin = CASE / "tools" / "word_counter"
    argv = ["run", str(plugin), "--cache-dir", str(tmp_path / "cache")]
    code, drawn = _on_terminal(argv, tmp_path, _environment(PYTHONPATH=str(REPO)))
    assert "environments [1/1]" in drawn, drawn
    assert "environments: 1/1 in " in drawn
    assert CLEAR + "runs [1/" in drawn
    assert code in (0, 1)


@pytest.mark.parametrize(
    ("extra", "env"),
    [([], {"CI": "true"}), (["--format", "json"], {})],
    ids=["ci", "json"],
)
def test_silent_in_ci_and_with_json(tmp_path: Path, extra: list[str], env: dict[str, str]) -> None:
    """A terminal, but CI or a program reading JSON: nothing is drawn."""
    argv = ["run", str(CASE / "tools" / "word_counter"), "--cache-dir", str(tmp_path / "cache"), *extra]
    _, drawn = _on_terminal(argv, tmp_path, _environment(PYTHONPATH=str(REPO), **env))
    assert CLEAR not in drawn
    assert "environments" not in drawn


def test_silent_when_not_a_terminal(tmp_path: Path) -> None:
    """stderr to a pipe: no progress."""
    argv = ["run", str(CASE / "tools" / "word_counter"), "--cache-dir", str(tmp_path / "cache")]
    result = subprocess.run(
        [sys.executable, "-m", "generator", *argv],
        cwd=tmp_path,
        env=_environment(PYTHONPATH=str(REPO)),
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert "environments" not in result.stderr
    assert "plugins checked" not in result.stderr
    assert CLEAR not in result.stderr
