"""The real SDK as an oracle: it refuses a plugin exactly when the validator reports an error.

For every validate case folder, every plugin of the shared corpus (with placeholder code), the
registry's own plugins and the runner's case plugins, `sdk_oracle_child.py` runs the SDK's own
start-up (configuration loading and class lookup, see that file) in a child process of an
environment that has `dify_plugin`, and the verdicts are compared with `validate`'s.

Some errors of the validator are refused later than the SDK's start-up, by the plugin daemon when it
packages or installs a plugin, or concern the registry's own files that Dify never reads.
`BEYOND_SDK` lists them, each with what it mirrors; registry/docs/validation.md lists them too.
An error not in that list while the SDK accepts, or an SDK refusal with no error, is a bug of ours.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from generator.check import CheckContext
from generator.check.all_checks import check_plugin
from generator.findings import Severity
from generator.load.crawl import load_plugin
from generator.load.reader import PluginReader
from generator.run.environment import build_environment, describe_environment
from generator.run.sandbox import Isolation
from tests.conftest import REPO
from tests.corpus_copy import KINDS
from tests.validate_cases import CASES

CHILD = Path(__file__).resolve().parent / "sdk_oracle_child.py"
MUTATIONS = Path(__file__).resolve().parent / "cases" / "oracle" / "mutations.yaml"


@dataclass(frozen=True)
class Beyond:
    """Errors of one rule (whose message matches `message`) that Dify refuses after the SDK's start-up."""

    rule: str
    message: str
    mirrors: str

    def covers(self, rule: str, message: str) -> bool:
        """True when this entry explains the error `rule: message`."""
        return rule == self.rule and re.search(self.message, message) is not None


