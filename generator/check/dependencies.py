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
from generator.check.precheck_lines import blocked_option, precheck_text, sdk_floor_read
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
with a lower bound of at least 0.9.0. The pre-check reads that bound only after `>=` or `==`
(`dify_plugin_lower_bound` in `toolkit/checks/dependencies.py` of
`langgenius/dify-marketplace-toolkit`): `dify_plugin~=0.9.0`, `dify_plugin>0.9` and Poetry's
`dify_plugin = "^0.9.0"`, which pip reads as 0.9.0 or later, are blocked all the same; the finding
then says so and names the spelling it reads.
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
The marketplace's pre-check blocks a `--no-index` line of a requirements file. Dify installs a
plugin's requirements in the plugin's folder from the package index: `--no-index` turns the index
off, so every dependency must then come from a `--find-links` folder of the package. The install
that works on the author's machine is refused at the gate. (`--find-links DIR`, written with a
space, passes the pre-check: rule U032 says when its folder is missing.)
""",
)
FIND_LINKS_MISSING = rule(
    "U032",
    "find-links-folder-missing",
    Severity.WARNING,
    "--find-links {value} names a folder the package does not hold",
    "Ship the folder in the plugin (and not in .difyignore), or remove the line.",
    """
pip and uv read `--find-links DIR` beside the requirements file; a folder that is not there is
skipped with a warning ("is neither a file nor a directory"), and the packages it was meant to hold
come from the index, or not at all. The pre-check lets the line through (it ignores
`--find-links ` lines), so nothing refuses the plugin, but the wheels the author meant to ship are
not in it.
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
marketplace's pre-check, which then blocks the package. It reads one physical line at a time, and
an option only in a few spellings, each followed by a space (`-r`, `-c`, `-e`, `--index-url`,
`--extra-index-url`, `--find-links`, `--trusted-host`, `--no-binary`, `--only-binary`,
`--use-feature`, and `--use-pep517`); every other line without a version operator is taken for a
dependency without a version constraint. So these are blocked: `-i URL` and `-f DIR` (short forms),
`--index-url=URL`, `--extra-index-url=URL`, `--trusted-host=HOST`, `--find-links=DIR`,
`--only-binary=:all:`, `--requirement=FILE` (spelt with `=`), `-rFILE`, flags such as `--pre`,
`--prefer-binary` and `--require-hashes`, the `--hash=sha256:...` lines that continue a requirement
(the layout `uv export` and `pip-compile --generate-hashes` write), and a local wheel named without
`./` (`wheels/pkg.whl`). The gate's reason is wrong, but the line still fails it: the finding names
the spelling the pre-check understands (`--index-url URL`, `./wheels/pkg.whl`, hashes on the
requirement's own line). Read from `toolkit/checks/dependencies.py` of
`langgenius/dify-marketplace-toolkit`.
""",
)
PACKAGE_INDEX = rule(
    "U023",
    "package-index",
    Severity.INFO,
    "dependencies are installed from {url}, not only from PyPI",
    "Make sure Dify's machines can reach this index without credentials; reviewers will ask.",
    """
An `--index-url`, `--extra-index-url` or `--find-links URL` other than PyPI names where some
dependencies come from.
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
    blocked: set[tuple[str, int]] = set()
    for name, text in found.texts:
        for finding in _precheck_lines(loaded, name, text):
            blocked.add((name, finding.line))
            yield finding
    for option in found.options:
        yield from _pip_option(loaded, option, packaged, (option.place.file, option.place.line) in blocked)
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
    if name == SDK and not item.constraint:
        if not _allows_only_new(requirement):
            yield SDK_TOO_OLD.at(where, problem=f"is required as {item.text!r}, below 0.9.0")
        elif not sdk_floor_read(item.precheck or item.text):
            problem = (
                f"is required as {(item.precheck or item.text)!r}, which the marketplace's pre-check "
                "does not read as 0.9.0 or later"
            )
            hint = "Write `dify_plugin>=0.9.0,<0.10`: the pre-check reads the floor only after `>=` or `==`."
            yield SDK_TOO_OLD.at(where, hint=hint, problem=problem)


def _lower_bound_only(requirement: Requirement) -> bool:
    operators = {spec.operator for spec in requirement.specifier}
    return bool(operators) and operators <= {">=", ">", "!="}


def _precheck_lines(loaded: LoadedPlugin, name: str, text: str) -> Iterator[Finding]:
    """Option lines and continued lines of one requirements file that the pre-check blocks although
    pip reads them (requirement lines are judged whole by `_judge`)."""
    continued = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = precheck_text(raw)
        if line.startswith("-") or continued:
            found = blocked_option(line)
            if found is not None:
                where = _at(loaded, Place(name, number, len(raw) - len(raw.lstrip()) + 1))
                shown = redacted(line) if len(line) <= 60 else redacted(line)[:57] + "..."
                yield GATE_MISREADS.at(where, text=shown, reading=found.reading, fix=found.fix)
        continued = raw.rstrip().endswith("\\") and not raw.lstrip().startswith("#")


def _pip_option(
    loaded: LoadedPlugin, option: Option, packaged: frozenset[str], blocked: bool
) -> Iterator[Finding]:
    """What an option line does to Dify's install; `blocked` when the pre-check blocks its spelling
    (U031 said so: a second finding on where its folder is would name the same line twice)."""
    where = _at(loaded, option.place)
    if option.option == "--no-index":
        problem = (
            "turns the package index off (dependencies can come only from --find-links folders), and "
            "the marketplace's pre-check blocks the line"
        )
        fix = "Remove --no-index and depend on releases published on PyPI."
        yield PIP_OPTION.at(where, option=option.option, problem=problem, fix=fix)
    elif option.option in FIND_LINKS and option.value and not blocked:
        folder = posixpath.normpath(posixpath.join(posixpath.dirname(option.place.file), option.value))
        if _REMOTE.match(option.value):
            yield PACKAGE_INDEX.at(where, url=redacted(option.value))
        elif not any(path.startswith(folder.rstrip("/") + "/") for path in packaged):
            yield FIND_LINKS_MISSING.at(where, value=option.value)
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
