"""Compiled page templates, and the theme's, are kept in the user's cache between builds: one file
per language and template (per template for the theme's), used again by the next build, and never
needed (a cache that cannot be written costs a compile, not a failure)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import jinja2
import pytest
from markupsafe import Markup

from generator.schemas.dialect import MAX_REMEMBERED, metaschema_errors
from generator.site.languages import LANGUAGE_SITES
from generator.site.render import PageContext, _QuietCache, environment, render, theme_templates


@pytest.fixture
def fresh_environments() -> Iterator[None]:
    """Environments made again for the test (they are made once per process), and afterwards."""
    environment.cache_clear()
    yield
    environment.cache_clear()


def rules_pages() -> dict[str, str]:
    return {
        lang.code: render("rules.html.j2", PageContext(lang, "rules/index.html"), rules=[])
        for lang in LANGUAGE_SITES
    }


def count_compiles(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Names of the templates compiled from now on (a compiled template is written to the cache)."""
    compiled: list[str] = []
    original = _QuietCache.dump_bytecode

    def dump_and_count(self: _QuietCache, bucket: jinja2.bccache.Bucket) -> None:
        compiled.append(bucket.key)
        original(self, bucket)

    monkeypatch.setattr(_QuietCache, "dump_bytecode", dump_and_count)
    return compiled


@pytest.mark.usefixtures("fresh_environments")
def test_the_next_build_uses_the_compiled_templates(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    compiled = count_compiles(monkeypatch)
    first = rules_pages()
    # Each language has its own words; its environment compiles the shared macros and the page.
    assert len(compiled) == 2 * len(LANGUAGE_SITES)
    cached = sorted(p.name for p in (tmp_path / "dify-registry" / "templates").iterdir())
    assert len(cached) == 2 * len(LANGUAGE_SITES)
    assert all(name.startswith("__site_") for name in cached)
    environment.cache_clear()  # as in a new process
    compiled.clear()
    assert rules_pages() == first
    assert compiled == []
    assert len(set(first.values())) == len(LANGUAGE_SITES)


@pytest.mark.usefixtures("fresh_environments")
def test_a_cache_that_cannot_be_written_costs_only_a_compile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the cache folder would go", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    assert all("<" in html for html in rules_pages().values())


def test_metaschema_errors_are_the_same_when_asked_again() -> None:
    bad = {"type": "objekt", "properties": {"a": {"pattern": "(unclosed"}}}
    first = [(list(e.absolute_path), e.message) for e in metaschema_errors(bad)]
    again = [(list(e.absolute_path), e.message) for e in metaschema_errors(bad)]
    assert first == again
    assert len(first) == 2
    large = {"description": "x" * MAX_REMEMBERED, "type": "objekt"}
    assert [e.validator for e in metaschema_errors(large)] == ["anyOf"]
    assert metaschema_errors({"type": "object", "default": object()}) == []


MARKUP_CASES = (
    "{{ safe }}|{{ plain }}|{{ number }}|{{ none }}",
    "{% macro row(x) %}<td>{{ x }}</td>{{ safe }}{% endmacro %}{{ row(plain) }}{{ row(safe) }}",
    "{% set block %}{{ plain }}{{ safe }}{% endset %}{{ block }}",
    "{% for x in [safe, plain, number] %}{{ x }}{% endfor %}",
    "{% autoescape false %}{{ plain }}{% endautoescape %}|{{ plain ~ safe }}|{{ plain|e }}",
)


@pytest.mark.parametrize("source", MARKUP_CASES)
def test_markup_is_written_as_is_and_everything_else_escaped_as_jinja_does(source: str) -> None:
    """The site's templates compile `{{ value }}` to skip escaping exact `Markup`: the output is
    the same as Jinja's own, and the shortcut is in the compiled code."""
    values = {"safe": Markup("<b>&amp;</b>"), "plain": "<i>&", "number": 3, "none": None}
    ours = environment("en_US").from_string(source)
    stock = jinja2.Environment(autoescape=True).from_string(source)
    assert ours.render(**values) == stock.render(**values)
    assert "is Markup else escape(" in environment("en_US").compile(source, raw=True)


def _theme_page(folder: Path, trim_blocks: bool = False) -> tuple[jinja2.Environment, str]:
    """A theme's environment as MkDocs makes one (templates from a folder), with the registry's
    cache of compiled templates, and a page rendered with it."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(folder)), trim_blocks=trim_blocks)
    env.filters["shout"] = str.upper
    env.bytecode_cache = theme_templates(env)
    return env, env.get_template("main.html").render(name="ja")


def test_the_theme_templates_are_compiled_once_for_every_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The next language's build (a new environment, the same templates) compiles none; another
    source, another way of parsing or another calling convention of a filter compiles again."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    theme = tmp_path / "theme"
    theme.mkdir()
    (theme / "main.html").write_text("{% if name %}\n<b>{{ name|shout }}</b>\n{% endif %}", encoding="utf-8")
    compiled = count_compiles(monkeypatch)
    _, first = _theme_page(theme)
    assert len(compiled) == 1
    compiled.clear()
    env, again = _theme_page(theme)
    assert (again, compiled) == (first, [])
    _, trimmed = _theme_page(theme, trim_blocks=True)
    assert (trimmed, len(compiled)) == ("<b>JA</b>\n", 1)
    env.filters["shout"] = jinja2.pass_context(lambda context, value: value.upper())
    env.bytecode_cache = theme_templates(env)
    env.cache = None  # as in a new environment: its compiled templates are read again
    assert env.get_template("main.html").render(name="ja") == first
    assert len(compiled) == 2
    (theme / "main.html").write_text("<i>{{ name }}</i>", encoding="utf-8")
    assert _theme_page(theme)[1] == "<i>ja</i>"
    assert len(compiled) == 3
