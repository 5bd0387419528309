"""Submission checks on the plugin's Python dependencies: version constraints, where packages come
from, and pip options that break Dify's install (the files are read by generator.check.requirements)."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Iterator

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from generator.check import CheckContext
from generator.check.common import submission_only
from generator.check.requirements import (
    EDITABLE,
    FIND_LINKS,
    INDEXES,
    Declared,
    Option,
    Place,
    read_dependencies,
)
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.load.reqlines import redacted
from generator.rules import rule

SDK = "dify-plugin"
SDK_MINIMUM = Version("0.9.0")
_LOWER_BOUNDS = (">=", ">", "==", "~=", "===")
_REMOTE = re.compile(r"^([a-z][a-z0-9+.-]*://|(git|hg|svn|bzr)\+)", re.IGNORECASE)
_ARCHIVES = (".whl", ".tar.gz", ".tgz", ".zip")
PYPI_INDEXES = ("https://pypi.org/simple", "https://pypi.python.org/simple")
# Frameworks of hundreds of megabytes (the pre-check's LARGE_DEPENDENCIES): their next major release
# is a different program, and installing it unreviewed costs minutes of every plugin start.
LARGE_FRAMEWORKS = frozenset(
    {
        "chromadb",
        "faiss-cpu",
        "faiss-gpu",
        "jax",
        "llama-cpp-python",
        "opencv-contrib-python",
        "opencv-python",
        "opencv-python-headless",
        "paddlepaddle",
        "playwright",
        "pyppeteer",
        "selenium",
        "spacy",
        "tensorflow",
        "tensorflow-cpu",
        "torch",
        "torchaudio",
        "torchvision",
        "transformers",
    }
)

UNPINNED = rule(
    "U010",
    "requirement-unpinned",
    Severity.ERROR,
    "dependency {name} has no version constraint",
    "Add a constraint such as `{name}>=1.2,<2` so installs stay reproducible.",
    """
The marketplace requires a version constraint on every dependency, so that a plugin installed next
year gets the libraries it was tested with. Every place the pre-check reads counts:
`requirements.txt` and the files it includes with `-r`, and in `pyproject.toml` the project's
dependencies, optional dependencies, dependency groups and Poetry's dependency tables. A Poetry
version without an operator (`requests = "2.32.3"`, exact in Poetry) is read by the pre-check as no
constraint: write `==2.32.3`. Entries of a constraints file (`-c`) install nothing and need none.
""",
)
DIRECT_URL = rule(
    "U011",
    "requirement-from-url",
    Severity.ERROR,
    "dependency {text} is installed from a URL or a VCS",
    "Depend on a release published on PyPI instead.",
    """
Dify installs plugin dependencies from the package index. Dependencies from git or a URL are
refused by the marketplace: they can change or vanish after review. (A local path or an editable
install is rule U020, a warning.)
""",
)
SDK_TOO_OLD = rule(
    "U012",
    "sdk-too-old",
    Severity.ERROR,
    "dify_plugin {problem}",
    "Require `dify_plugin>=0.9.0` (in requirements.txt or pyproject.toml).",
    """
The marketplace accepts plugins built on `dify_plugin` 0.9.0 or newer: the dependency must be listed
with a lower bound of at least 0.9.0.
""",
)


INCLUDE_MISSING = rule(
    "U019",
    "requirement-include-missing",
    Severity.ERROR,
    "{option} {value} names a file the package does not hold",
    "Ship the file in the plugin (and not in .difyignore), or list its requirements here.",
    """
pip and uv read an included requirements file (`-r more.txt`, `-c constraints.txt`) beside the file
that names it. When the package does not hold it (a typo, a file outside the plugin, a file that
`.difyignore` leaves out) the install stops with "Could not open requirements file", and Dify cannot
install the plugin. The pre-check reports it too.
""",
)
EDITABLE_OR_LOCAL = rule(
    "U020",
    "requirement-editable-or-local",
    Severity.WARNING,
    "dependency {text} is {what}",
    "Depend on a release published on PyPI; if the code is the plugin's own, import it as a module of "
    "the plugin instead of installing it.",
    """
