"""Python files the code checks could not read: said, never skipped in silence.

The code checks (messages thrown away, undeclared parameters, safety, secrets, access domains) read
syntax trees. A file is parsed with the grammar of Dify's Python (generator.load.syntax), so newer
syntax is read; a file that still has no tree is named here, with the reason."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from generator.check import CheckContext
from generator.check.common import documents
from generator.check.plugin_code import imported_names
from generator.findings import Finding, Location, Severity
from generator.interpreters import DAEMON_PYTHON
from generator.load.crawl import LoadedPlugin
from generator.load.modules import module_of
from generator.load.values import dig
from generator.rules import Phrase, rule

NOT_CHECKED = rule(
    "T009",
    "code-not-checked",
    Severity.WARNING,
    "the code checks skipped {path}: it does not parse with Python {grammar} ({problem})",
    "{fix}",
    """
The code checks read each Python file's syntax tree. The registry parses a file with the grammar of
the Python Dify runs plugins with (3.12, the daemon's), asking an interpreter of that version on this
machine when the validator's own Python is older, so PEP 701 f-strings and `type` statements are
read. A file that does not parse even so, or that the validator could only try with an older Python
(none of Dify's version is installed), is named here: nothing of it was checked. A syntax error
under Dify's Python also stops the tool that imports the file from loading.
""",
)


NOT_COMPILED = rule(
    "T021",
    "loaded-file-does-not-compile",
    Severity.ERROR,
    "{path} does not compile with Python {grammar} ({problem}), and {reached!s}: the plugin does not start",
    "Fix the syntax error on line {line}; `python{grammar} -m py_compile {path}` shows the same error.",
    """
The daemon starts a Python plugin with `python -m <meta.runner.entrypoint>`, and the SDK's
`Plugin` loads, while it starts, the class file of every tool provider and of each of its tools
(`_resolve_tool_providers` in `dify_plugin/core/plugin_registration.py`, through
`load_single_subclass_from_source`, which runs the module: `spec.loader.exec_module(module)`). A
module that does not compile raises SyntaxError when it is run or imported, so a syntax error in the
entry module, in a class file the YAML names, or in a module one of them imports at its top level
stops the plugin for every user. The file is parsed with the grammar of Dify's Python (3.12, the
daemon's); a file that only an older Python refused, or that nothing the plugin loads imports at
its top level, is rule T009, a warning. When the manifest or a tool provider cannot be read, which
files the plugin loads is not known, and every file that does not compile is T009 too.
""",
)


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """Each packaged or class Python file that has no syntax tree, once: T021 when the plugin
    loads it while it starts, T009 otherwise."""
    reader = loaded.reader
    named: list[str] = []
    for file in reader.tree.files:
        if file.relative.endswith(".py") and reader.python_tree(file) is None:
            named.append(file.relative)
    sources = class_sources(loaded)
    for module in sources.values():
        if reader.source_tree(module) is None:
            named.append(module)
    known = loaded.plugin is not None and not loaded.hidden
    reached = _reached(loaded, sources) if known else {}
    yield from _findings(loaded, dict.fromkeys(named), reached, known)


def start_failures(loaded: LoadedPlugin) -> frozenset[str]:
    """The files T021 reports (the plugin runs them while it starts and they do not compile): the
    submission's compile check (U013) leaves them to it, one cause, one finding."""
    found = check(loaded, CheckContext())
    return frozenset(finding.file for finding in found if finding.rule == NOT_COMPILED.code)


def class_sources(loaded: LoadedPlugin) -> dict[str, str]:
    """The files the SDK runs while the plugin starts, each with why: the entry module, and the
    class files of the declarations read (its tool providers and their tools)."""
    found: dict[str, str] = {}
    manifest = loaded.documents.get("manifest.yaml")
    entry = dig(manifest.data if manifest is not None else None, "meta", "runner", "entrypoint")
    entry = entry if isinstance(entry, str) and entry else "main"
    for candidate in (entry.replace(".", "/") + ".py", entry.replace(".", "/") + "/__init__.py"):
        if loaded.reader.is_file(candidate):
            found.setdefault(candidate, f"it is the entry point `{entry}` the daemon runs")
            break
    for role, what in (("tools provider", "tool provider"), ("tool", "tool")):
        for relative, document in documents(loaded, role):
            source = dig(document.data, "extra", "python", "source")
            module = module_of(loaded.reader, source) if isinstance(source, str) and source else None
            if module is not None and module.loaded:
                found.setdefault(module.loaded, f"it is the class file of the {what} of {relative}")
    return found


def _reached(loaded: LoadedPlugin, sources: dict[str, str]) -> dict[str, str]:
    """The files the plugin runs while it starts, each with why: `sources`, and the plugin's own
    modules they import at their top level, at any depth (an import inside a function runs only
    when it is called)."""
    reader = loaded.reader
    reached = dict(sources)
    pending = list(sources)
    while pending:
        importer = pending.pop()
        tree = reader.source_tree(importer)
        for node in tree.body if tree is not None else ():
            for name in imported_names(importer, node):
                parts = name.split(".")
                for n in range(1, len(parts) + 1):
                    base = "/".join(parts[:n])
                    for candidate in (f"{base}.py", f"{base}/__init__.py"):
                        if candidate not in reached and reader.is_file(candidate):
                            reached[candidate] = f"{importer} imports it"
                            pending.append(candidate)
    return reached


def _findings(
    loaded: LoadedPlugin, named: Iterable[str], reached: dict[str, str], known: bool
) -> Iterator[Finding]:
    for relative in named:
        parsed = loaded.reader.unparsed(relative)
        if parsed is None:
            continue  # not Python text (binary, too large, missing): other rules say so
        older = _version(parsed.grammar) < _version(DAEMON_PYTHON)
        where = Location(loaded.display_path(relative), parsed.line, 1)
        if relative in reached and not older:
            yield NOT_COMPILED.at(
                where,
                path=relative,
                grammar=parsed.grammar,
                problem=parsed.problem,
                reached=Phrase(reached[relative]),
                line=parsed.line,
            )
            continue
        if older:
            fix = (
                f"Install Python {DAEMON_PYTHON} (Dify's) where you validate:"
                " the file may use its newer syntax."
            )
        elif known:
            fix = (
                "Fix the syntax error, or delete the file: no module the plugin runs when it starts imports"
                " it, but any import of it fails."
            )
        else:
            fix = (
                "Fix the syntax error: the manifest or a tool provider cannot be read, so whether the"
                " plugin loads this file is not known; if it does, the plugin does not start."
            )
        problem = parsed.problem
        yield NOT_CHECKED.at(where, path=relative, grammar=parsed.grammar, problem=problem, fix=Phrase(fix))


def _version(name: str) -> tuple[int, ...]:
    return tuple(int(part) for part in name.split(".") if part.isdigit())
