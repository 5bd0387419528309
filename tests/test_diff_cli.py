"""`dify-registry diff` end to end: folders, packages and git revisions of a real repository made
in the test, every output format, the exit codes, and hostile repository content."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from generator.cli import main
from tests.diff_cases import CASES
from tests.gitrepo import commit_folder, git, new_repository

PAIR = CASES / "tool-gains-required-parameter"


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository whose `plugin/` folder holds the old version, then the new one; the working
    folder of the test."""
    root = new_repository(tmp_path / "repo")
    commit_folder(root, PAIR / "old", "plugin", "1.0.0", "2026-03-01T10:00:00+00:00")
    commit_folder(root, PAIR / "new", "plugin", "1.1.0", "2026-03-02T10:00:00+00:00")
    monkeypatch.chdir(root)
    return root


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, object]]:
    code = main(["diff", *argv, "--format", "json"])
    return code, json.loads(capsys.readouterr().out)


def rules(document: dict[str, object]) -> list[str]:
    return [d["rule"] for d in document["diagnostics"]]  # type: ignore[attr-defined]


def test_since_compares_a_folder_with_itself_at_a_revision(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`diff PATH --since REV`: the gained required parameter and the too small bump, exit 1."""
    code, document = run_json(capsys, "plugin", "--since", "HEAD~1")
    assert code == 1
    assert rules(document) == ["D060", "D012"]
    assert document["diff"] == {
        "old": {"path": "git:HEAD~1:plugin", "version": "1.0.0"},
        "new": {"path": "plugin", "version": "1.1.0"},
        "changes": {"breaking": 1, "compatible": 0, "note": 0},
        "needed_bump": "major",
        "next_version": "2.0.0",
    }
    added = document["diagnostics"][1]  # type: ignore[index]
    assert (added["file"], added["line"], added["severity"]) == ("plugin/tools/search.yaml", 31, "warning")


def test_two_revisions_and_removals_placed_in_the_old_version(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`git:REV:PATH` on both sides; what was removed points into the old revision's files."""
    code, document = run_json(capsys, "git:HEAD:plugin", "git:HEAD~1:plugin")
    assert code == 1  # 1.1.0 -> 1.0.0 goes down
    found = {d["rule"]: d for d in document["diagnostics"]}  # type: ignore[attr-defined]
    assert found["D010"]["file"] == "git:HEAD:plugin/tools/search.yaml"
    assert "language" in found["D010"]["message"]
    assert "not a step up" in found["D060"]["message"]


def test_reading_a_revision_changes_nothing_in_the_repository(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Nothing is checked out: HEAD, the index and the working tree are as before."""
    (repo / "plugin" / "tools" / "search.yaml").write_text("edited: but not committed\n", encoding="utf-8")
    head = git(repo, "rev-parse", "HEAD")
    status = git(repo, "status", "--porcelain")
    main(["diff", "git:HEAD~1:plugin", "git:HEAD:plugin"])
    capsys.readouterr()
    assert git(repo, "rev-parse", "HEAD") == head
    assert git(repo, "status", "--porcelain") == status


def test_a_package_against_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A `.difypkg` is unpacked and compared like a folder."""
    package = tmp_path / "new.difypkg"
    with zipfile.ZipFile(package, "w") as archive:
        for path in sorted((PAIR / "new").rglob("*")):
            if path.is_file():
                archive.write(path, path.relative_to(PAIR / "new").as_posix())
    code, document = run_json(capsys, str(PAIR / "old"), str(package))
    assert code == 1
    assert rules(document) == ["D060", "D012"]


def test_text_github_and_sarif(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The formats of `validate`, and the summary naming the smallest correct next version."""
    monkeypatch.setenv("NO_COLOR", "1")
    old, new = str(PAIR / "old"), str(PAIR / "new")
    assert main(["diff", old, new]) == 1
    text = capsys.readouterr().out
    line = "tools/search.yaml:31:5: warning D012 breaking: tool acme/search gained the required parameter"
    assert f"{line} language\n" in text
    assert "  hint: Make the parameter optional" in text
    assert text.endswith("version 1.0.0 -> 1.1.0: needs a major bump; smallest correct version 2.0.0\n")
    assert main(["diff", old, new, "--format", "github"]) == 1
    github = capsys.readouterr().out
    assert "::warning file=" in github
    assert ",title=D012::breaking: tool acme/search gained" in github
    assert main(["diff", old, new, "--format", "sarif"]) == 1
    sarif = json.loads(capsys.readouterr().out)
    assert [r["ruleId"] for r in sarif["runs"][0]["results"]] == ["D060", "D012"]
    assert {r["id"] for r in sarif["runs"][0]["tool"]["driver"]["rules"]} == {"D060", "D012"}


def test_strict_fails_on_breaking_changes_with_a_right_bump(capsys: pytest.CaptureFixture[str]) -> None:
    """A breaking change released as a major version exits 0, and 1 with --strict."""
    case = CASES / "option-value-removed"
    assert main(["diff", str(case / "old"), str(case / "new")]) == 0
    assert main(["diff", str(case / "old"), str(case / "new"), "--strict"]) == 1
    capsys.readouterr()


def test_same_plugin_reports_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    """A plugin against itself: no finding, exit 0."""
    code, document = run_json(capsys, str(PAIR / "old"), str(PAIR / "old"))
    assert (code, rules(document), document["diff"]["needed_bump"]) == (0, [], "none")  # type: ignore[index]


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["git:no-such-ref:plugin", "plugin"], "no-such-ref"),
        (["git:--output=/tmp/x:plugin", "plugin"], "is not a revision"),
        (["git:HEAD:missing", "plugin"], "missing"),
        (["git:HEAD:../../etc", "plugin"], "climbs out"),
        (["plugin"], "give OLD and NEW"),
        (["plugin", "plugin", "--since", "HEAD"], "one PATH with --since"),
        (["nothing-here", "plugin"], "no such file"),
    ],
)
def test_usage_errors_exit_2(
    repo: Path, capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    """A revision git cannot read, a path outside the repository, or a missing side: exit 2."""
    assert main(["diff", *argv]) == 2
    assert words in capsys.readouterr().err


def test_hostile_revision_content_is_refused_not_followed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A tool YAML committed as a link to a file of the machine is never read; the loader says
    it is missing and the tool's disappearance is a finding, not a traceback."""
    root = new_repository(tmp_path / "repo")
    commit_folder(root, PAIR / "old", "plugin", "good", "2026-03-01T10:00:00+00:00")
    link = root / "plugin" / "tools" / "search.yaml"
    link.unlink()
    link.symlink_to("/etc/passwd")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "link")
    monkeypatch.chdir(root)
    code, document = run_json(capsys, "git:HEAD~1:plugin", "git:HEAD:plugin")
    found = {d["rule"]: d for d in document["diagnostics"]}  # type: ignore[attr-defined]
    assert found["F001"]["file"] == "git:HEAD:plugin/provider/acme.yaml"
    assert "root:" not in json.dumps(document)
    assert code == 1


def test_revision_over_the_size_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A revision whose folder holds more than 50 MB is refused before a byte is read (K003)."""
    root = new_repository(tmp_path / "repo")
    commit_folder(root, PAIR / "old", "plugin", "good", "2026-03-01T10:00:00+00:00")
    with (root / "plugin" / "data.bin").open("wb") as big:
        big.truncate(51 * 1024 * 1024)  # zeros: cheap for git to store
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "big")
    monkeypatch.chdir(root)
    code, document = run_json(capsys, "git:HEAD:plugin", str(PAIR / "old"))
    assert rules(document)[0] == "K003"
    assert code == 1


def test_console_script(tmp_path: Path) -> None:
    """The installed command runs `diff` as a separate process."""
    done = subprocess.run(
        [str(Path(sys.executable).with_name("dify-registry")), "diff", str(PAIR / "old"), str(PAIR / "old")],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "no interface change" in done.stdout


def test_since_from_inside_the_plugin_folder(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`diff . --since REV` run in a subfolder of the repository reads that folder at REV."""
    monkeypatch.chdir(repo / "plugin")
    code, document = run_json(capsys, ".", "--since", "HEAD~1")
    assert (code, rules(document)) == (1, ["D060", "D012"])
