"""The version history on the site: the registry's own plugins, given a git history in the test,
show their versions (date, commit, interface changes, breaking ones marked) in all four languages,
and the tool page marks what the current version added. A plugin outside git shows no history."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from tests.conftest import REPO
from tests.diff_cases import CASES as DIFF_CASES
from tests.gitrepo import commit_folder, git, new_repository
from tests.sitebuild import BuiltSite, build_site, write_config

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("site")]
LANGUAGES = {"": "breaking", "zh/": "不兼容", "ja/": "互換性なし", "pt/": "incompatível"}
NEW_MARK = {
    "": "new in this version",
    "zh/": "本版本新增",
    "ja/": "このバージョンで追加",
    "pt/": "novo nesta versão",
}
HISTORY = {"": "Version history", "zh/": "版本历史", "ja/": "バージョン履歴", "pt/": "Histórico de versões"}
TOOL = "tools/current_weather.yaml"
STATION = """  - name: station
    type: string
    required: false
    form: form
    label:
      en_US: Station
    human_description:
      en_US: A weather station id.
"""

HUMIDITY = "    humidity:\n      type: number\n"


def _first_version(source: Path, target: Path) -> None:
    """weather_station as 0.1.0: a `station` parameter and a `humidity` output that 0.2.0 removes,
    no `units` parameter and no `forecast` output, which 0.2.0 adds."""
    shutil.copytree(source, target)
    manifest = target / "manifest.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("version: 0.2.0", "version: 0.1.0", 1))
    tool = target / TOOL
    text = tool.read_text(encoding="utf-8")
    params, _, rest = text.partition("  - name: units\n")
    rest = rest[rest.index("output_schema:") :]
    rest = re.sub(r"    forecast:\n      type: string\n      description: [^\n]*\n", HUMIDITY, rest)
    tool.write_text(params + STATION + rest, encoding="utf-8")


@pytest.fixture(scope="module")
def history_site(tmp_path_factory: pytest.TempPathFactory) -> tuple[BuiltSite, dict[str, str]]:
    """A registry in a git repository: every plugin of this repository, weather_station with two
    versions and a commit between them that changes no version; plus a plugin outside git."""
    base = tmp_path_factory.mktemp("history-site")
    registry = new_repository(base / "registry")
    plugins = REPO / "plugins"
    ignore = shutil.ignore_patterns("__pycache__", ".venv")
    shutil.copytree(plugins, registry / "plugins", ignore=ignore)
    shutil.rmtree(registry / "plugins" / "weather_station")
    _first_version(plugins / "weather_station", base / "weather_0.1.0")
    commits = {
        "0.1.0": commit_folder(
            registry, base / "weather_0.1.0", "plugins/weather_station", "0.1.0", "2026-03-01T10:00:00+00:00"
        )
    }
    readme = registry / "plugins" / "weather_station" / "README.md"
    readme.write_text(readme.read_text(encoding="utf-8") + "\nMore words.\n", encoding="utf-8")
    git(registry, "commit", "-q", "-am", "docs only", date="2026-03-15T10:00:00+00:00")
    commits["0.2.0"] = commit_folder(
        registry, plugins / "weather_station", "plugins/weather_station", "0.2.0", "2026-04-01T10:00:00+00:00"
    )
    outside = base / "outside" / "acme_search"
    shutil.copytree(DIFF_CASES / "unchanged" / "new", outside)
    config = write_config(base / "config", [registry, outside])
    return build_site(config, base / "site", "--no-run"), commits


def _section(page: str) -> str:
    start = page.index('id="history"')
    return page[start : page.index("</table>", start)]


def test_plugin_page_lists_versions_with_changes_in_every_language(
    history_site: tuple[BuiltSite, dict[str, str]],
) -> None:
    """Each version with its date and commit, newest first; 0.2.0 is marked breaking and lists
    the removed and the added parameter and the added output; 0.1.0 is the first version."""
    site, commits = history_site
    assert site.code == 0
    for folder, breaking in LANGUAGES.items():
        section = _section(site.page(f"{folder}plugins/weather_station"))
        assert HISTORY[folder] in site.page(f"{folder}plugins/weather_station")
        newest, oldest = section.index(commits["0.2.0"][:12]), section.index(commits["0.1.0"][:12])
        assert newest < oldest
        assert section.count('<tr id="version-') == 2  # the docs-only commit is no version
        assert "<td>2026-04-01</td>" in section
        assert "<td>2026-03-01</td>" in section
        assert f'<span class="dr-badge dr-error">{breaking}</span>' in section
        assert "parameter station of tool weather_station/current_weather was removed" in section
        assert "tool weather_station/current_weather gained the optional parameter units" in section
        assert "output variable forecast of tool weather_station/current_weather was added" in section


def test_tool_page_marks_what_the_current_version_added(
    history_site: tuple[BuiltSite, dict[str, str]],
) -> None:
    """The `units` parameter and the `forecast` output carry the mark; `location` does not."""
    site, _ = history_site
    for folder, mark in NEW_MARK.items():
        page = site.page(f"{folder}plugins/weather_station/weather_station/current_weather")
        assert re.search(rf"<code>units</code> <span class=\"[^\"]*dr-new\">{mark}</span>", page)
        assert re.search(rf"<code>forecast</code> <span class=\"[^\"]*dr-new\">{mark}</span>", page)
        assert page.count("dr-new") == 2


def test_a_plugin_with_one_version_shows_it_as_the_first(
    history_site: tuple[BuiltSite, dict[str, str]],
) -> None:
    """The other plugins were committed once: one version, no marks on their tools."""
    site, _ = history_site
    section = _section(site.page("plugins/badge_maker"))
    assert section.count('<tr id="version-') == 1
    assert "The first version in the history." in section


def test_without_git_history_the_section_is_absent(history_site: tuple[BuiltSite, dict[str, str]]) -> None:
    """A plugin outside any git repository builds, without a history section or marks."""
    site, _ = history_site
    for folder in LANGUAGES:
        page = site.page(f"{folder}plugins/acme_search")
        assert 'id="history"' not in page
        assert "dr-new" not in site.page(f"{folder}plugins/acme_search/acme/search")


def test_index_json_carries_versions_the_workflow_check_reads(
    history_site: tuple[BuiltSite, dict[str, str]], tmp_path: Path
) -> None:
    """index.json lists each version with its breaking changes and removed outputs (valid against
    schemas/v2/registry_index.json), and `workflow --catalog index.json` judges a workflow pinned
    to 0.1.0 with them: the upgrade's breaking changes, and a reference to the removed output."""
    site, _ = history_site
    index = json.loads((site.root / "index.json").read_text(encoding="utf-8"))
    schema = json.loads((REPO / "schemas" / "v2" / "registry_index.json").read_text(encoding="utf-8"))
    jsonschema.validate(index, schema)
    (weather,) = [p for p in index["plugins"] if p["name"] == "weather_station"]
    newest = weather["versions"][0]
    assert newest["version"] == "0.2.0"
    assert newest["removed_outputs"] == [
        {"provider": "weather_station", "tool": "current_weather", "path": "humidity"}
    ]
    assert "parameter station of tool weather_station/current_weather was removed" in newest["breaking"]
    # each version compared straight with the current one: what a workflow pinned to it meets
    assert newest["upgrade_breaking"] == []
    oldest = weather["versions"][-1]
    assert oldest["version"] == "0.1.0"
    assert oldest["upgrade_breaking"] == newest["breaking"]
    assert oldest["upgrade_removed_outputs"] == newest["removed_outputs"]
    dsl = tmp_path / "app.yml"
    dsl.write_text(WORKFLOW, encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-m", "generator", "workflow", str(dsl), "--catalog", str(site.root / "index.json")],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    assert "W022 registry_examples/weather_station is pinned to 0.1.0" in out
    assert "W021 node 3 reads {{#2.humidity#}}" in out


WORKFLOW = """kind: app
version: 0.3.0
app: {mode: workflow, name: weather}
workflow:
  graph:
    nodes:
    - id: '2'
      data:
        type: tool
        title: ''
        provider_id: registry_examples/weather_station/weather_station
        provider_type: builtin
        plugin_unique_identifier: registry_examples/weather_station:0.1.0@0
        tool_name: current_weather
        tool_parameters:
          location: {type: constant, value: Lisbon}
        tool_configurations: {}
    - id: '3'
      data:
        type: answer
        title: ''
        answer: '{{#2.humidity#}}'
"""
