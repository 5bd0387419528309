"""Every run result, built into a site from run case plugins: the same word in index.json (which
follows its schema) and on the tool pages in four languages, in headless Chromium; no smoke run is
"passed" anywhere, and each plugin's badge says what it rests on."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import jsonschema
import pytest

from generator.run.result import LABELS, RunResult
from generator.site.languages import LANGUAGE_SITES
from tests.conftest import REPO
from tests.sitebuild import BuiltSite, build_site, serve, write_config

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.xdist_group("runner")]

RUN_CASES = REPO / "tests" / "cases" / "run"
# One run case plugin per result (each has one tool and one run).
SHOWN = {
    "good_basic": RunResult.PASSED,
    "expectation_failed": RunResult.FAILED,
    "smoke_only": RunResult.OUTPUT,
    "reads_credential": RunResult.CREDENTIAL,
    "looks_up_host": RunResult.NETWORK,
    "invokes_model": RunResult.DIFY_CALL,
    "answers_error": RunResult.TOOL_ERROR,
    "sleeps_invented": RunResult.TIME_LIMIT,
    "starts_missing_program": RunResult.ENVIRONMENT,
    "sdk_api_missing": RunResult.CRASHED,
}
BASIS = {"good_basic": "examples", "smoke_only": "smoke", "answers_error": "smoke"}
# The site's languages in the order of the words in `result.LABELS`.
ORDER = ("en_US", "zh_Hans", "ja_JP", "pt_BR")


@pytest.fixture(scope="module")
def results_site(tmp_path_factory: pytest.TempPathFactory) -> BuiltSite:
    """A site of one run case plugin per result, with runs."""
    base = tmp_path_factory.mktemp("results-site")
    config = write_config(base / "config", [RUN_CASES / name for name in SHOWN])
    return build_site(config, base / "site", "--cache-dir", str(base / "cache"), "--timeout", "8")


@pytest.fixture(scope="module")
def results_url(results_site: BuiltSite) -> Iterator[str]:
    """The site served on localhost."""
    with serve(results_site.root) as url:
        yield url


def _plugins(site: BuiltSite) -> dict[str, dict[str, Any]]:
    plugins = site.index()["plugins"]
    assert isinstance(plugins, list)
    return {plugin["name"]: plugin for plugin in plugins}


def test_index_holds_each_result_and_follows_its_schema(results_site: BuiltSite) -> None:
    """index.json names each run's result and detail, passes its schema, and no smoke run passed."""
    schema = json.loads((REPO / "schemas" / "v2" / "registry_index.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())
    assert [e.message[:200] for e in validator.iter_errors(results_site.index())] == []
    plugins = _plugins(results_site)
    for name, result in SHOWN.items():
        examples = [e for tool in plugins[name]["tools"] for e in tool["examples"]]
        assert [e["result"] for e in examples] == [result.value], name
        assert not any(e["passed"] for e in examples if e["smoke"]), name
    assert plugins["reads_credential"]["tools"][0]["examples"][0]["detail"] == "api_key"
    for name, basis in BASIS.items():
        assert plugins[name]["checked_by"] == basis


@pytest.mark.parametrize("language", ORDER)
def test_tool_pages_show_each_result(
    page: Any, results_url: str, results_site: BuiltSite, language: str
) -> None:
    """Each tool page shows its run's result in the page's language: green only for a pass, red only
    for a failure or a crash."""
    plugins = _plugins(results_site)
    column = ORDER.index(language)
    assert language in {lang.code for lang in LANGUAGE_SITES}
    for name, result in SHOWN.items():
        tool_page = plugins[name]["tools"][0]["pages"][language]
        page.goto(results_url + tool_page.split("/", 3)[3])
        badge = page.locator(".dr-run .dr-result")
        assert badge.count() == 1, name
        assert badge.get_attribute("data-result") == result.value
        assert LABELS[result][column] in badge.inner_text()
        tone = badge.get_attribute("class") or ""
        assert ("dr-ok" in tone) is (result is RunResult.PASSED), name
        assert ("dr-error" in tone) is (result in (RunResult.FAILED, RunResult.CRASHED)), name
        if result is RunResult.OUTPUT:
            assert page.locator(".dr-run__invented").count() == 1


def test_plugin_badge_says_what_it_rests_on(page: Any, results_url: str, results_site: BuiltSite) -> None:
    """A plugin whose runs all stopped is not green "valid", and the badge names its basis: green
    only when an example its author wrote ran (smoke runs and static checks prove no more)."""
    plugins = _plugins(results_site)
    for name, basis in BASIS.items():
        page.goto(results_url + plugins[name]["pages"]["en_US"].split("/", 3)[3])
        assert page.locator(f'.dr-basis[data-basis="{basis}"]').count() == 1, name
        if basis != "examples":
            assert page.locator(".dr-meta .dr-ok").count() == 0, name
    page.goto(results_url + plugins["answers_error"]["pages"]["en_US"].split("/", 3)[3])
    assert page.locator(".dr-meta .dr-ok").count() == 0