The marketplace's pre-check sends editable installs (`-e ./lib`) and dependencies from a local path
(`./wheels/pkg.whl`, `pkg @ ./lib`) to a reviewer, who must approve them: monorepos use them
legitimately, but what is installed is then not a reviewed release. Dify installs them when the path
is inside the package.
""",
)
LOWER_BOUND_ONLY = rule(
    "U021",
    "large-framework-lower-bound",
    Severity.WARNING,
    "{name} is only bounded below ({text}); its next major release would be installed untested",
    "Add an upper bound, such as `{name}>=2.3,<3`.",
    """
Large frameworks (torch, tensorflow, transformers, opencv, playwright, spacy and the others of the
pre-check's list of large dependencies) take minutes to install and change behaviour between major
releases. With a lower bound only, a plugin installed next year gets a release it was never tested
with. The pre-check sends every large dependency to a reviewer.
""",
)
PIP_OPTION = rule(
    "U022",
    "pip-option-breaks-install",
    Severity.ERROR,
    "{option} {problem}",
    "{fix}",
    """
The marketplace's pre-check blocks every `--no-index` and `--find-links` (`-f`) line of a
requirements file. Dify installs a plugin's requirements in the plugin's folder from the package
index: `--no-index` turns the index off, so every dependency must then come from a `--find-links`
folder of the package, and `--find-links DIR` with a folder the package does not hold finds nothing.
Either way the install that works on the author's machine is refused at the gate (and, for a missing
folder, fails on Dify too).
""",
)
GATE_MISREADS = rule(
    "U031",
    "pre-check-misreads-line",
    Severity.ERROR,
    "{text} is blocked by the marketplace's pre-check, which takes it for {reading}",
    "{fix}",
    """
Some requirement lines that pip, uv and Dify read correctly are read differently by the
marketplace's pre-check, which then blocks the package: `-i URL`, the short form of `--index-url`,
and a local wheel named without `./` (`wheels/pkg.whl`) are taken for dependencies without a version
constraint. The gate's reason is wrong, but the line still fails it: the finding names the spelling
the pre-check understands (`--index-url URL`, `./wheels/pkg.whl`).
""",
)
PACKAGE_INDEX = rule(
    "U023",
    "package-index",
    Severity.INFO,
    "dependencies are installed from {url}, not only from PyPI",
    "Make sure Dify's machines can reach this index without credentials; reviewers will ask.",
    """
