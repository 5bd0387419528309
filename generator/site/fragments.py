"""The hot, repeated parts of pages built in Python: table rows that a page holds by the hundred.

Each function writes the HTML its template once wrote, escaping every untrusted string with
`markupsafe.escape` (through `untrusted_html` for texts from manifests and findings): going through
Jinja's call machinery for every cell cost more than the rest of the page. The page skeletons stay
templates.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from markupsafe import Markup, escape

from generator.diagnostics import Diagnostic
from generator.diff.changes import class_of
from generator.diff.history import Release
from generator.model import Option, Parameter, Tool
from generator.site.safe import clip
from generator.site.texts import texts_for
from generator.site.untrusted import MAX_CELL, untrusted_html

if TYPE_CHECKING:
    from generator.site.render import PageContext
    from generator.site.views import FindingView, OutputRow

MAX_MESSAGE = 500
MAX_PRETTY = 200_000


def pre(value: Any) -> Markup:
    """Escaped text for a `<pre>` block, newlines kept as entities so the HTML has no blank lines."""
    return Markup(str(escape(str(value))).replace("\n", "&#10;"))


def pretty_json(value: Any, limit: int = MAX_PRETTY) -> str:
    """Indented JSON of a value (already JSON data), cut when huge."""
    # Indenting only changes containers, and json writes other values much faster without it.
    indent = 2 if isinstance(value, (dict, list, tuple)) else None
    text = json.dumps(value, ensure_ascii=False, indent=indent, sort_keys=False, default=repr)
    return clip(text, limit)[0]


def value(data: Any) -> Markup:
    """A declared or produced value: a dash for none, a string as it is, anything else as JSON."""
    if data is None:
        return Markup('<span class="dr-none">—</span>')
    return Markup(f"<code>{pre(data if isinstance(data, str) else pretty_json(data))}</code>")


def findings_table(page: PageContext, findings: Sequence[FindingView]) -> Markup:
    """The findings table, each finding linked to its rule's page (or a line saying there are none)."""
    if not findings:
        return Markup(f"<p>{escape(page.t('no_findings'))}</p>\n")
    t = page.t
    parts = [
        '<table class="dr-findings">\n<thead><tr>',
        *(f"<th>{escape(t(key))}</th>" for key in ("severity", "rule", "location", "message")),
        "</tr></thead>\n<tbody>\n",
    ]
    for view in findings:
        head, rule, tail = _finding_cells(view.finding, page.language.code)
        if view.rule_src:
            rule = f'<a href="{escape(page.link(view.rule_src))}">{rule}</a>'
        parts.append(f"{head}{rule}{tail}")
    parts.append("</tbody></table>\n")
    return Markup("".join(parts))


# Each finding shows on its plugin's, its tool's and its rule's page: its cells are made once per
# language; only the link to the rule's page depends on where the table is.
@lru_cache(maxsize=1 << 15)
def _finding_cells(finding: Diagnostic, language: str) -> tuple[str, str, str]:
    """The row of a finding before its rule, the rule (escaped), and the row after it."""
    severity = escape(finding.severity.value)
    head = f'<tr class="dr-{severity}"><td>{severity}</td>\n<td>'
    location = (
        f"{untrusted_html(finding.file, MAX_CELL, language)}:{escape(finding.line)}:{escape(finding.column)}"
    )
    message = untrusted_html(finding.message, MAX_MESSAGE, language)
    tail = f"</td>\n<td><code>{location}</code></td>\n<td>{message}"
    if finding.hint:
        hint = escape(texts_for(language)["hint"])
        tail += f"<br><small>{hint}: {untrusted_html(finding.hint, MAX_MESSAGE, language)}</small>"
    return head, str(escape(finding.rule)), tail + "</td></tr>\n"


def options_list(page: PageContext, options: Sequence[Option]) -> Markup:
    """The choices of a select parameter or credential: value and label ("" when there are none)."""
    if not options:
        return Markup("")
    cell = page.cell
    items = "".join(f"<li><code>{cell(o.value)}</code> {cell(o.label)}</li>" for o in options)
    return Markup(f'<ul class="dr-options">{items}</ul>')


def _new_badge(page: PageContext) -> str:
    return f' <span class="dr-badge dr-info dr-new">{escape(page.t("new_in_version"))}</span>'


