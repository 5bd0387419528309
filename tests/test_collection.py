"""A collection in the layout of Dify's official plugins repository, read with one command.

The case (`tests/cases/collection/official/`) holds eleven small tool plugins written for this
project under `tools/`, and a model, a trigger and an agent-strategy plugin beside them; none ships
an examples file (`tests/cases/collection/overlays/` holds the registry's)."""

from __future__ import annotations

import json
import re
import shlex
import tempfile
from pathlib import Path

import pytest

from generator.cli import main
from generator.inputs import display_roots
from tests.conftest import REPO
from tests.packages import zip_plugin

CASE = REPO / "tests" / "cases" / "collection" / "official"
OVERLAYS = CASE.parent / "overlays"
TOOL_PLUGINS = 11


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working folder with a link `collection` to the case, which lies elsewhere on the machine."""
    work = tmp_path / "work"
    work.mkdir()
    (tmp_path / "collection").symlink_to(CASE, target_is_directory=True)
    monkeypatch.chdir(work)
    monkeypatch.setenv("NO_COLOR", "1")
    return work


def _machine_paths(work: Path) -> list[str]:
    """Folders of this machine that no output may name."""
    named = {work, work.resolve(), work.parent, work.parent.resolve(), CASE, REPO, Path.home()}
    return [*(str(p) for p in named), tempfile.gettempdir() + "/"]


# Tags whose address a browser fetches by itself when it shows the page (links to follow are not).
_FETCHED = re.compile(
    r"<(?:script|img|iframe|source|audio|video)\b[^>]*?\bsrc=\"([^\"]*)\""
    r"|<link\b(?=[^>]*\brel=\"(?:stylesheet|preconnect|preload|icon|modulepreload|manifest)\")[^>]*?\bhref=\"([^\"]*)\""
)


def _third_party_requests(html: str, site_url: str) -> list[str]:
    """The addresses outside the site that showing `html` makes the browser fetch."""
    fetched = (src or href for src, href in _FETCHED.findall(html))
    return [url for url in fetched if re.match(r"(?:https?:)?//", url) and not url.startswith(site_url)]


def _output(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def test_collection_is_validated_with_other_kinds_named(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every plugin at any depth is checked: tool plugins, and the model, trigger and agent-strategy
    plugins, whose kinds have loaders, are catalogued too; none is set aside as another kind."""
    code, out = _output(capsys, "validate", "../collection", "--format", "json")
    document = json.loads(out)
    assert code == 0
    assert document["summary"]["plugins"] == TOOL_PLUGINS + 3
    assert document["summary"]["other_plugins"] == {}
    assert {d["rule"] for d in document["diagnostics"]} == {"A010"}


@pytest.mark.parametrize("form", ["absolute", "relative"])
def test_no_output_format_names_a_machine_path(
    workdir: Path, capsys: pytest.CaptureFixture[str], form: str
) -> None:
    """Text, JSON, SARIF and GitHub annotations name files relative to the root the user named,
    reached through a link and given as an absolute path or not (outside the working folder, a root
    is shown by its name)."""
    root = str(workdir.parent / "collection") if form == "absolute" else "../collection"
    for format in ("text", "json", "sarif", "github"):
        _, out = _output(capsys, "validate", root, "--format", format)
        noisy = "collection/tools/noisy_echo/tools/noisy_echo.yaml"
        assert noisy in out, format
        for path in _machine_paths(workdir):
            assert path not in out, (format, path)


