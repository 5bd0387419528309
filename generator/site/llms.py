"""The catalog as text for machines: `llms.txt` at each language's root, listing every plugin and tool
with a one-line description and a link to a Markdown rendering of its page (served beside the page,
at the page's source path: `plugins/<plugin>/index.md`, `plugins/<plugin>/<provider>/<tool>.md`).

Texts from manifests are data here as on the pages: one-line texts lose line breaks and invisible
characters and have Markdown's marks escaped, so a label can neither open a link, an image or raw
HTML, nor start a heading or a list; longer values sit in fenced blocks whose fence is longer than
any run of backticks inside. Links point only at this site's own files or at checked http(s) URLs.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Mapping

from generator.plugin_model import I18n
from generator.run.result import RunResult
from generator.site.kinds import ChildEntry
from generator.site.languages import DEFAULT_LANGUAGE, LANGUAGE_SITES, SiteLanguage
from generator.site.safe import clip, safe_url
from generator.site.site_model import PluginEntry, SiteModel, ToolEntry
from generator.site.untrusted import pretty_json, word_cut
from generator.site.views import SHOWN_BODY_CHARS, OutputRow

LLMS_TXT = "llms.txt"
MAX_LINE = 300  # a one-line text
MAX_BLOCK = 4000  # a value in a fenced block
# Marks that act anywhere in a line; with `[` escaped no link or image can open, with `<` no HTML.
_MARKS = re.compile(r"([\\`*_\[\]<>|~])")
# Marks that act at the start of a line (a heading, a quote, a list, a rule).
_LINE_START = re.compile(r"^(?=[#>+\-=]|\d+[.)])")
_BACKTICKS = re.compile(r"`+")
_UNLINKABLE = re.compile(r"[<>()\s`]")


def inline(value: I18n | str, language: str, limit: int = MAX_LINE) -> str:
    """A text of a stranger on one line, with every Markdown mark escaped."""
    text = value.get(language) if isinstance(value, I18n) else value
    # Control, format (bidi overrides, zero-width) and separator characters become spaces.
    text = "".join(" " if unicodedata.category(ch)[0] in "CZ" else ch for ch in text)
    text = " ".join(text.split())
    if len(text) > limit:
        text = word_cut(text, limit) + "…"
    return _LINE_START.sub("\\\\", _MARKS.sub(r"\\\1", text))


def code(value: str) -> str:
    """A stranger's name as an inline code span that nothing inside can close."""
    text = " ".join("".join(" " if unicodedata.category(ch)[0] in "CZ" else ch for ch in value).split())
    text = text if len(text) <= MAX_LINE else text[:MAX_LINE] + "…"
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def fenced(text: str, info: str = "") -> str:
    """`text` in a fenced code block that nothing inside can close."""
    text = text if len(text) <= MAX_BLOCK else text[:MAX_BLOCK] + "\n…"
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{info}\n{text}\n{fence}"


def _link(label: str, target: str) -> str:
    return f"[{label}]({target})"


