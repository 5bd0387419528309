"""Library features that need a package the library does not install itself (R147): pandas's
`to_markdown` needs `tabulate`, `read_excel` needs `openpyxl` (and `xlrd` for .xls files), a
`BeautifulSoup(html, "lxml")` needs `lxml`. The import of the library works; the call fails, for
every user who reaches it, because the plugin's dependency list does not bring the extra package.

Read like R073: against what the plugin installs (the listed packages and those they depend on, as
the registry's index knows them), and again against the environment a run built.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from packaging.utils import canonicalize_name

from generator.check import CheckContext
from generator.check.common import every_node
from generator.check.import_index import SDK, closure, import_names, installed_imports
from generator.check.missing_imports import installed_packages, provider_phrase
from generator.check.plugin_code import imported_names, plugin_code, reachable_modules
from generator.check.sdk_index import declared_requirements
from generator.check.undeclared import constant
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.rules import Listing, Phrase, rule
from generator.run.dependencies import installed_from

FEATURE_NEEDS_PACKAGE = rule(
    "R147",
    "library-feature-needs-package",
    Severity.WARNING,
    "{call} needs the `{module}` package{when!s}, but {provider!s}: every call that reaches it fails"
    " with {error}",
    "Add `{package}` to {file}.",
    """
Some features of a library import a package the library does not depend on, at the moment they
are used, and fail with ImportError when it is missing. Tried with the libraries themselves (pandas
3.1, beautifulsoup4 4.13, httpx 0.28, each installed alone):

- pandas `DataFrame.to_markdown`: "ImportError: `Import tabulate` failed ... install the tabulate
  package";
