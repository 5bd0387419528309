"""The runner: each tool's reference implementation runs on its examples in a sandboxed child
process with the real `dify_plugin` SDK; what comes back is assembled as Dify does and checked.

`run_plugins` returns a `RunReport`: the runs, and every finding of the stage by the plugin it was
given (`LoadedPlugin.display`, the plugin's one identity from loading to the catalog).

How a finding of the run stage gets its severity, in this order and nowhere else:

1. `evidence.read_evidence` reads a child run's events once, into the facts they show (crashes,
   exits, limits, messages Dify refuses, calls out of the sandbox, credentials and storage keys
   read without a value). Nothing after it reads the events for a finding or its severity.
2. The emitters make findings of their rules' own severity (`rule(...)`, declared beside the
   code that emits it), and nothing else: `judge.judge` from the evidence (a finding of a rule of
   `judge.STOPS_RUN` means the run did not complete, and its outputs are neither assembled nor
   checked), `assemble.py` and `replay.py`, and `returned.check_run`, which also says which of its
   `SCHEMA_MISMATCH` findings are remarks (what the check could not check, not a failure of the
   output).
3. `verdict.py` is the one module that gives a finding another severity or replaces it
   (`tests/test_run_severity.py` holds it to that). `verdict.weigh` weighs a run's findings with its
   evidence: remarks become warnings; a write refused in the read-only environment turns the crash
   into `READ_ONLY_ENVIRONMENT`, a library the runner's address-space limit kept from being mapped
   (or a failure that followed such a refusal in the same process) into `RUNNER_MEMORY` (the
   runner's limits, not the plugin), a tool module that failed to load because the connection it
   made on import was refused into `IMPORT_NETWORK` (the sandbox's network, not the plugin); the
   probe with only required parameters reports only `OPTIONAL_READ` (a crash on an optional
   parameter, or the KeyError on it the tool caught and answered; not a KeyError on a credential)
   and `OPTIONAL_REQUIRED` (an answer that an optional parameter is required); a run of an example
   its author wrote keeps every other severity, except that one which stopped at the network without
   a recording is `NEEDS_RECORDING` at the example; a smoke run's crash that a missing credential, a
   connection, a call into Dify or an invented value explains (`causes.py`) becomes `INCONCLUSIVE`,
   and its time-out and `SCHEMA_MISMATCH` become warnings. Then one finding per cause: the
   connection and call findings go when another finding names them as the cause, the connection
   finding when the replay's `UNMATCHED` lists the same requests.
   For what is not one run's: `verdict.one_per_place` makes the same finding of several tools' runs
   (an import that fails in a shared module) one finding naming the tools; `verdict.reached_invoke`
   says whether a smoke run's note (R031, "ran once") holds; `verdict.never_set` makes `NEVER_SET` a
   note when no run of the tool proved anything, and `verdict.nothing_ran` makes `NOTHING_RAN` an
   error when the manifest did not load and no other finding says so. Last, beside the static
   checks (the pipeline), `verdict.told_without_running` drops a run's crash that a static check
   names at the same line at least as severely.
4. `verdict.run_result` says what the run shows (`result.py`) from its weighed findings and its
   evidence.
"""

from typing import TYPE_CHECKING

from generator.run.runtypes import ExampleRun, Limits, OutputFile, RunMessage, RunOptions, RunReport

if TYPE_CHECKING:
    from generator.run.runner import all_findings, run_plugins

__all__ = [
    "ExampleRun",
    "Limits",
    "OutputFile",
    "RunMessage",
    "RunOptions",
    "RunReport",
    "all_findings",
    "run_plugins",
]


def __getattr__(name: str) -> object:
    """`run_plugins` and `all_findings`, imported from the runner when first asked for: `validate`
    and the site read this package's types and its dependency-file helpers, and importing the runner
    with them (its sandbox, pool, wire codec, SSL and HTTP clients) cost every command's start a
    third of its imports."""
    if name in ("all_findings", "run_plugins"):
        from generator.run import runner

        return getattr(runner, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
