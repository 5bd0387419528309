"""`dify-registry ... | head`: a command whose reader stops reading ends quietly, with the exit code a
shell gives a process ended by SIGPIPE, and no traceback."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.conftest import REPO


def test_a_reader_that_stops_reading_gets_no_traceback() -> None:
    reader, writer = os.pipe()
    os.close(reader)  # gone before the first line is written
    try:
        result = subprocess.run(
            [sys.executable, "-m", "generator", "validate", str(REPO / "plugins")],
            stdout=writer,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
            timeout=300,
            cwd=REPO,
        )
    finally:
        os.close(writer)
    assert "Traceback" not in result.stderr, result.stderr
    assert "BrokenPipeError" not in result.stderr, result.stderr
    assert result.returncode == 141
