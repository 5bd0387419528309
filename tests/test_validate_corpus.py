"""The validator on real plugins: Dify's official tool and datasource plugins (shared corpus).

The corpus has no Python files: the `corpus_copy` fixture (conftest) gives a copy with placeholder
modules, so the checks that need the code to exist see what a real plugin has; everything else is
validated as it is.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from generator.check import CheckContext
from generator.findings import Finding, Severity
from generator.load.crawl import load_plugin
from tests.corpus_copy import KINDS
from tests.validating import validate_loaded


def _validate(corpus_copy: Path, submission: bool) -> list[Finding]:
    plugins = [
        load_plugin(folder, f"{kind}/{folder.name}")
        for kind in KINDS
        for folder in sorted((corpus_copy / kind).iterdir())
        if folder.is_dir()
    ]
    assert len(plugins) == 102
    return list(validate_loaded(plugins, [], CheckContext(submission=submission)).findings)


@pytest.fixture(scope="session")
def findings(corpus_copy: Path) -> list[Finding]:
    """Every finding for every plugin, files named `<kind>/<plugin>/<file>`."""
    return _validate(corpus_copy, submission=False)


@pytest.fixture(scope="session")
def submission_findings(corpus_copy: Path) -> list[Finding]:
    """Every finding with `--submission` too."""
    return _validate(corpus_copy, submission=True)


def at(findings: list[Finding], rule: str) -> set[tuple[str, int]]:
    return {(d.file, d.line) for d in findings if d.rule == rule}


def test_dify_accepts_them_all(findings: list[Finding]) -> None:
    """Dify installs every one of these plugins, so none may have an error."""
    errors = [f"{d.file}:{d.line}: {d.rule} {d.message}" for d in findings if d.severity is Severity.ERROR]
    assert errors == []


def test_option_values_read_as_booleans_or_integers(findings: list[Finding]) -> None:
    """`value: false` and `value: 1` are read by YAML as a boolean and an integer, not as text."""
    found = at(findings, "A005")
    assert ("tools/fal/tools/wizper.yaml", 323) in found
    assert ("tools/zoom/tools/zoom_create_meeting.yaml", 46) in found
    assert ("tools/aliyuque/tools/create_document.yaml", 55) in found
    assert len(found) == 16


def test_defaults_of_the_wrong_type(findings: list[Finding]) -> None:
    """A quoted 'true' on a boolean, a boolean on a string, integers on selects."""
    assert at(findings, "A006") == {
        ("tools/stackexchange/tools/searchStackExQuestions.yaml", 97),
        ("tools/firecrawl/tools/map.yaml", 42),
        ("tools/zoom/tools/zoom_create_meeting.yaml", 34),
        ("tools/aliyuque/tools/update_book_table_of_contents.yaml", 174),
        ("tools/aliyuque/tools/update_book_table_of_contents.yaml", 199),
    }


def test_missing_tool_icons_are_warnings(findings: list[Finding]) -> None:
    """aws, feishu and wecom name tool icons that do not exist; the SDK ignores them."""
    icons = [d for d in findings if d.rule == "T006"]
    assert {d.severity for d in icons} == {Severity.WARNING}
    assert {d.file.split("/")[1] for d in icons} == {"aws", "feishu", "wecom"}
    assert ("tools/aws/tools/opensearch_knn_search.yaml", 8) in at(findings, "T006")


def test_orphan_tool_yamls(findings: list[Finding]) -> None:
    """Tool YAMLs that no provider lists."""
    assert at(findings, "F005") == {
        ("tools/aws/tools/nova_reel.yaml", 1),
        ("tools/gmail/tools/download_attachment.yaml", 1),
        ("tools/mineru/tools/replace_md_img_path.yaml", 1),
    }


def test_misspelled_locale_keys(findings: list[Finding]) -> None:
    """zh_CN and ja_Jp are ignored by Dify; the finding names the key that was meant."""
    messages = Counter(d.message.split(";")[0] for d in findings if d.rule == "L003")
    assert set(messages) == {
        "locale key zh_CN is not one Dify reads",
        "locale key ja_Jp is not one Dify reads",
    }
    plugins = {d.file.split("/")[1] for d in findings if d.rule == "L003"}
    assert {"bailian_memory", "microsoft_todo", "supabase", "deepl"} <= plugins
    assert any("did you mean zh_Hans?" in d.message for d in findings if d.rule == "L003")


def test_other_locales_are_info(findings: list[Finding]) -> None:
    """zh_Hant and ko_KR are valid but unused: info only."""
    keys = {d.message.split()[2] for d in findings if d.rule == "L004"}
    assert {"zh_Hant", "ko_KR"} <= keys
    assert {d.severity for d in findings if d.rule == "L004"} == {Severity.INFO}


def test_every_tool_is_loaded(findings: list[Finding], corpus_copy: Path) -> None:
    """All tool YAMLs that providers list are loaded into the model."""
    tools = sum(len(p.plugin.tools) for p in map(load_plugin, (corpus_copy / "tools").iterdir()) if p.plugin)
    assert tools == 374


# Dify's own plugins are published without the marketplace's pull requests: their manifests name the
# reserved author and lack contact fields, their READMEs the source link. Nothing else is an error.
OFFICIAL_PLUGIN_ERRORS = {"U001", "U002", "U003", "U004", "U005"}


def test_submission_checks_add_no_false_error(submission_findings: list[Finding]) -> None:
    """The secret, binary, dependency, safety, domain and compile checks give no error here; the
    placeholders in READMEs and credential help texts (`ghp_xxxx…`, `xoxb-your-access-token`, a key
    header followed by `...`) are warnings."""
    errors = {d.rule for d in submission_findings if d.severity is Severity.ERROR}
    assert errors <= OFFICIAL_PLUGIN_ERRORS
    placeholders = {(d.file, d.severity) for d in submission_findings if d.rule == "U009"}
    assert placeholders == {
        ("datasources/github/README.md", Severity.WARNING),
        ("datasources/github/provider/github.yaml", Severity.WARNING),
        ("datasources/google_cloud_storage/README.md", Severity.WARNING),
        ("tools/slack/provider/slack.yaml", Severity.WARNING),
    }
    assert not [d for d in submission_findings if d.rule == "U014"]


def test_reserved_author_outside_the_manifest_is_a_warning(submission_findings: list[Finding]) -> None:
    """`identity.author: langgenius` in provider and tool YAMLs: U017, never an error."""
    found = [d for d in submission_findings if d.rule == "U017"]
    assert {d.severity for d in found} == {Severity.WARNING}
    assert len(found) == 239
    manifests = {d.file.rsplit("/", 1)[-1] for d in submission_findings if d.rule == "U001"}
    assert manifests == {"manifest.yaml"}


def test_only_the_conftest_names_the_shared_folder(repo: Path) -> None:
    """Tests reach ../shared through conftest's `shared()`, which skips (naming the folder) on a
    clone without it; a path spelt out elsewhere would fail there instead."""
    name = "sha" + "red"  # spelt in two parts, so that this test does not find itself
    quoted = (f'"{name}"', f"'{name}'")
    spelt = [
        f"{path.name}:{number}"
        for path in sorted((repo / "tests").glob("*.py"))
        if path.name != "conftest.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if any(q in line for q in quoted)
    ]
    assert spelt == []
