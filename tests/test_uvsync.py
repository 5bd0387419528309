"""What the daemon's `uv sync --no-dev` installs from a pyproject.toml (`generator/run/uvsync.py`):
the project's dependencies and the default groups but `dev`, never another group or an extra; and
from a uv.lock, the project's closure with the extras asked for, on the daemon's platform."""

from __future__ import annotations

from generator.run.uvsync import left_out, locked_closure, synced_group_requirements

GROUPED = """[project]
name = "case"
version = "0.0.1"
dependencies = ["requests>=2"]

[dependency-groups]
dev = ["pytest"]
dify = [
    "dify_plugin>=0.9,<0.10",
]
"""


def test_a_package_only_in_a_group_is_left_out_at_its_line() -> None:
    """The SDK named only in the `dify` group is not installed: where it stands is said."""
    placed = left_out(GROUPED, "dify-plugin")
    assert placed is not None
    assert (placed.where, placed.line, placed.column) == ("[dependency-groups] dify", 9, 6)


def test_default_groups_other_than_dev_are_installed() -> None:
    """`tool.uv.default-groups` naming the group installs it; `dev` never is (`--no-dev`)."""
    text = GROUPED + '\n[tool.uv]\ndefault-groups = ["dev", "dify"]\n'
    assert left_out(text, "dify-plugin") is None
    assert [r.name for r in synced_group_requirements(text)] == ["dify_plugin"]
    assert left_out(GROUPED, "pytest") is not None
    every = GROUPED + '\n[tool.uv]\ndefault-groups = "all"\n'
    assert left_out(every, "dify-plugin") is None
    assert left_out(every, "pytest") is not None


def test_an_extra_and_the_project_dependencies() -> None:
    """An extra of the project is left out; a `[project]` dependency is never."""
    extra = '["requests>=2"]\n[project.optional-dependencies]\npdf = ["pypdf"]'
    text = GROUPED.replace('["requests>=2"]', extra)
    placed = left_out(text, "pypdf")
    assert placed is not None
    assert placed.where == "[project.optional-dependencies] pdf"
    assert left_out(text, "requests") is None


LOCK = """version = 1
[[package]]
name = "case"
version = "0.0.1"
source = { editable = "." }
dependencies = [{ name = "pandas", extra = ["html"] }]
[package.dev-dependencies]
dev = [{ name = "pytest" }]
dify = [{ name = "dify-plugin" }]

[[package]]
name = "pandas"
version = "3.0.1"
source = { registry = "https://pypi.org/simple" }
dependencies = [{ name = "numpy" }, { name = "tzdata", marker = "sys_platform == 'win32'" }]
[package.optional-dependencies]
html = [{ name = "beautifulsoup4" }]
xml = [{ name = "lxml" }]

[[package]]
name = "beautifulsoup4"
version = "4.12.3"
source = { registry = "https://pypi.org/simple" }
dependencies = [{ name = "soupsieve" }]
"""


def test_the_locked_closure_follows_extras_markers_and_groups() -> None:
    """The lock's closure: the asked extra's packages and theirs, no other extra, no package for
    another platform, no group the sync leaves out."""
    closure = locked_closure(LOCK, GROUPED)
    assert closure == frozenset({"pandas", "numpy", "beautifulsoup4", "soupsieve"})
    assert locked_closure("not toml [", GROUPED) is None
    assert locked_closure(LOCK.replace('editable = "."', 'registry = "x"'), GROUPED) is None
