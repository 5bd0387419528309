"""`dify-registry schemas lint|check|lock` and the schemas used by `validate`."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from generator.cli import main
from tests.conftest import REPO
from tests.schema_helpers import copy_repo_schemas, hosted, write_schemas


@pytest.fixture
def registry(tmp_path: Path) -> Path:
    """A registry folder with a copy of the repository's schemas and lock."""
    copy_repo_schemas(tmp_path / "schemas")
    (tmp_path / "plugins").mkdir()
    return tmp_path


def _json(capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    out: dict[str, object] = json.loads(capsys.readouterr().out)
    return out


def test_check_of_the_repository_passes(capsys: pytest.CaptureFixture[str]) -> None:
    """The published schemas are locked, consistent and free of errors."""
    assert main(["schemas", "check", str(REPO), "--format", "json"]) == 0
    rules = {d["rule"] for d in _json(capsys)["diagnostics"]}  # type: ignore[attr-defined]
    assert not rules & {"S020", "S021", "S023", "S030", "S031"}


def test_editing_a_locked_schema_fails(registry: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """One changed byte in a published file makes `schemas check` exit 1 with S030."""
    path = registry / "schemas" / "v1" / "qa_structure.json"
    path.write_bytes(path.read_bytes().replace(b"Q&A", b"QA"))
    assert main(["schemas", "check", str(registry), "--format", "json"]) == 1
    found = _json(capsys)["diagnostics"]
    assert [(d["rule"], d["file"]) for d in found if d["severity"] == "error"] == [  # type: ignore[attr-defined]
        ("S030", "schemas/v1/qa_structure.json")
    ]
    assert main(["schemas", "lock", str(registry)]) == 1, "the lock never rewrites an entry"
    assert main(["schemas", "check", str(registry)]) == 1


def test_deleting_a_locked_schema_fails(registry: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A published file that disappears is an error."""
    (registry / "schemas" / "v1" / "file.json").unlink()
    assert main(["schemas", "check", str(registry), "--format", "json"]) == 1
    assert "S031" in {d["rule"] for d in _json(capsys)["diagnostics"]}  # type: ignore[attr-defined]


def test_additions_are_accepted_then_locked(registry: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A new v2 file is reported as unlocked (info) until `schemas lock` records it."""
    v2 = hosted("file", type="object")
    v2["$id"] = "https://dify.ai/schemas/v2/file.json"
    write_schemas(registry / "schemas", {"v2/file.json": v2})
    before = json.loads((registry / "schemas" / "lock.json").read_text())["files"]
    assert main(["schemas", "check", str(registry), "--format", "json"]) == 0
    unlocked = {d["file"] for d in _json(capsys)["diagnostics"] if d["rule"] == "S032"}  # type: ignore[attr-defined]
    assert "schemas/v2/file.json" in unlocked
    assert main(["schemas", "lock", str(registry)]) == 0
    assert "locked schemas/v2/file.json" in capsys.readouterr().out
    after = json.loads((registry / "schemas" / "lock.json").read_text())["files"]
    assert set(after) == set(before) | {f.removeprefix("schemas/") for f in unlocked}
    assert all(after[k] == v for k, v in before.items())
    assert main(["schemas", "check", str(registry), "--format", "json"]) == 0
    assert "S032" not in {d["rule"] for d in _json(capsys)["diagnostics"]}  # type: ignore[attr-defined]


@pytest.mark.parametrize("lock", ["{broken", '{"version": 1, "files": {"v1/file.json": 3}}', "[]"])
def test_broken_lock_exits_3(registry: Path, lock: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A lock that is not JSON or not a map of hashes is a broken registry."""
    (registry / "schemas" / "lock.json").write_text(lock)
    assert main(["schemas", "check", str(registry)]) == 3
    assert "schemas/lock.json" in capsys.readouterr().err


def test_unreadable_schema_exits_3(registry: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A schema file that is not JSON breaks lint, check and validate alike."""
    (registry / "schemas" / "v1" / "broken.json").write_text("{")
    assert main(["schemas", "lint", str(registry)]) == 3
    assert main(["schemas", "check", str(registry)]) == 3
    assert main(["validate", str(registry)]) == 3
    assert "schemas/v1/broken.json" in capsys.readouterr().err


def test_lint_of_one_file_and_formats(registry: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`schemas lint FILE` reports only that file; text and sarif formats work."""
    target = registry / "schemas" / "v1" / "multimodal_general_structure.json"
    assert main(["schemas", "lint", str(target), "--format", "json"]) == 0
    files = {d["file"] for d in _json(capsys)["diagnostics"]}  # type: ignore[attr-defined]
    assert files == {"schemas/v1/multimodal_general_structure.json"}
    assert main(["schemas", "lint", str(target), "--strict"]) == 1
    assert "S003" in capsys.readouterr().out
    assert main(["schemas", "lint", str(registry / "schemas"), "--format", "sarif"]) == 0
    assert json.loads(capsys.readouterr().out)["version"] == "2.1.0"


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    """A path that is not a schemas folder, or a missing path, is a usage error."""
    assert main(["schemas", "lint", str(tmp_path / "missing")]) == 2
    assert main(["schemas", "check", str(tmp_path)]) == 2


def test_validate_uses_the_registrys_own_schemas(
    registry: Path, corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A tool referencing a schema that only this registry hosts resolves when validating it."""
    extra = hosted("special", type="object")
    write_schemas(registry / "schemas", {"v1/special.json": extra})
    plugin = registry / "plugins" / "p"
    shutil.copytree(corpus / "tools" / "qa_chunk", plugin)
    tool = plugin / "tools" / "qa.yaml"
    tool.write_text(tool.read_text().replace("v1/qa_structure.json", "v1/special.json"))
    main(["validate", str(registry), "--format", "json"])
    assert "O006" not in {d["rule"] for d in _json(capsys)["diagnostics"]}  # type: ignore[attr-defined]
    main(["validate", str(plugin), "--format", "json"])
    assert "O006" in {d["rule"] for d in _json(capsys)["diagnostics"]}  # type: ignore[attr-defined]