An `--index-url` or `--extra-index-url` other than PyPI names where some dependencies come from.
Dify's install must reach it from its own network, and packages there are not reviewed releases of
PyPI. The finding names the index (without any password in its URL).
""",
)


@submission_only
def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """Dependency findings, only with `--submission`."""
    tree = loaded.reader.tree
    packaged = frozenset(file.relative for file in tree.files)
    found = read_dependencies(loaded, packaged)
    sdk_seen = False
    for item in found.declared:
        yield from _judge(loaded, item)
        sdk_seen = sdk_seen or (_name(item.text) == SDK and not item.constraint)
    for option in found.missing:
        yield INCLUDE_MISSING.at(_at(loaded, option.place), option=option.option, value=option.value)
    for option in found.options:
        yield from _pip_option(loaded, option, packaged)
    if not sdk_seen:
        yield SDK_TOO_OLD.at(
            Location(loaded.display_path("requirements.txt"), 1, 1),
            problem="is not listed as a dependency",
        )


def _judge(loaded: LoadedPlugin, item: Declared) -> Iterator[Finding]:
    where = _at(loaded, item.place)
    editable = item.text.startswith(EDITABLE)
    target = item.text.split(None, 1)[1] if editable and " " in item.text else item.text
    target = target.split("=", 1)[1] if editable and target.startswith("--editable=") else target
    reference = target.split(" @ ", 1)[1].strip() if " @ " in target else target
    if _REMOTE.match(reference):
        yield DIRECT_URL.at(where, text=item.text)
        return
    if not editable and reference == item.text and _bare_archive(reference):
        reading = "a dependency without a version constraint (a path not starting with ./)"
        fix = f"Write `./{reference}`: the pre-check reads a path starting with ./ as a local file."
        yield GATE_MISREADS.at(where, text=item.text, reading=reading, fix=fix)
        return
    if editable or reference.startswith((".", "/", "~")) or reference.endswith(_ARCHIVES):
        what = "an editable install" if editable else "installed from a local path"
        yield EDITABLE_OR_LOCAL.at(where, text=item.text, what=what)
        return
    try:
        requirement = Requirement(item.text)
    except InvalidRequirement:
        return  # not a dependency line we understand; pip reports it at install time
    name = canonicalize_name(requirement.name)
    if requirement.url:
        yield DIRECT_URL.at(where, text=item.text)
    elif not requirement.specifier and not item.constraint:
        yield UNPINNED.at(where, name=requirement.name)
    elif item.poetry_exact:
        hint = f"Write the version with an operator, `=={str(requirement.specifier)[2:]}`: the pre-check " + (
            "reads a bare Poetry version as no constraint."
        )
        yield UNPINNED.at(where, hint=hint, name=requirement.name)
    elif name in LARGE_FRAMEWORKS and _lower_bound_only(requirement):
        yield LOWER_BOUND_ONLY.at(where, name=requirement.name, text=item.text)
    if name == SDK and not item.constraint and not _allows_only_new(requirement):
        yield SDK_TOO_OLD.at(where, problem=f"is required as {item.text!r}, below 0.9.0")


def _lower_bound_only(requirement: Requirement) -> bool:
    operators = {spec.operator for spec in requirement.specifier}
    return bool(operators) and operators <= {">=", ">", "!="}


def _pip_option(loaded: LoadedPlugin, option: Option, packaged: frozenset[str]) -> Iterator[Finding]:
    where = _at(loaded, option.place)
    if option.option == "--no-index":
        problem = (
            "turns the package index off (dependencies can come only from --find-links folders), and "
            "the marketplace's pre-check blocks the line"
        )
        fix = "Remove --no-index and depend on releases published on PyPI."
        yield PIP_OPTION.at(where, option=option.option, problem=problem, fix=fix)
    elif option.option in FIND_LINKS:
        shown = f"{option.option} {option.value}".strip()
        folder = posixpath.normpath(posixpath.join(posixpath.dirname(option.place.file), option.value))
        local = bool(option.value) and not _REMOTE.match(option.value)
        if local and not any(path.startswith(folder.rstrip("/") + "/") for path in packaged):
            problem = (
                "names a folder the package does not hold, and the marketplace's pre-check blocks the line"
            )
        else:
            problem = "is blocked by the marketplace's pre-check, which accepts no --find-links line"
        fix = "Remove the line and depend on releases published on PyPI."
        yield PIP_OPTION.at(where, option=shown, problem=problem, fix=fix)
    elif option.option == "-i" and option.value:
        reading = "a dependency without a version constraint (it does not know the short form of --index-url)"
        fix = f"Write `--index-url {redacted(option.value)}`, which the pre-check reads as an index."
        text = f"-i {redacted(option.value)}"
        yield GATE_MISREADS.at(where, text=text, reading=reading, fix=fix)
        yield from _index(where, option.value)
    elif option.option in INDEXES and option.value:
        yield from _index(where, option.value)


def _index(where: Location, value: str) -> Iterator[Finding]:
    url = redacted(value)
    if url.rstrip("/") not in PYPI_INDEXES:
        yield PACKAGE_INDEX.at(where, url=url)


def _bare_archive(reference: str) -> bool:
    """A wheel or archive named by a relative path without `./` (`wheels/pkg.whl`)."""
    return (
        reference.endswith(_ARCHIVES) and not reference.startswith((".", "/", "~")) and " " not in reference
    )


def _name(text: str) -> str:
    try:
        return canonicalize_name(Requirement(text).name)
    except InvalidRequirement:
        return ""


def _at(loaded: LoadedPlugin, place: Place) -> Location:
    return Location(loaded.display_path(place.file), place.line, place.column)


def _allows_only_new(requirement: Requirement) -> bool:
    for spec in requirement.specifier:
        try:
            bound = Version(spec.version.removesuffix(".*"))
        except InvalidVersion:
            continue
        if spec.operator in _LOWER_BOUNDS and bound >= SDK_MINIMUM:
            return True
    return False
