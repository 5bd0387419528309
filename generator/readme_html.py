"""The raw HTML of a README (`<img>`, `<picture>`, `<p align="center">`, `<br>`...) as a page may show it.

READMEs written for GitHub lay out their logos and screenshots in HTML. The page keeps the harmless
structure (paragraphs, line breaks, alignment, lists, tables, emphasis, details), shows each `<img>`
that names an image inside the plugin through the same media pipeline as Markdown images, turns a
remote image into a link (a visitor's browser never fetches a stranger's URL), and names an image it
cannot show by its alternative text or file name. Everything else is dropped: elements that run or
embed something lose their content too, any other element keeps only its text, and no attribute
passes but the few rebuilt here from checked values. The README check (`check/readme.py`) reads the
same images, so a finding on a README line and what the page shows never disagree.
"""

from __future__ import annotations

from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import PurePosixPath

from markupsafe import escape

# Elements whose content is never text of the page: code, styles, embedded documents, forms.
_HIDDEN = frozenset(
    {
        "script", "style", "iframe", "object", "embed", "template", "noscript", "textarea", "title",
        "svg", "math", "head", "select", "frame", "frameset", "noframes", "xmp", "plaintext",
        "audio", "video", "canvas", "form", "button", "input", "applet", "base", "link", "meta",
    }
)  # fmt: skip
# Elements kept as themselves, with no attribute but the alignment.
_KEPT = frozenset(
    {
        "p", "div", "br", "hr", "b", "strong", "i", "em", "u", "s", "del", "ins", "code", "pre",
        "kbd", "sub", "sup", "small", "mark", "ul", "ol", "li", "dl", "dt", "dd", "table", "thead",
        "tbody", "tfoot", "tr", "td", "th", "blockquote", "details", "summary", "span",
        "h1", "h2", "h3", "h4", "h5", "h6",
    }
)  # fmt: skip
_VOID = frozenset(
    {"br", "hr", "img", "source", "wbr", "area", "col", "embed", "input", "link", "meta", "param", "base"}
)
_ALIGNMENTS = frozenset({"left", "center", "right"})
# A README's headings sit below the page's own h1 and h2 sections (its Markdown headings too).
HEADING_SHIFT = 2
REL = "nofollow noopener noreferrer"
# How a README image starts: its source is relative to the site root, and each page puts the way
# there in front of it (`site/readme.py`, `rebased`). Escaped README text can never write this.
IMAGE_START = '<img class="dr-readme-image" src="'
MAX_SIZE_DIGITS = 4


def image_sources(html: str) -> list[str]:
    """The `src` of every `<img>` in a fragment of raw HTML, as written."""
    collector = _Sources()
    collector.feed(html)
    collector.close()
    return collector.found


class _Sources(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "img":
            src = dict(attrs).get("src")
            if src and src.strip():
                self.found.append(src.strip())


class HtmlFilter(HTMLParser):
    """Turns a README's raw HTML, fed fragment by fragment in reading order (an inline `<a>` and its
    `</a>` arrive as separate fragments), into HTML that holds only what this module allows.

    `image` gives where the site serves an image named inside the plugin (None when it does not);
    `link` gives a URL a page may link to (None when it may not). Every element it writes is closed
    by the README's own closing tag or by `finish()`, so a README never leaves an element open around
    the rest of the page, and never closes one of the page's."""

    def __init__(self, image: Callable[[str], str | None], link: Callable[[str], str | None]) -> None:
        super().__init__(convert_charrefs=True)
        self.image = image
        self.link = link
        self.out: list[str] = []
        # the elements the README opened, each with whether this filter wrote it
        self.opened: list[tuple[str, bool]] = []
        # how many elements whose content is never shown enclose the current text
        self.hidden = 0

    def render(self, fragment: str) -> str:
        """The allowed HTML of the next fragment."""
        self.feed(fragment)
        written = "".join(self.out)
        self.out.clear()
        return written

    def finish(self) -> str:
        """What the last fragment left unread, and closing tags for every element still open."""
        self.close()
        closing = "".join(f"</{_written(tag)}>" for tag, wrote in reversed(self.opened) if wrote)
        written = "".join(self.out) + closing
        self.opened.clear()
        self.out.clear()
        return written

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _HIDDEN:
            if tag not in _VOID:
                self.hidden += 1
                self.opened.append((tag, False))
            return
        if self.hidden:
            return
        values = {name: value or "" for name, value in attrs}
        if tag == "img":
            self.out.append(self._image(values))
            return
        wrote = self._open(tag, values)
        if tag not in _VOID:
            self.opened.append((tag, wrote))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in _VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        # Only an element this README opened is closed, with everything opened inside it.
        for index in range(len(self.opened) - 1, -1, -1):
            if self.opened[index][0] == tag:
                for inner, wrote in reversed(self.opened[index:]):
                    if inner in _HIDDEN:
                        self.hidden -= 1
                    elif wrote:
                        self.out.append(f"</{_written(inner)}>")
                del self.opened[index:]
                return

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.out.append(str(escape(data)))

    def _open(self, tag: str, values: dict[str, str]) -> bool:
        if tag == "a":
            href = self.link(values.get("href", "").strip())
            if href is None:
                return False
            self.out.append(f'<a href="{escape(href)}" rel="{REL}">')
            return True
        if tag == "center":
            self.out.append('<div class="dr-align-center">')
            return True
        if tag not in _KEPT:
            return False
        align = values.get("align", "").strip().lower()
        shown = f' class="dr-align-{align}"' if align in _ALIGNMENTS else ""
        self.out.append(f"<{_written(tag)}{shown}>")
        return True

    def _image(self, values: dict[str, str]) -> str:
        src = values.get("src", "").strip()
        alt = values.get("alt", "").strip()
        named = alt or PurePosixPath(src.split("?", 1)[0].split("#", 1)[0]).name or "image"
        published = self.image(src) if src else None
        if published:
            size = "".join(
                f' {name}="{values[name].strip()}"'
                for name in ("width", "height")
                if values.get(name, "").strip().isdigit() and len(values[name].strip()) <= MAX_SIZE_DIGITS
            )
            return f'{IMAGE_START}{escape(published)}" alt="{escape(alt)}"{size} loading="lazy">'
        remote = self.link(src)
        if remote is not None:
            return f'<a href="{escape(remote)}" rel="{REL}">{escape(named)}</a>'
        return str(escape(named))


def _written(tag: str) -> str:
    """The element a README's element is written as: `<center>` is a centred `<div>`, a heading
    sits below the page's own."""
    if tag == "center":
        return "div"
    if len(tag) == 2 and tag[0] == "h" and tag[1].isdigit():
        return f"h{min(6, int(tag[1]) + HEADING_SHIFT)}"
    return tag
