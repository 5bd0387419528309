"""A trigger plugin's pages in headless Chromium: an event page in two languages (its output
variables, how a workflow reads them, that it was checked statically only), and the catalog's
filter by plugin kind; an event run on its example deliveries (tests/cases/trigger_site laid over
tests/cases/trigger_run/github_like): each run's request, variables and result in two languages, a
delivery holding `<script>` shown as text, and the runs in `index.json` and the Markdown pages."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from generator.site.texts import texts_for
from tests.conftest import REPO
from tests.sitebuild import BuiltSite, build_site, serve, write_config
from tests.validate_cases import CASES

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.xdist_group("site")]
EVENT = "plugins/shop_trigger/shop/order_paid/"
RUN_BASE = REPO / "tests" / "cases" / "trigger_run" / "github_like"
RUN_OVER = REPO / "tests" / "cases" / "trigger_site"
ISSUES = "plugins/trigger_site/github_like/issues/"
PUSH = "plugins/trigger_site/github_like/push/"


@pytest.fixture(scope="module")
def triggers_site(tmp_path_factory: pytest.TempPathFactory) -> BuiltSite:
    """The site of a trigger plugin and a tool plugin (the validator's good cases), without runs."""
    base = tmp_path_factory.mktemp("triggers-site")
    return built(base, [CASES / "good" / "trigger", CASES / "good" / "minimal"], "--no-run")


def built(base: Path, folders: list[Path], *extra: str) -> BuiltSite:
    """The site of the plugin folders, built under `base` (it must build)."""
    site = build_site(write_config(base / "config", folders), base / "site", *extra)
    assert site.code == 0
    return site


@pytest.fixture(scope="module")
def site_url(triggers_site: BuiltSite) -> Iterator[str]:
    with serve(triggers_site.root) as url:
        yield url


@pytest.mark.parametrize(
    ("folder", "language", "label"),
    [("", "en_US", "Order paid"), ("zh/", "zh_Hans", "订单已支付")],
    ids=["en", "zh"],
)
def test_event_page_shows_its_variables_in_two_languages(
    page: Any, site_url: str, folder: str, language: str, label: str
) -> None:
    """The event's page, in English and in Chinese: its label, its parameters, its output variables
    from output_schema (nested ones included), the reference syntax of each, and no run."""
    words = texts_for(language)
    page.goto(site_url + folder + EVENT)
    assert page.locator("h1").first.inner_text().strip() == label
    assert page.locator("table.dr-parameters th").first.inner_text() == words["name"]
    outputs = page.locator("table.dr-outputs")
    assert outputs.is_visible()
    for anchor in ("out-prop-order_id", "out-prop-total", "out-prop-customer"):
        assert outputs.locator(f"#{anchor}").count() == 1
    assert "customer.email" in outputs.inner_text()
    references = page.locator("ul.dr-references").inner_text()
    assert "{{#node_id.order_id#}}" in references
    assert "{{#node_id.customer.name#}}" in references
    assert page.locator(".dr-static-only").inner_text() == words["static_only"]
    # The registry's stylesheet reached the page: the table has the theme's border.
    assert page.evaluate("t => getComputedStyle(t).borderTopStyle", outputs.element_handle()) == "solid"


def test_plugin_page_shows_how_to_subscribe_and_links_its_events(page: Any, site_url: str) -> None:
    """The plugin's page lists the subscription's fields, the constructor's parameters and
    credentials, and its events, each linked to its page."""
    page.goto(site_url + "plugins/shop_trigger/")
    text = page.locator(".dr-plugin").inner_text()
    for shown in ("signing_secret", "store", "api_token", "order_paid"):
        assert shown in text
    page.locator(f'a[href$="{EVENT.removeprefix("plugins/shop_trigger/")}"]').first.click()
    page.wait_for_url("**/" + EVENT)


def test_catalog_filters_by_kind(page: Any, site_url: str) -> None:
    """The catalog names each card's kind, and its kind filter shows the trigger plugin alone."""
    page.goto(site_url)
    page.wait_for_selector("[data-dr-loaded]")
    cards = page.locator("li.dr-card")
    assert cards.count() == 2
    page.locator('button.dr-tag[data-tag="kind:triggers"]').click()
    visible = page.locator("li.dr-card:visible")
    assert visible.count() == 1
    assert visible.first.get_attribute("data-plugin") == "shop_trigger"
    assert texts_for("en_US")["kind_triggers"] in visible.first.inner_text()
    page.locator('button.dr-tag[data-tag="kind:tools"]').click()
    assert page.locator("li.dr-card:visible").first.get_attribute("data-plugin") == "demo"


# Each query, the page its first search result opens (in the site's language; Echo has only an
# English label, so every language's result opens the English page) and what the result calls it.
SEARCHED = (
    ("Order paid", EVENT, ("trigger_event",)),
    ("Shop", "plugins/shop_trigger/", ("plugin", "kind_triggers")),  # words of the site's texts
    ("Echo", "/plugins/demo/demo/echo/", ("kind_tools",)),
)


@pytest.mark.parametrize(("folder", "language"), [("", "en_US"), ("zh/", "zh_Hans")], ids=["en", "zh"])
def test_search_results_name_their_kind(page: Any, site_url: str, folder: str, language: str) -> None:
    """The search box's results say what each page is, in the site's language: an event of a
    trigger, a plugin with the kinds it offers, a tool."""
    words = texts_for(language)
    page.goto(site_url + folder)
    box = page.locator("input.dr-search__input")
    for query, target, what in SEARCHED:
        box.fill("")
        box.fill(query)
        page.wait_for_selector(".dr-search__results a", timeout=20_000)
        first = page.locator(".dr-search__results a").first
        opened = target if target.startswith("/") else f"/{folder}{target}"
        assert first.evaluate("a => a.pathname") == opened, query
        names = [words[word] for word in what]
        shown = names[0] + " · " + ", ".join(names[1:]) if len(names) > 1 else names[0]
        assert first.locator(".dr-search__what").inner_text().strip().lower() == shown.lower(), query


def lay_out_runs(root: Path) -> Path:
    """github_like with the files of tests/cases/trigger_site over it."""
    shutil.copytree(RUN_BASE, root, ignore=shutil.ignore_patterns("expected.yaml"))
    for path in sorted(RUN_OVER.rglob("*")):
        if path.is_file():
            target = root / path.relative_to(RUN_OVER)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
    return root


@pytest.fixture(scope="module")
def runs_site(tmp_path_factory: pytest.TempPathFactory) -> BuiltSite:
    """The site of a trigger plugin whose events ran on their example deliveries (the real SDK)."""
    base = tmp_path_factory.mktemp("trigger-runs-site")
    plugin = lay_out_runs(base / "plugins" / "trigger_site")
    return built(base, [plugin], "--cache-dir", str(base / "cache"))


@pytest.fixture(scope="module")
def runs_url(runs_site: BuiltSite) -> Iterator[str]:
    with serve(runs_site.root) as url:
        yield url


@pytest.mark.parametrize(("folder", "language"), [("", "en_US"), ("zh/", "zh_Hans")], ids=["en", "zh"])
def test_event_page_shows_each_run_in_two_languages(
    page: Any, runs_url: str, folder: str, language: str
) -> None:
    """Each example's run on the event's page, in the page's language: its result in the shared
    vocabulary (passed, ignored), the request, the variables returned; the page says examples ran."""
    words = texts_for(language)
    page.goto(runs_url + folder + ISSUES)
    assert page.locator("h1").first.inner_text().strip() == (
        "Issue activity" if language == "en_US" else "议题动态"
    )
    assert page.locator(".dr-static-only").count() == 0
    assert page.locator(".dr-checked-by .dr-basis").get_attribute("data-basis") == "examples"
    assert page.locator(".dr-checked-by").inner_text().strip() == words["checked_by_examples"]
    runs = page.locator(".dr-event-run")
    assert runs.count() == 3
    opened, ignored = runs.nth(0), runs.nth(1)
    assert opened.locator("h3").inner_text().strip() == "issue-opened"
    assert opened.locator(".dr-result").get_attribute("data-result") == "passed"
    assert opened.locator(".dr-result").inner_text().strip() == "✓ " + words["result_passed"]
    if language == "zh_Hans":
        assert "按 GitHub 文档" in opened.locator(".dr-run__description").inner_text()
    assert "POST" in opened.locator(".dr-request").inner_text()
    assert "X-GitHub-Event" in opened.locator("table.dr-headers").inner_text()
    assert '"number": 7' in opened.locator("pre.dr-body").inner_text()
    variables = opened.locator("table.dr-variables")
    assert variables.locator("th").first.inner_text() == words["variable"]
    assert "The export drops the last row" in variables.inner_text()
    assert "issues" in opened.locator(".dr-dispatched").inner_text()
    assert ignored.locator(".dr-result").get_attribute("data-result") == "ignored"
    assert ignored.locator(".dr-result").inner_text().strip() == words["result_ignored"]
    assert ignored.locator(".dr-result__detail").inner_text().startswith("action opened")
    assert ignored.locator("table.dr-variables").count() == 0


def test_delivery_with_script_shows_as_text(page: Any, runs_url: str) -> None:
    """A delivery whose header, body and so variables hold HTML: every one shows as text, nothing
    runs and no element is made from it."""
    page.goto(runs_url + ISSUES)
    hostile = page.locator(".dr-event-run").nth(2)
    assert hostile.locator(".dr-result").get_attribute("data-result") == "passed"
    assert "<script>window.pwned = 'body'</script>" in hostile.locator("pre.dr-body").inner_text()
    assert "<script>window.pwned = 'title'</script>" in hostile.locator("table.dr-variables").inner_text()
    assert "<b onmouseover=" in hostile.locator("table.dr-headers").inner_text()
    assert page.evaluate("() => window.pwned") is None
    assert hostile.locator("script, img, b").count() == 0


def test_event_page_shows_its_examples_file_findings(page: Any, runs_url: str) -> None:
    """The findings of an event's examples file (an unknown key: R101) and of its run (a variable
    breaking output_schema) show on the event's page, the run failed."""
    page.goto(runs_url + PUSH)
    findings = page.locator("#findings + table.dr-findings").inner_text()
    assert "R101" in findings
    assert "events/push/push.examples.yaml" in findings
    run = page.locator(".dr-event-run")
    assert run.count() == 1
    assert run.locator(".dr-result").get_attribute("data-result") == "failed"
    assert "R001" in run.locator("table.dr-findings").inner_text()


def test_index_and_markdown_carry_the_runs(runs_site: BuiltSite) -> None:
    """index.json lists each event's runs with their results (following its schema), and the
    event's Markdown page gives each run's result words, request and variables."""
    index: Any = runs_site.index()
    schema = json.loads((REPO / "schemas" / "v2" / "registry_index.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())
    assert [e.message[:200] for e in validator.iter_errors(index)] == []
    (plugin,) = index["plugins"]
    events = {e["name"]: e for e in plugin["triggers"][0]["events"]}
    assert [(r["name"], r["result"]) for r in events["issues"]["examples"]] == [
        ("issue-opened", "passed"),
        ("issue-edited-filtered", "ignored"),
        ("issue-with-script", "passed"),
    ]
    assert events["issues"]["checked_by"] == "examples"
    assert plugin["checked_by"] == "examples"  # the plugin's verdict rests on its events' runs
    assert events["ping"]["checked_by"] == "static"
    assert events["ping"]["examples"] == []
    for folder, language in (("", "en_US"), ("zh/", "zh_Hans")):
        markdown = (runs_site.root / folder / (ISSUES.rstrip("/") + ".md")).read_text(encoding="utf-8")
        words = texts_for(language)
        assert f"### issue-opened ({words['result_passed']})" in markdown
        assert words["result_ignored"] in markdown
        assert '"title": "The export drops the last row"' in markdown
        assert "X-GitHub-Event: issues" in markdown
