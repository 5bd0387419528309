"""A Python plugin with neither `pyproject.toml` nor `requirements.txt` (R106): Dify cannot build
its environment, so it cannot install it, whatever the manifest says.

Told even when the manifest cannot be read: the dependency file is read from the plugin's top
folder, not through the manifest, so an author who fixes the manifest should not meet this next.
"""

from __future__ import annotations

from collections.abc import Iterable

from generator.check import CheckContext
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.load.values import dig
from generator.rules import rule
from generator.run.dependencies import installed_from

NO_DEPENDENCY_FILE = rule(
    "R106",
    "no-dependency-file",
    Severity.ERROR,
    "the plugin has neither pyproject.toml nor requirements.txt: Dify cannot build its environment"
    ' ("neither pyproject.toml nor requirements.txt found in plugin directory"), so it cannot be installed',
    "Add a requirements.txt at the plugin's top level that lists `dify_plugin` with a version"
    " constraint (for example `dify_plugin>=0.9.0,<0.11`) and every package the code imports.",
    """
Dify's plugin daemon builds a Python plugin's environment when it installs it
(`InitPythonEnvironment`, `internal/core/local_runtime/environment_python.go`): it creates the
virtual environment, then `dependencyFileType, err := p.detectDependencyFileType()` and
`return fmt.Errorf("failed to detect dependency file: %w", err)` when that fails.
`detectDependencyFileType` (`setup_python_environment.go`) looks for `pyproject.toml`, then
`requirements.txt`, at the plugin's top level, and otherwise returns `fmt.Errorf("neither %s nor %s
found in plugin directory", pyprojectTomlFile, requirementsTxtFile)`. So a plugin with neither is
refused for every user; even the SDK itself is never installed. The check runs for a plugin whose
`meta.runner.language` is `python`, and for one whose manifest cannot be read (whatever it says,
the daemon asks for the file).
""",
)


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """R106 once, for a Python plugin (or an unreadable manifest) with no dependency file."""
    manifest = loaded.documents.get("manifest.yaml")
    if manifest is None or not manifest.ok:
        if not loaded.reader.is_file("manifest.yaml"):
            return  # not a plugin at all (F004): nothing to install
    elif dig(manifest.data, "meta", "runner", "language") not in ("python", None):
        return  # another runner: not the Python environment this rule is about
    if installed_from(loaded.reader):
        return
    yield NO_DEPENDENCY_FILE.at(Location(loaded.display_path("manifest.yaml"), 1, 1))