_EXAMPLES = "registry: the examples file is the registry's own input; Dify never reads it"
BEYOND_SDK: tuple[Beyond, ...] = (
    Beyond("M002", "does not match", "daemon: version and meta.version match the daemon's version pattern"),
    Beyond("M006", "not an allowed value", "daemon: manifest tags come from the daemon's fixed list"),
    Beyond("M010", "", "daemon: a manifest whose `plugins` lists nothing is refused when decoded"),
    Beyond("M011", "", "daemon: models, agent strategies, datasources and triggers need a plugin each"),
    Beyond("M012", "", "daemon: decoder CheckAssetsValid, 'plugin icon not found'"),
    Beyond("P005", "", "daemon: decoder CheckAssetsValid, 'tool icon not found' (the provider's icon)"),
    Beyond("F002", "icon", "daemon: decoder CheckAssetsValid finds no asset under a path outside _assets/"),
    Beyond("M015", "", "daemon: starts the plugin with `python -m <entrypoint>`, which fails without it"),
    Beyond("P002", "does not match", "daemon: provider identity.name matches ^[a-zA-Z0-9_-]+$"),
    Beyond("T002", "does not match", "daemon: tool identity.name matches ^[a-zA-Z0-9_-]+$"),
    Beyond("E002", "required field `icon`", "daemon: TriggerProviderIdentity.icon is validate:required"),
    Beyond("E007", "does not match", "daemon: trigger provider and event names match ^[a-zA-Z0-9_-]+$"),
    Beyond("A001", "name has 0 characters", "daemon: a parameter name has 1 to 1023 characters"),
    Beyond("A001", 'must be a boolean, not "', "daemon: yaml.v3 reads only y/yes/on/n/no/off as a bool"),
    Beyond("L002", "en_US has 0 characters", "daemon: en_US has 1 to 1023 characters"),
    Beyond("R030", "", _EXAMPLES),
    Beyond("R020", "", "run time: the tool loads, and every call of it drops the message"),
    Beyond("R021", "", "run time: the tool loads, and Dify's call omits the undeclared parameter (KeyError)"),
    Beyond(
        "P008", "can never run", "run time: the SDK keeps the last class of a tool name; the other never runs"
    ),
    Beyond(
        "T010",
        "",
        "run time: the tool loads, and every call misuses the SDK's File (blob() or a missing attribute)",
    ),
    Beyond(
        "T011",
        "",
        "run time: the tool loads, and the SDK cannot create its class (abstract `_invoke`) on a call",
    ),
    Beyond(
        "B011",
        "",
        "start-up: the SDK executes the datasource's file and finds no subclass of its provider type's base",
    ),
    Beyond(
        "B012",
        "",
        "run time: the datasource loads, and the SDK cannot create its class (an abstract method) on a call",
    ),
    Beyond("E009", "", "daemon: decoder CheckAssetsValid, 'trigger icon not found'"),
    Beyond(
        "E014",
        "",
        "start-up: _resolve_trigger_providers finds no class, or several, once it executes the module",
    ),
    Beyond("E015", "", "run time: the SDK cannot create the class (an abstract method) on a delivery"),
    Beyond("R070", "", "run time: the tool loads, and the lookup of a name Dify never passes is always None"),
    Beyond("R071", "", "run time: the tool loads, and Dify refuses its variable message of a reserved name"),
    Beyond("R072", "", "run time: the tool loads, and every read of a credential Dify never passes fails"),
    Beyond(
        "R073",
        "",
        "run time: no dependency the daemon installs provides the module",
    ),
    Beyond("R074", "", "run time: the tool loads, and random.randint refuses its float (Python 3.12)"),
    Beyond("R056", "", "daemon: `uv sync --no-dev` installs no dify_plugin, so the plugin cannot start"),
    Beyond("R075", "", "run time: the tool loads, and a call that leaves the optional parameter unset fails"),
    Beyond("R076", "", "run time: the tool loads, and its code refuses the option the field's default sends"),
    Beyond("R093", "", "run time: the plugin loads, and a read of an optional credential left blank fails"),
    Beyond("R094", "", "run time: the plugin loads, and its code refuses an optional credential left blank"),
    Beyond("R087", "", "run time: the tool loads, and the SDK cannot send the generator it yields"),
    Beyond("R086", "", "run time: the tool loads, and the line naming what nothing binds raises NameError"),
    Beyond(
        "T024",
        "",
        "run time: the tool loads, and the SDK's tool_cls(runtime=..., session=...) raises TypeError",
    ),
    Beyond("R084", "", "run time: the tool loads, and the default option reads a name no branch bound"),
    Beyond("T012", "", "run time: the tool loads, and the lookup of an attribute its class lacks fails"),
    Beyond("R083", "", "run time: the tool loads, and the SDK helper refuses the arguments (TypeError)"),
    Beyond("T013", "", "start-up or run time: the SDK the plugin installs has no such name"),
    Beyond("T014", "", "start-up: the SDK's Plugin has no such attribute; main.py stops"),
    Beyond("T015", "", "start-up: `python -m main` creates no Plugin, exits, and never serves a request"),
    Beyond(
        "T016",
        "",
        "run time: the provider loads, and creating its Tool without runtime and session raises TypeError",
    ),
    Beyond("P011", "", "start-up: the SDK looks for a ToolProvider subclass and finds none"),
    Beyond("P013", "", "start-up: the SDK executes the provider's file and finds no ToolProvider subclass"),
    Beyond("T022", "", "start-up: the SDK executes the tool's file and finds no Tool subclass"),
    Beyond("P014", "", "start-up: the SDK runs the provider's file and finds two ToolProvider subclasses"),
    Beyond("T023", "", "start-up: the SDK executes the tool's file and finds several Tool subclasses"),
    Beyond("T021", "", "start-up: executing the entry, a class file or what it imports raises SyntaxError"),
    Beyond("M016", "", "daemon: checkPermission refuses each call into Dify the manifest does not grant"),
    Beyond("R097", "", "run time: the tool loads, and the message's pydantic model refuses the value given"),
    Beyond("R120", "", "run time: the SDK's pydantic message refuses positional arguments"),
    Beyond("R121", "", "run time: the SDK's message lacks a required field (ValidationError)"),
    Beyond("R122", "", "run time: the plugin's own pydantic model refuses the construction"),
    Beyond("R136", "", "run time: the plugin's call of its own function binds no signature (TypeError)"),
    Beyond("R137", "", "run time: the plugin's own coroutine is made and dropped, its body never runs"),
    Beyond(
        "T018", "", "run time: the tool loads, and the SDK's `yield from` cannot iterate what `_invoke` gives"
    ),
    Beyond(
        "T019", "", "run time: the tool loads, and `self._invoke(tool_parameters)` cannot bind its signature"
    ),
    Beyond("T020", "", "run time: the tool loads, and its read of an attribute ToolRuntime lacks fails"),
    Beyond("R033", "", _EXAMPLES),
    Beyond("R034", "", _EXAMPLES),
)


def _beyond(rule: str, message: str) -> Beyond | None:
    return next((entry for entry in BEYOND_SDK if entry.covers(rule, message)), None)


@dataclass(frozen=True)
class Subject:
    """A plugin folder and the name it is shown by in a failure."""

    name: str
    folder: Path


def _plugins_under(folder: Path, label: str) -> list[Subject]:
    return [
        Subject(f"{label}/{path.name}", path)
        for path in sorted(folder.iterdir())
        if (path / "manifest.yaml").is_file()
    ]


def _mutations() -> list[dict[str, Any]]:
    loaded = yaml.safe_load(MUTATIONS.read_text(encoding="utf-8"))
    assert isinstance(loaded, list)
    return loaded