def parameter_rows(page: PageContext, parameters: Iterable[Parameter], added: Collection[str] = ()) -> Markup:
    """The rows of a tool's parameters table; those named in `added` are marked new in this version."""
    cell = page.cell
    yes, no = escape(page.t("yes")), escape(page.t("no"))
    new = _new_badge(page)
    rows = []
    for index, p in enumerate(parameters, 1):
        multiple = " <small>(multiple)</small>" if p.multiple else ""
        rows.append(
            f'<tr id="param-{index}"><td><code>{cell(p.name)}</code>{new if p.name in added else ""}</td>'
            f"<td>{cell(p.label)}</td><td><code>{cell(p.type)}</code>{multiple}</td>\n"
            f"<td>{yes if p.required else no}</td><td>{value(p.default)}</td>"
            f"<td><code>{cell(p.form)}</code></td>\n<td>{options_list(page, p.options)}</td>\n"
            f"<td>{cell(p.human_description)}</td><td>{cell(p.llm_description)}</td></tr>\n"
        )
    return Markup("".join(rows))


def output_rows(
    page: PageContext,
    rows: Iterable[OutputRow],
    prefix: str,
    required_title: bool,
    added: Collection[str] = (),
) -> Markup:
    """The rows of an output-variables or schema-properties table, each with its deep-link anchor
    (`<prefix>-<anchor>`) and a link to the hosted schema page of its `$ref`; paths in `added` are
    marked new in this version."""
    cell = page.cell
    new = _new_badge(page)
    marker = (
        f'<strong class="dr-required" title="{escape(page.t("required"))}">✱</strong>'
        if required_title
        else '<strong class="dr-required">✱</strong>'
    )
    html = []
    for row in rows:
        ref = ""
        if row.ref:
            ref = (
                f'<a href="{escape(page.link(row.ref_src))}">{cell(row.ref)}</a>'
                if row.ref_src
                else f"<code>{cell(row.ref)}</code>"
            )
        anchor = escape(f"{prefix}-{row.anchor}")
        html.append(
            f'<tr id="{anchor}"><td><a class="dr-anchor" href="#{anchor}">#</a> '
            f"<code>{cell(row.path)}</code>{new if row.path in added else ''}</td>"
            f"<td><code>{cell(row.type)}</code></td>\n"
            f"<td>{marker if row.required else ''}</td><td>{cell(row.description)}</td>\n"
            f"<td>{ref}</td></tr>\n"
        )
    return Markup("".join(html))


def tool_rows(page: PageContext, tools: Iterable[tuple[str, Tool]]) -> Markup:
    """The rows of a plugin's tools table: each tool (with the source of its page) and its names."""
    cell = page.cell
    return Markup(
        "".join(
            f'<tr><td><a href="{escape(page.link(src))}">{cell(tool.label)}</a></td>'
            f"<td><code>{cell(tool.name)}</code></td><td><code>{cell(tool.key.provider)}</code></td>"
            f"<td>{cell(tool.description)}</td></tr>\n"
            for src, tool in tools
        )
    )


_CHANGE_TONES = {"breaking": "dr-error", "compatible": "dr-ok", "note": "dr-info"}


def change_list(page: PageContext, release: Release) -> Markup:
    """A release's interface changes, each with its class as a badge in the page's language."""
    if release.first:
        return Markup(f"<p>{escape(page.t('first_version'))}</p>")
    if not release.changes:
        return Markup(f"<p>{escape(page.t('no_interface_change'))}</p>")
    items = []
    for change in release.changes:
        kind = class_of(change)
        # The message starts with its class in English; the badge says it in the page's language.
        text = change.message.split(": ", 1)[1] if kind else change.message
        badge = f'<span class="dr-badge {_CHANGE_TONES[kind]}">{escape(page.t(kind))}</span> ' if kind else ""
        items.append(f"<li>{badge}{untrusted_html(text, MAX_MESSAGE, page.language.code)}</li>")
    return Markup(f'<ul class="dr-changes">{"".join(items)}</ul>')


def code_items(page: PageContext, items: Iterable[str]) -> Markup:
    """List items of names or places, each shown as code."""
    cell = page.cell
    return Markup("".join(f"<li><code>{cell(item)}</code></li>" for item in items))
