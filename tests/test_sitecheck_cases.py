"""`check-site` on small sites served from a folder (`https://example.github.io/registry/`): each
case under `tests/cases/sitecheck/` is a built site (`site/`, whose `index.json` names its URL and
its schemas' digests) and the problems the check must print (`expected.txt`). Links resolve as a
browser resolves them on the page's address under the site's URL, and a 404 page, served at any
missing address, may not link relatively. The command needs no registry: run outside any, it
reads the site's own index."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.sitecheck import check_site, site_facts
from tests.conftest import REPO
from tests.publishing import command

CASES = REPO / "tests" / "cases" / "sitecheck"


@pytest.mark.parametrize("case", sorted(p.name for p in CASES.iterdir()))
def test_case(case: str) -> None:
    site = CASES / case / "site"
    facts = site_facts(site)
    assert facts is not None
    problems = check_site(site, facts.schemas, facts.site_url, [])
    expected = (CASES / case / "expected.txt").read_text(encoding="utf-8").splitlines()
    assert [str(p) for p in problems] == expected


def test_the_same_site_at_the_server_root_has_every_folder_link_broken() -> None:
    """The URL decides: links to `/registry/...` leave a site served at the server's root."""
    site = CASES / "served_from_a_folder" / "site"
    facts = site_facts(site)
    assert facts is not None
    problems = [str(p) for p in check_site(site, facts.schemas, "https://registry.example/", [])]
    assert "404.html: broken link /registry/assets/x.css" in problems
    assert "index.html: broken link https://example.github.io/registry/ja/" not in problems  # another server


def test_outside_any_registry_the_site_checks_itself(tmp_path: Path) -> None:
    site = shutil.copytree(CASES / "broken_under_the_folder" / "site", tmp_path / "site")
    done = command("check-site", "site", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    expected = (CASES / "broken_under_the_folder" / "expected.txt").read_text(encoding="utf-8")
    assert done.stdout == expected
    done = command("check-site", ".", cwd=site)
    assert done.stdout == expected
    assert done.stderr.strip() == ".: 5 problems"


def test_a_site_without_its_index_outside_a_registry_is_a_usage_error(tmp_path: Path) -> None:
    site = shutil.copytree(CASES / "served_from_a_folder" / "site", tmp_path / "site")
    (site / "index.json").unlink()
    done = command("check-site", "site", cwd=tmp_path)
    assert done.returncode == 2
    assert "--registry" in done.stderr
