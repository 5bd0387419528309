"""A README page rendered from the shared parse (the one the README check reads) is byte-identical to
the page's own parse (raw HTML off), only http(s) targets are links, and untrusted markup never
passes."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.markdown_tokens import parse_as_written
from generator.readme_html import HtmlFilter
from generator.ruleset import all_rules
from generator.site.readme import FILTER, MAX_README_CHARS, make_renderer, render_readme

REPO = Path(__file__).resolve().parents[1]

# Targets that the page keeps, normalizes, or refuses, written in every way Markdown allows.
CASES = [
    "[a](javascript:alert(1))",
    "<b onclick=x>bold</b> and <script>alert(1)</script>",
    "<div>\n*block*\n</div>\n",
    "[r]: javascript:alert(1)\n\ntext",
    '[r]: http://ü.example/a b "title"\n\n[x][r]',
    '[x][r]\n\n[r]: http://ü.example "t"',
    "<http://a.example/c>",
    "<mailto:a@b.example>",
    "<a@b.example>",
    "![alt](http://x.example/y%20z.png)",
    "![](http://x.example/ü.png)",
    "![](_assets/relative.png)",
    "[x](<http://a.example/b c>)",
    "[x](http://a.example/%zz)",
    "[x](HTTP://A.EXAMPLE)",
    "[x](#anchor)",
    "[x](data:text/html;base64,PHNjcmlwdD4=)",
    "| a | b |\n|---|---|\n| [x](http://ü.example) | `c` |",
    "# Title\n\n## Sub\n\n- [a](https://a.example 'quoted \" title')\n- b\n\n> quote [c](http://c.example)",
    "[a [nested](http://n.example)](http://o.example)",
    "[x](http://a.example/&amp;&lt;)",
]


def _texts(corpus: Path) -> list[str]:
    files = [
        *corpus.rglob("README.md"),
        *(REPO / "plugins").rglob("README.md"),
        *(REPO / "registry").rglob("*.md"),
    ]
    texts = [path.read_bytes()[:1_000_000].decode("utf-8", errors="replace") for path in files]
    return [*texts, *(r.doc for r in all_rules().values()), *CASES]


def _own_parse(text: str) -> str:
    env: dict[str, HtmlFilter] = {}
    html = str(make_renderer().render(text[:MAX_README_CHARS], env))
    return html + (env[FILTER].finish() if FILTER in env else "")


def test_shared_parse_renders_every_known_readme_as_the_own_parse(corpus: Path) -> None:
    renderer = make_renderer()
    texts = _texts(corpus)
    for text in texts:
        assert render_readme(text, renderer) == _own_parse(text), text[:200]


def test_rendering_never_changes_the_shared_tokens() -> None:
    text = "[x](http://ü.example) ![i](http://i.example/a b.png)\n\n[r]: http://r.example"
    before = [t.as_dict() for t in parse_as_written(text).tokens]
    render_readme(text)
    render_readme(text)
    assert [t.as_dict() for t in parse_as_written(text).tokens] == before


MARKDOWN_BITS = st.sampled_from(
    [
        "[",
        "]",
        "(",
        ")",
        "<",
        ">",
        "!",
        "*",
        "_",
        "`",
        "#",
        "|",
        "-",
        ":",
        '"',
        "'",
        "\\",
        "&",
        ";",
        "\n",
        "\n\n",
        " ",
        "    ",
        "http://a.example/",
        "https://ü.example",
        "javascript:",
        "mailto:",
        "data:",
        "x@y.example",
        "<b>",
        "</b>",
        "<div>",
        "<!-- c -->",
        "&amp;",
        "%20",
        "%zz",
        "ü",
        "[r]: ",
        "[r]",
        "---",
        "| a |",
        "text",
    ]
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(MARKDOWN_BITS, max_size=40).map("".join))
def test_shared_parse_renders_generated_markdown_as_the_own_parse(text: str) -> None:
    assert render_readme(text) == _own_parse(text)


UNSAFE = [
    "<script>alert(1)</script>",
    "[a](javascript:alert(1))",
    "<img src=x onerror=y>",
    "[r]: data:x\n\n[a][r]",
]


@pytest.mark.parametrize("text", UNSAFE)
def test_no_markup_or_script_link_passes(text: str) -> None:
    html = render_readme(text)
    assert "<script" not in html
    assert "<img" not in html
    assert 'href="javascript' not in html
    assert 'href="data' not in html


def test_targets_that_are_not_http_show_as_their_text() -> None:
    """Plugin files, mail addresses and scripts cannot be reached from the page: the link or image
    shows as its text, with no anchor and no Markdown left over; http(s) targets stay links."""
    text = (
        "See [privacy](PRIVACY.md), ![logo](_assets/x.png), <mailto:a@b.example>, "
        "[js](javascript:alert(1)) and [ok](https://dify.ai).\n\n[ref][r]\n\n[r]: file:///etc/passwd\n"
    )
    for html in (render_readme(text), _own_parse(text)):
        assert html.count("<a ") == 1
        assert '<a href="https://dify.ai" rel="nofollow noopener noreferrer">ok</a>' in html
        assert "See privacy, logo, mailto:a@b.example, js and" in html
        assert "<p>ref</p>" in html
        assert "](" not in html
