"""The submission checks on hostile files: oversized, binary, undecodable or absurdly nested code,
include cycles and escapes in requirements, broken TOML, links out of the plugin, data tables of
hosts. Every check ends in findings with a place and a hint, never a traceback."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from generator.check import CheckContext
from generator.check.all_checks import check_plugin
from generator.findings import Finding
from generator.load.crawl import load_plugin
from tests.validate_cases import CASES


def hostile_plugin(tmp_path: Path) -> Path:
    target = tmp_path / "plugin"
    shutil.copytree(CASES / "good" / "submission-ready", target)
    tools = target / "tools"
    (tools / "huge.py").write_text('TOKEN = "Zq8vT2mK9xLp4RwN7bYc3HsJ6dFg1QaE"\n' + "x = 1\n" * 200_000)
    (tools / "deep.py").write_text("x = " + "(" * 5000 + ")" * 5000 + "\n")
    (tools / "nul.py").write_bytes(b"x = 1\0\n")
    (tools / "latin.py").write_bytes(b"name = '\xff\xfe'\n")
    (tools / "calls.py").write_text("import requests\n" + "requests.get(*a, **k)\n" * 3000)
    (tools / "leak.py").symlink_to("/etc/passwd")
    (target / "requirements.txt").write_text(
        "dify_plugin>=0.9.0,<0.11\n-r requirements.txt\n-r ../../../etc/passwd\n-c\n--find-links\n"
        "-e\n--index-url http://user:pw@[::1/simple\n"
    )
    (target / "pyproject.toml").write_text("[[[ not toml\n")
    manifest = target / "manifest.yaml"
    manifest.write_text(manifest.read_text() + "network: {domains: not a list}\n")
    hosts = {f"https://api{i}.vendor{i}.com/v1": i for i in range(50)}
    (target / "data.json").write_text(json.dumps(hosts))
    return target


def findings(folder: Path) -> list[Finding]:
    return check_plugin(load_plugin(folder, ""), CheckContext(submission=True))


def test_hostile_files_end_in_findings_with_places(tmp_path: Path) -> None:
    """No check raises; each finding names a file, a line and a hint."""
    found = findings(hostile_plugin(tmp_path))
    assert found
    for finding in found:
        assert finding.file, finding
        assert finding.line >= 1, finding
        assert finding.hint, finding
    rules = {(d.rule, d.file) for d in found}
    assert ("U013", "tools/deep.py") in rules
    assert ("U013", "tools/nul.py") in rules
    assert ("U013", "tools/latin.py") in rules
    assert ("U019", "requirements.txt") in rules  # the include that leaves the plugin
    assert not {d.file for d in found} & {"tools/huge.py", "tools/leak.py", "data.json"}


def test_a_data_table_of_hosts_is_not_a_list_of_access_domains(tmp_path: Path) -> None:
    """A file naming 50 hosts is skipped, as the marketplace's scan skips it."""
    notes = [d for d in findings(hostile_plugin(tmp_path)) if d.rule == "U028"]
    assert len(notes) == 1
    assert "vendor" not in notes[0].message
    assert "; 3000 of 3000 network call(s)" in notes[0].message