class LlmsText:
    """The Markdown of one language: `llms.txt` and every plugin's and tool's page."""

    def __init__(self, model: SiteModel, language: SiteLanguage, words: Mapping[str, str]) -> None:
        self.model = model
        self.language = language
        self.words = words
        self.english_only = model.english_only.get(language.code, frozenset())

    def files(self) -> Iterator[tuple[str, str]]:
        """(path under the language's root, Markdown) of every file: none for a page this language
        serves only in English (its links lead to the English Markdown)."""
        yield LLMS_TXT, self.index()
        for entry in self.model.plugins:
            if entry.src not in self.english_only:
                yield entry.src, self.plugin(entry)
            for tool in entry.tools:
                if tool.src not in self.english_only:
                    yield tool.src, self.tool(entry, tool)
            for section in entry.sections:
                for child in section.children:
                    if child.src not in self.english_only:
                        yield child.src, self.child(entry, child)

    def _text(self, value: I18n | str, limit: int = MAX_LINE) -> str:
        return inline(value, self.language.code, limit)

    def _w(self, key: str) -> str:
        """One of the site's own words in this language, as Markdown text."""
        return inline(self.words[key], self.language.code)

    def _label(self, label: I18n, name: str) -> str:
        return self._text(label) or inline(name, self.language.code)

    def index(self) -> str:
        """`llms.txt`: every plugin and tool, one line each, linked to its Markdown."""
        lines = [
            f"# {self._w('llms_title')}",
            "",
            f"> {self._w('llms_summary')}",
            "",
        ]
        others = [lang for lang in LANGUAGE_SITES if lang != self.language]
        lines.append(
            f"{self._w('llms_languages')} "
            + ", ".join(_link(lang.name, self._root(lang) + LLMS_TXT) for lang in others)
        )
        lines += ["", f"## {self._w('plugins')}", ""]
        for entry in self.model.plugins:
            plugin = entry.plugin
            label = self._label(plugin.label, plugin.name)
            lines.append(f"- {_link(label, self._target(entry.src))}: {self._text(plugin.description)}")
            for tool in entry.tools:
                tool_label = self._label(tool.tool.label, tool.tool.name)
                target = self._target(tool.src)
                lines.append(f"  - {_link(tool_label, target)}: {self._text(tool.tool.description)}")
            for child in (child for section in entry.sections for child in section.children):
                child_label = self._label(child.label, child.name)
                lines.append(
                    f"  - {_link(child_label, self._target(child.src))}: {self._text(child.description)}"
                )
        return "\n".join(lines) + "\n"

    def _root(self, other: SiteLanguage) -> str:
        """The way from this language's root to another's."""
        up = "../" if self.language.prefix else ""
        return up + other.folder

    def _target(self, src: str, here: str = "") -> str:
        """The link from the Markdown at `here` (`llms.txt` when "") to the Markdown of the page at
        `src`: this language's, or the English one where this language serves the page only in
        English."""
        up = "../" * here.count("/")
        return up + (self._root(DEFAULT_LANGUAGE) + src if src in self.english_only else src)

    def plugin(self, entry: PluginEntry) -> str:
        """A plugin's page as Markdown: what it is, and its tools."""
        plugin, words, lang = entry.plugin, self.words, self.language.code
        lines = [f"# {self._label(plugin.label, plugin.name)}", "", self._text(plugin.description, 2000), ""]
        facts = [
            (self._w("name"), code(plugin.name)),
            (self._w("version"), inline(plugin.version, lang)),
            (self._w("author"), inline(plugin.author, lang)),
            (self._w("tags"), ", ".join(inline(words.get(f"tag_{tag}", tag), lang) for tag in plugin.tags)),
        ]
        repo = safe_url(plugin.repo)
        if repo:
            # An autolink ends at `>` and must hold no space: those characters are percent-encoded.
            facts.append(
                (self._w("repository"), "<" + _UNLINKABLE.sub(lambda m: f"%{ord(m[0]):02X}", repo) + ">")
            )
        lines += [f"- {name}: {value}" for name, value in facts]
        lines += ["", f"## {self._w('tools')}", ""]
        for tool in entry.tools:
            label = self._label(tool.tool.label, tool.tool.name)
            target = self._target(tool.src, entry.src)
            lines.append(f"- {_link(label, target)}: {self._text(tool.tool.description)}")
        for section in entry.sections:
            lines += [
                "",
                f"## {self._w(f'kind_{section.kind}')}: {self._label(section.part.label, section.part.name)}",
                "",
            ]
            for child in section.children:
                label = self._label(child.label, child.name)
                lines.append(
                    f"- {_link(label, self._target(child.src, entry.src))}: {self._text(child.description)}"
                )
            for item in section.listed:
                declared = ", ".join(inline(fact, lang) for fact in item.facts)
                lines.append(f"- {code(item.name)} {self._label(item.label, item.name)}: {declared}")
        return "\n".join(lines) + "\n"

    def child(self, plugin: PluginEntry, entry: ChildEntry) -> str:
        """A page below a provider of another kind (an event) as Markdown: its parameters and output
        variables, and how it was checked."""
        words, lang = self.words, self.language.code
        lines = [
            f"# {self._label(entry.label, entry.name)}",
            "",
            f"- {self._w('plugin')}: "
            + _link(
                self._label(plugin.plugin.label, plugin.plugin.name), self._target(plugin.src, entry.src)
            ),
            f"- {self._w('name')}: {code(entry.key)}",
            f"- {self._w('description')}: {self._text(entry.description, 2000)}",
            "",
            f"## {self._w('parameters')}",
            "",
        ]
        if not entry.parameters:
            lines.append(self._w("no_parameters"))
        for p in entry.parameters:
            required = words["yes"] if p.required else words["no"]
            options = ", ".join(code(str(o.value)) for o in p.options)
            lines.append(
                f"- {code(p.name)} ({inline(p.type, lang)}, {self._w('required')}: {inline(required, lang)})"
                f"{': ' + options if options else ''} — "
                + self._text(p.human_description if p.human_description.en else p.label)
            )
        lines += ["", f"## {self._w('event_outputs')}", ""]
        lines += [self._output(row) for row in entry.outputs]
        if not entry.outputs:
            lines.append(self._w("no_event_output_schema"))
        lines += ["", f"## {self._w('examples')}", ""]
        if not entry.runs:
            lines.append(self._w("static_only"))
        for run in self.model.catalog.event_runs_of(plugin.loaded, entry.item.key):
            request = run.request
            body = clip(request.body, SHOWN_BODY_CHARS)[0]
            headers = "\n".join(f"{name}: {value}" for name, value in request.headers)
            lines += [self._run_title(run.example, run.result, run.detail), ""]
            lines += [f"{self._w('delivery')}: {code(f'{request.method} {request.target}')}", ""]
            lines += [fenced(f"{headers}\n\n{body}" if headers else body), ""]
            if run.variables:
                variables = fenced(pretty_json(dict(run.variables)), "json")
                lines += [f"{self._w('variables')}:", "", variables, ""]
        return "\n".join(lines) + "\n"

    def tool(self, plugin: PluginEntry, entry: ToolEntry) -> str:
        """A tool's page as Markdown: its parameters, output variables and example runs."""
        tool, words, lang = entry.tool, self.words, self.language.code
        lines = [
            f"# {self._label(tool.label, tool.name)}",
            "",
            f"- {self._w('plugin')}: "
            + _link(
                self._label(plugin.plugin.label, plugin.plugin.name),
                self._target(plugin.src, entry.src),
            ),
            f"- {self._w('name')}: {code(str(tool.key))}",
            f"- {self._w('for_people')}: {self._text(tool.description, 2000)}",
            f"- {self._w('for_model')}: {self._text(tool.llm_description, 2000)}",
            "",
            f"## {self._w('parameters')}",
            "",
        ]
        if not tool.parameters:
            lines.append(self._w("no_parameters"))
        for p in tool.parameters:
            required = words["yes"] if p.required else words["no"]
            options = ", ".join(code(str(o.value)) for o in p.options)
            lines.append(
                f"- {code(p.name)} ({inline(p.type, lang)}, {self._w('required')}: "
                f"{inline(required, lang)}, {self._w('form')}: {inline(p.form, lang)})"
                f"{': ' + options if options else ''} — {self._text(p.human_description or p.label)}"
                + (f" — {self._text(p.llm_description)}" if p.llm_description else "")
            )
        lines += ["", f"## {self._w('outputs')}", ""]
        lines += [self._output(row) for row in entry.outputs]
        if not entry.outputs:
            lines.append(self._w("no_output_schema"))
        lines += ["", f"## {self._w('examples')}", ""]
        if not entry.runs:
            lines.append(self._w("no_examples"))
        for run in self.model.catalog.runs_of(plugin.loaded, tool.key):
            outputs = dict(run.outputs)
            lines += [self._run_title(run.example, run.result, run.detail), ""]
            lines += [f"{self._w('inputs')}:", "", fenced(pretty_json(dict(run.inputs)), "json"), ""]
            if isinstance(outputs.get("text"), str) and outputs["text"]:
                lines += [f"{self._w('output_text')}:", "", fenced(outputs["text"]), ""]
            if outputs.get("json") is not None:
                lines += [f"{self._w('output_json')}:", "", fenced(pretty_json(outputs["json"]), "json"), ""]
        return "\n".join(lines) + "\n"

    def _run_title(self, example: str, result: RunResult, detail: str) -> str:
        """A run's heading: its example, and its result in the page's language with what names it."""
        lang = self.language.code
        verdict = self.words[f"result_{result.value}"] + (f": {detail}" if detail else "")
        return f"### {inline(example, lang)} ({inline(verdict, lang)})"

    def _output(self, row: OutputRow) -> str:
        lang = self.language.code
        required = self.words["yes"] if row.required else self.words["no"]
        return (
            f"- {code(row.path)} ({inline(row.type, lang)}, {self._w('required')}: "
            f"{inline(required, lang)}): {self._text(row.description)}"
        )