- pandas `read_excel` and `ExcelFile` read .xlsx files with `openpyxl` and .xls files with `xlrd`
  (pandas' default engines, `pandas.io.excel._base`); `to_excel` and `ExcelWriter` write with
  `openpyxl` or `xlsxwriter`: "ModuleNotFoundError: No module named 'openpyxl'";
- pandas `to_parquet`/`read_parquet`: "Unable to find a usable engine; tried using: 'pyarrow',
  'fastparquet'";
- pandas `read_html`: "`Import lxml` failed" (its default flavour); `read_xml`/`to_xml`: "lxml not
  found, please install or use the etree parser"; `to_latex`: "DataFrame.style requires jinja2";
- `BeautifulSoup(markup, "lxml")` (also "xml", "lxml-xml"): "FeatureNotFound: Couldn't find a tree
  builder with the features you requested: lxml"; "html5lib" likewise;
- `httpx.Client(http2=True)`: "Using http2=True, but the 'h2' package is not installed".

Dify's daemon installs the plugin's `pyproject.toml` (else `requirements.txt`) and what those
packages depend on, nothing else (R073). The check finds such calls in the modules the SDK loads (a
pandas function only where the module imports pandas, a DataFrame method where the plugin installs
pandas), with the engine or parser the call names
(`engine="xlsxwriter"`, `parser="etree"`, `flavor="bs4"`), and reports each missing package once,
at its first call. An .xls file needs `xlrd` only when the code names the `.xls` extension. Without
a run it speaks only when the registry's index knows what every listed package brings; a run's
environment settles it either way. A warning: the call
may sit on a path only some inputs take.
""",
)


@dataclass(frozen=True)
class Need:
    """A call that needs one of `modules` (import names), offered as `package`."""

    node: ast.Call
    call: str  # the call as shown
    modules: tuple[str, ...]
    package: str
    error: str
    when: str = ""  # for which input, when not for every one


# pandas methods and functions, with the packages they import (any of), the first one named.
PANDAS = {
    "to_markdown": (("tabulate",), "ImportError"),
    "read_excel": (("openpyxl",), "ImportError"),
    "ExcelFile": (("openpyxl",), "ImportError"),
    "to_excel": (("openpyxl", "xlsxwriter"), "ModuleNotFoundError"),
    "ExcelWriter": (("openpyxl", "xlsxwriter"), "ModuleNotFoundError"),
    "to_parquet": (("pyarrow", "fastparquet"), "ImportError"),
    "read_parquet": (("pyarrow", "fastparquet"), "ImportError"),
    "read_html": (("lxml",), "ImportError"),
    "read_xml": (("lxml",), "ImportError"),
    "to_xml": (("lxml",), "ImportError"),
    "to_latex": (("jinja2",), "ImportError"),
}
# An engine or parser named in the call: what it needs instead (None: nothing beyond pandas).
ENGINES: dict[str, tuple[str, ...] | None] = {
    "openpyxl": ("openpyxl",),
    "xlrd": ("xlrd",),
    "xlsxwriter": ("xlsxwriter",),
    "odf": ("odf",),
    "pyxlsb": ("pyxlsb",),
    "calamine": ("python_calamine",),
    "pyarrow": ("pyarrow",),
    "fastparquet": ("fastparquet",),
    "lxml": ("lxml",),
    "etree": None,
    "bs4": ("html5lib",),
    "html5lib": ("html5lib",),
}
ENGINE_KEYWORDS = frozenset({"engine", "parser", "flavor"})
# BeautifulSoup's parsers that are separate packages ("html.parser" is the standard library's).
SOUP_PARSERS = {"lxml": "lxml", "lxml-xml": "lxml", "xml": "lxml", "html5lib": "html5lib"}
# Distribution names where they differ from the import name.
PACKAGES = {"jinja2": "Jinja2", "odf": "odfpy", "python_calamine": "python-calamine"}


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """Calls of library features whose package nothing the plugin installs brings."""
    return features_without_package(loaded)


def rechecked(loaded: LoadedPlugin, findings: Iterable[Finding], python: Path) -> list[Finding]:
    """`findings` with this check's made again against the environment a run built."""
    present = installed_imports(python)
    if not present:
        return list(findings)
    again = list(features_without_package(loaded, present))
    return [*(f for f in findings if f.rule != FEATURE_NEEDS_PACKAGE.code), *again]


def features_without_package(
    loaded: LoadedPlugin, present: frozenset[str] = frozenset()
) -> Iterator[Finding]:
    """The check's findings; `present`, the modules a built environment installs, when there is one."""
    declared = declared_requirements(loaded.reader) if loaded.plugin is not None else None
    if declared is None:
        return
    requirements, complete = declared
    installed = installed_packages(loaded.reader, requirements)
    distributions = installed.distributions | closure([SDK])[0]
    provided = {module for distribution in distributions for module in import_names(distribution)} | present
    if installed.unknown and not present:
        return  # a listed package the registry does not know may bring it: only a run can tell
    code = plugin_code(loaded)
    file = installed_from(loaded.reader)
    names = [str(canonicalize_name(requirement.name)) for requirement in requirements]
    listed = Listing(names, most=8) if names else Phrase("nothing")
    told: set[str] = set()
    for module in reachable_modules(loaded, code):
        relative, tree = code.modules[module]
        found = needs(tree, "pandas" in provided)
        for need in sorted(found, key=lambda need: (need.node.lineno, need.node.col_offset)):
            if any(name in provided for name in need.modules) or need.package in told:
                continue
            told.add(need.package)
            yield FEATURE_NEEDS_PACKAGE.at(
                Location(loaded.display_path(relative), need.node.lineno, need.node.col_offset + 1),
                call=need.call,
                module=need.modules[0],
                when=Phrase(need.when),
                provider=Phrase(provider_phrase(file, listed, frozenset(), complete or bool(present))),
                error=need.error,
                package=need.package,
                file=file,
            )


def needs(tree: ast.Module, pandas: bool) -> Iterator[Need]:
    """Each call in the module of a feature that needs a package of its own (`pandas`: the plugin
    installs pandas, so a DataFrame may reach a module that does not import it)."""
    imported = _imported_tops(tree)
    xls = "pandas" in imported and _names_xls(tree)
    for node in every_node(tree):
        if not isinstance(node, ast.Call):
            continue
        name = _called_name(node.func)
        if name in PANDAS and _pandas_call(name, imported, pandas):
            yield from _pandas_needs(node, name, xls)
        elif "bs4" in imported and name == "BeautifulSoup":
            parser = _soup_parser(node)
            if parser in SOUP_PARSERS:
                module = SOUP_PARSERS[parser]
                yield Need(node, f'BeautifulSoup(..., "{parser}")', (module,), module, "FeatureNotFound")
        elif "httpx" in imported and name in ("Client", "AsyncClient") and _keyword_true(node, "http2"):
            yield Need(node, f"httpx.{name}(http2=True)", ("h2",), "httpx[http2]", "ImportError")


def _pandas_needs(node: ast.Call, name: str, xls: bool) -> Iterator[Need]:
    modules, error = PANDAS[name]
    engine = next(
        (constant(kw.value) for kw in node.keywords if kw.arg in ENGINE_KEYWORDS and constant(kw.value)), None
    )
    shown = f"{name}(...)"
    if isinstance(engine, str):
        if engine not in ENGINES:
            return  # an engine the table does not know: no guess
        chosen = ENGINES[engine]
        if chosen is not None:
            yield Need(node, shown, chosen, _package(chosen[0]), error)
        return
    yield Need(node, shown, modules, _package(modules[0]), error)
    if xls and name in ("read_excel", "ExcelFile"):
        yield Need(node, shown, ("xlrd",), "xlrd", "ImportError", " for .xls files, which the code names")


def _pandas_call(name: str, imported: set[str], pandas: bool) -> bool:
    """True when a call of `name` is pandas's: a function where the module imports pandas; a
    DataFrame method wherever pandas is installed, but in a module that uses polars (whose
    DataFrame has other methods of these names)."""
    if name.startswith("to_"):
        return (pandas or "pandas" in imported) and "polars" not in imported
    return "pandas" in imported


def _package(module: str) -> str:
    return PACKAGES.get(module, module)


def _imported_tops(tree: ast.Module) -> set[str]:
    """The top-level modules the module imports, anywhere in it."""
    return {name.split(".")[0] for node in every_node(tree) for name in imported_names("", node)}


def _names_xls(tree: ast.Module) -> bool:
    """True when a string in the module names the .xls extension (`".xls"`, `"xls"`, `"a.xls"`)."""
    return any(
        isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and (node.value.casefold() == "xls" or node.value.casefold().endswith(".xls"))
        for node in every_node(tree)
    )


def _called_name(func: ast.expr) -> str:
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def _soup_parser(node: ast.Call) -> str | None:
    """The parser a `BeautifulSoup(...)` call names: its second argument or `features=`."""
    given = node.args[1] if len(node.args) > 1 else None
    given = next((keyword.value for keyword in node.keywords if keyword.arg == "features"), given)
    return constant(given) if given is not None else None


def _keyword_true(node: ast.Call, name: str) -> bool:
    return any(
        keyword.arg == name and isinstance(keyword.value, ast.Constant) and keyword.value.value is True
        for keyword in node.keywords
    )
