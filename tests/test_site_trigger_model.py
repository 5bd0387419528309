"""The site model of a trigger event whose examples the registry supplies (an overlay): the event's
entry names the overlay's file and shows that file's findings, and an event that did not run says
it was checked statically only."""

from __future__ import annotations

import shutil
from pathlib import Path

from generator.pipeline import site_catalog
from generator.site.site_model import site_model
from tests.conftest import REPO

BASE = REPO / "tests" / "cases" / "trigger_run" / "github_like"
EXAMPLES = "events/push/push.examples.yaml"


def test_overlay_examples_file_findings_show_on_the_event(tmp_path: Path) -> None:
    """github_like with its push examples moved to the registry's overlay (one of them has an
    unknown key: R101), checked without runs."""
    plugin = tmp_path / "github_like"
    shutil.copytree(BASE, plugin)
    overlays = tmp_path / "overlays"
    moved = overlays / "registry" / "github_like" / EXAMPLES
    moved.parent.mkdir(parents=True)
    shutil.move(plugin / EXAMPLES, moved)
    model = site_model(site_catalog([plugin], REPO / "schemas", None, overlays=overlays))
    (entry,) = model.plugins
    events = {child.name: child for section in entry.sections for child in section.children}
    push = events["push"]
    assert push.examples_from == f"overlays/registry/github_like/{EXAMPLES}"
    assert [(f.rule, f.finding.file) for f in push.findings] == [("R101", push.examples_from)]
    assert (push.runs, push.checked_by) == ((), "static")
    assert (entry.checked_by, entry.unproven) == ("static", False)
    assert events["issues"].examples_from == ""