@pytest.mark.slow
def test_catalog_site_of_a_linked_collection_names_no_machine_path(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`build` of a folder of plugin folders without mkdocs.yml: the built-in configuration (title,
    site URL, four languages), and no file of the site names a folder of this machine."""
    link = workdir.parent / "collection"
    code, out = _output(
        capsys,
        "build",
        str(link),
        "--overlays",
        str(OVERLAYS),
        "--no-run",
        "--site-dir",
        "catalog",
        "--title",
        "Case catalog",
        "--site-url",
        "https://example.org/catalog/",
    )
    assert code == 0, out
    site = workdir / "catalog"
    assert "site built in catalog" in out
    for prefix in ("", "zh/", "ja/", "pt/"):
        assert "Case catalog" in (site / prefix / "index.html").read_text(encoding="utf-8")
    index = json.loads((site / "index.json").read_text(encoding="utf-8"))
    paths = sorted(plugin["path"] for plugin in index["plugins"])
    assert len(paths) == TOOL_PLUGINS + 3  # and a model, an agent-strategy and a trigger plugin
    assert all(
        re.fullmatch(r"collection/(tools|models|agent-strategies|triggers)/[a-z_]+", path) for path in paths
    )
    for prefix in ("", "zh/", "ja/", "pt/"):
        page = (site / prefix / "plugins/word_counter/word_counter/count_words/index.html").read_text()
        assert "overlays/collection_cases/word_counter/tools/count_words.examples.yaml" in page
        assert 'class="dr-run__origin"' in page
    # each home page introduces the catalog in its own language
    homes = (("", "Search (top right)"), ("zh/", "搜索"), ("ja/", "検索（右上）"), ("pt/", "A busca"))
    for prefix, words in homes:
        assert words in (site / prefix / "index.html").read_text(encoding="utf-8"), prefix
    forbidden = _machine_paths(workdir)
    files = [f for f in site.rglob("*") if f.is_file()]
    assert len(files) > 100
    for html_file in (f for f in files if f.suffix == ".html"):
        requested = _third_party_requests(
            html_file.read_text(encoding="utf-8"), "https://example.org/catalog/"
        )
        assert not requested, (html_file.relative_to(site), requested)
    for file in files:
        text = file.read_bytes().decode("utf-8", errors="replace")
        for path in forbidden:
            assert path not in text, (file.relative_to(site), path)


def test_stale_overlay_is_a_warning_on_the_registrys_file(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An overlay written for an older tool (a parameter renamed, a tool gone) is reported on the
    registry's file as X001, never as an error of the plugin's."""
    argv = ["validate", "../collection", "--overlays", str(OVERLAYS), "--format", "json"]
    code, out = _output(capsys, *argv)
    found = [
        (d["rule"], d["severity"], d["file"], d["line"])
        for d in json.loads(out)["diagnostics"]
        if d["rule"] != "A010"
    ]
    stale = "overlays/collection_cases/text_reverser/tools"
    assert found == [
        ("X001", "warning", f"{stale}/reverse_text.examples.yaml", 4),
        ("X001", "warning", f"{stale}/reverse_text.examples.yaml", 7),
        ("X001", "warning", f"{stale}/reverse_words.examples.yaml", 1),
    ]
    assert code == 0


@pytest.mark.slow
def test_overlay_examples_run_and_stale_ones_do_not(
    workdir: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The registry's example of a plugin without examples runs and passes; a stale one is not run
    (the tool gets a smoke run), so the plugin is never blamed for the registry's file; the runs
    name no folder of the machine."""
    plugins = [
        str(workdir.parent / "collection" / "tools" / name) for name in ("word_counter", "text_reverser")
    ]
    argv = ["run", *plugins, "--overlays", str(OVERLAYS), "--cache-dir", str(tmp_path / "cache")]
    code, out = _output(capsys, *argv, "--format", "json")
    document = json.loads(out)
    runs = {(run["tool"], run["example"], run["smoke"], run["passed"]) for run in document["runs"]}
    assert ("word_counter/word_counter/count_words", "basic", False, True) in runs
    assert ("text_reverser/text_reverser/reverse_text", "basic", False, False) not in runs
    assert not [d for d in document["diagnostics"] if d["severity"] == "error"]
    assert code == 0
    for path in _machine_paths(workdir):  # the runs' messages, outputs and findings included
        assert path not in out, path


def test_any_mix_of_paths_at_any_depth(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Packages and plugin folders nested at any depth, hidden folders and links inside skipped,
    several paths on one command line, an empty folder a finding (F004)."""
    monkeypatch.chdir(tmp_path)
    deep = tmp_path / "mixed" / "a" / "b"
    deep.mkdir(parents=True)
    zip_plugin(CASE / "tools" / "word_counter", deep / "word_counter.difypkg").close()
    (tmp_path / "mixed" / ".hidden").mkdir()
    zip_plugin(CASE / "tools" / "slug_maker", tmp_path / "mixed" / ".hidden" / "x.difypkg").close()
    (tmp_path / "mixed" / "linked").symlink_to(CASE / "tools", target_is_directory=True)
    (tmp_path / "empty").mkdir()
    argv = ["validate", "mixed", str(CASE / "tools" / "line_sorter"), "empty", "--format", "json"]
    code, out = _output(capsys, *argv)
    document = json.loads(out)
    assert document["summary"]["plugins"] == 2
    files = {d["file"] for d in document["diagnostics"]}
    assert files == {"empty"}
    assert [d["rule"] for d in document["diagnostics"]] == ["F004"]
    assert code == 1


def test_text_groups_findings_per_plugin_and_counts_each_rule(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each plugin's findings under its name, at most three of a rule per plugin with the rest
    counted, the count of each rule, the summary, and the plugins of other kinds: exactly
    `validate.txt`."""
    monkeypatch.chdir(CASE.parent)
    monkeypatch.setenv("NO_COLOR", "1")
    code, out = _output(capsys, "validate", "official", "--overlays", "overlays")
    assert out == (CASE.parent / "validate.txt").read_text(encoding="utf-8")
    assert code == 0
    _, every = _output(capsys, "validate", "official", "--overlays", "overlays", "--show-all")
    shown = [line for line in every.splitlines() if " warning A010 " in line]
    assert len(shown) == 5
    assert "--show-all shows" not in every
    assert every.count("\n-- ") == out.count("\n-- ")
    assert every.split("findings by rule:")[1] == out.split("findings by rule:")[1]


def _readme_commands() -> list[list[str]]:
    """The `dify-registry` lines of the README's section "Catalog an existing collection"."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Catalog an existing collection", 1)[1].split("\n## ", 1)[0]
    lines = [line.split("#", 1)[0].strip() for line in section.splitlines()]
    return [shlex.split(line) for line in lines if line.startswith("dify-registry ")]


@pytest.mark.slow
def test_readme_section_commands_work_as_written(
    workdir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The section's commands, run on the case collection in place of the clone."""
    commands = _readme_commands()
    assert [argv[1] for argv in commands] == ["validate", "build"]
    (workdir / "dify-official-plugins").symlink_to(CASE, target_is_directory=True)
    for argv in commands:
        code, out = _output(capsys, *argv[1:])
        assert code == 0, (argv, out)
    assert (workdir / "catalog" / "index.html").is_file()
    assert (workdir / "catalog" / "zh" / "index.html").is_file()


def test_two_folders_of_one_name_elsewhere_keep_apart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two plugin folders named alike outside the working folder (a tool and a datasource plugin
    both called `github`) are shown with as many parent folders as tell them apart, never both as
    the same path (their pages would land on one file)."""
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    for kind in ("tools", "others"):
        (tmp_path / kind).mkdir()
        (tmp_path / kind / "same").symlink_to(CASE / "tools" / "word_counter", target_is_directory=True)
    argv = [
        "validate",
        str(tmp_path / "tools" / "same"),
        str(tmp_path / "others" / "same"),
        "--format",
        "json",
    ]
    code, out = _output(capsys, *argv)
    assert code == 0
    assert json.loads(out)["summary"]["plugins"] == 2
    assert display_roots([tmp_path / "tools" / "same", tmp_path / "others" / "same"]) == [
        "tools/same",
        "others/same",
    ]