def _mutated(mutation: dict[str, Any], target: Path) -> Subject:
    """`validate/good/<base>` (`minimal` unless named) with the one change `mutation` describes."""
    folder = target / mutation["name"]
    shutil.copytree(CASES / "good" / mutation.get("base", "minimal"), folder)
    path = folder / mutation["file"]
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    *parents, last = mutation["at"]
    holder = document
    for key in parents:
        holder = holder.setdefault(key, {}) if isinstance(key, str) else holder[key]
    if mutation.get("delete"):
        del holder[last]
    else:
        holder[last] = mutation["set"]
    path.write_text(yaml.safe_dump(document, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return Subject(f"mutation/{mutation['name']}", folder)


@pytest.fixture(scope="session")
def sdk_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The interpreter of the environment the runner builds for a plugin with no requirements."""
    empty = tmp_path_factory.mktemp("no-requirements")
    described = describe_environment(
        PluginReader(empty),
        "3.12",
        tmp_path_factory.mktemp("oracle-cache"),
        offline=False,
        isolation=Isolation(namespaces=False, drop_privileges=False),
        shown=str,
    )
    built = build_environment(described, str)
    if not built.built or built.interpreter.version < (3, 12):
        pytest.skip(f"no environment with dify_plugin on Python 3.12+: {built.problem or 'no Python 3.12'}")
    return built.python


def _sdk_verdicts(python: Path, subjects: list[Subject], scratch: Path) -> dict[str, str | None]:
    out = scratch / "verdicts.json"
    subprocess.run(
        [str(python), str(CHILD), str(out)],
        input=json.dumps([str(s.folder) for s in subjects]),
        text=True,
        capture_output=True,
        cwd=scratch,
        timeout=600,
        check=True,
        env={"PATH": "/usr/bin:/bin", "HOME": str(scratch)},
    )
    by_folder = {entry["folder"]: entry["refused"] for entry in json.loads(out.read_text())}
    return {s.name: by_folder[str(s.folder)] for s in subjects}


Errors = set[tuple[str, str]]  # (rule, message) of every error the validator reports


def _errors(folder: Path) -> Errors:
    findings = check_plugin(load_plugin(folder, ""), CheckContext())
    return {(d.rule, d.message) for d in findings if d.severity is Severity.ERROR}


@pytest.fixture(scope="session")
def subjects(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> list[Subject]:
    """Case folders, mutations and plugins of this repository, and the corpus when it is there."""
    mutated = tmp_path_factory.mktemp("mutations")
    found = [
        *(_mutated(mutation, mutated) for mutation in _mutations()),
        *_plugins_under(CASES / "good", "validate/good"),
        *_plugins_under(CASES / "bad", "validate/bad"),
        *_plugins_under(REPO / "plugins", "plugins"),
        *_plugins_under(REPO / "tests" / "cases" / "run", "run"),
    ]
    try:
        corpus = request.getfixturevalue("corpus_copy")
    except pytest.skip.Exception:
        return found
    for kind in KINDS:
        found.extend(_plugins_under(corpus / kind, f"corpus/{kind}"))
    return found


@pytest.fixture(scope="session")
def verdicts(
    sdk_python: Path, subjects: list[Subject], tmp_path_factory: pytest.TempPathFactory
) -> dict[str, tuple[str | None, Errors]]:
    """For each subject, the SDK's refusal (None: accepted) and the validator's error rules."""
    sdk = _sdk_verdicts(sdk_python, subjects, tmp_path_factory.mktemp("oracle"))
    return {s.name: (sdk[s.name], _errors(s.folder)) for s in subjects}


def test_sdk_refuses_exactly_when_the_validator_errs(verdicts: dict[str, tuple[str | None, Errors]]) -> None:
    """The SDK refuses: the validator has an error. The SDK accepts: every error of the validator is
    one that Dify refuses later (BEYOND_SDK)."""
    disagreements = {}
    for name, (refused, errors) in verdicts.items():
        unexplained = sorted(f"{rule} {message}" for rule, message in errors if not _beyond(rule, message))
        if (refused is not None and not errors) or (refused is None and unexplained):
            disagreements[name] = {"sdk": refused or "accepts", "validator errors": unexplained}
    assert disagreements == {}


def test_every_entry_beyond_the_sdk_is_seen_where_the_sdk_accepts(
    verdicts: dict[str, tuple[str | None, Errors]],
) -> None:
    """The list stays minimal: each entry explains an error somewhere the SDK's start-up accepts."""
    used = {
        _beyond(rule, message)
        for refused, errors in verdicts.values()
        if refused is None
        for rule, message in errors
    }
    assert [entry for entry in BEYOND_SDK if entry not in used] == []


def test_the_oracle_sees_the_corpus_and_the_cases(verdicts: dict[str, tuple[str | None, Errors]]) -> None:
    """Both verdicts occur, so the comparison cannot pass by running nothing."""
    refused = [name for name, (sdk, _) in verdicts.items() if sdk is not None]
    accepted = [name for name, (sdk, _) in verdicts.items() if sdk is None]
    assert len(refused) >= 15
    assert len(accepted) >= 10


def test_mutations_get_the_sdk_verdict_written_beside_them(
    verdicts: dict[str, tuple[str | None, Errors]],
) -> None:
    """The data file says what the pinned SDK does with each defect; a new SDK that changes its
    mind shows up here, before the agreement above is trusted for it."""
    observed = {
        m["name"]: "refuses" if verdicts[f"mutation/{m['name']}"][0] else "accepts" for m in _mutations()
    }
    assert observed == {m["name"]: m["sdk"] for m in _mutations()}
