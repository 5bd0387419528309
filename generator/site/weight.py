"""What keeps the built site light: pages without indentation, and one copy of the theme's assets
that every language's pages use."""

from __future__ import annotations

import re
from pathlib import Path

# Blocks whose whitespace is content.
_KEPT = re.compile(r"(<(pre|textarea)[\s>].*?</\2>)", re.S | re.I)
_INDENT = re.compile(r"[ \t\r]*\n\s*")
# A link to the theme's assets, relative (`../../assets/`) or from the server root.
_RELATIVE_ASSET = re.compile(r"""(["'])((?:\.\./)*)(?:\./)?assets/""")


def compact(html: str) -> str:
    """The page with each run of whitespace holding a line break reduced to one line break: the
    same page to a browser (outside `<pre>` and `<textarea>`, which are kept as they are)."""
    parts = _KEPT.split(html)
    # split() returns text, then for each match the block and its tag's name (dropped), and so on.
    return "".join(
        _INDENT.sub("\n", part) if index % 3 == 0 else part
        for index, part in enumerate(parts)
        if index % 3 != 2
    )


def shared_assets(html: str, prefix: str, root: str = "/") -> str:
    """A page of the language in folder `prefix` that loads the theme's assets from the site root's
    copy, one folder up, instead of its own. `root` is the path of the site's root on its server
    (`/registry/` for a site served from a folder): the theme's 404 page, served at any address,
    names its assets from there."""
    html = _RELATIVE_ASSET.sub(lambda m: f"{m[1]}{m[2]}../assets/", html)
    return html.replace(f'"{root}{prefix}/assets/', f'"{root}assets/')


# Material's own stylesheets as its base template links them (their names carry a hash that
# changes with Material's version).
_THEME_STYLESHEET = re.compile(r"assets/stylesheets/(main|palette)\.[0-9a-f]+\.min\.css")


def theme_stylesheets(theme_dirs: list[str]) -> dict[str, str]:
    """The theme's stylesheets by kind ("main", "palette"), read from the first `base.html` of the
    theme's folders: the light frame (overrides/dr-page.html) links them without extending that
    template, whose every page repeats the theme's script settings."""
    for folder in theme_dirs:
        base = Path(folder) / "base.html"
        if base.is_file():
            return {m[1]: m[0] for m in _THEME_STYLESHEET.finditer(base.read_text(encoding="utf-8"))}
    return {}
