"""The runner: each tool's reference implementation runs on its examples in a sandboxed child
process with the real `dify_plugin` SDK; what comes back is assembled as Dify does and checked.

`run_plugins` returns a `RunReport`: the runs, and every finding of the stage by the plugin it was
given (`LoadedPlugin.display`, the plugin's one identity from loading to the catalog).

How a run finding gets its severity, in this order and nowhere else:

1. The rule's own severity, declared with `rule(...)` beside the code that emits it.
2. The emitter, where the rule's documentation says so and only it knows why: `NOTHING_RAN`
   (`runner.py`) is a note when the manifest's own error already says it; `SCHEMA_MISMATCH`
   (`checks.py`) is a warning for remarks that are not failures of the output; `NEVER_SET` is a
   note when no run proved anything.
3. `judge.judge` turns the child's events (crash, time-out, limits, exit, printing, calls out)
   into findings of their rules' severity; a finding of a rule of `judge.STOPS_RUN` means the run
   did not complete, and its outputs are neither assembled nor checked (`checks.check_run`).
4. `verdict.weigh`, the one place that lowers or replaces a run's findings, reads the events again
   for what the inputs could not supply: a write refused in the read-only environment turns the
   crash into `READ_ONLY_ENVIRONMENT`; the probe with only required parameters reports only
   `OPTIONAL_READ`; a run of an example its author wrote keeps every severity; a smoke run's crash
   that a missing credential, a connection, a call into Dify or an invented value explains becomes
   `INCONCLUSIVE`, and its time-out and `SCHEMA_MISMATCH` become warnings. Then one finding per
   cause: the connection and call findings go when another finding names them as the cause, the
   connection finding when the replay's `UNMATCHED` lists the same requests.
5. `verdict.run_result` says what the run shows (`result.py`) from the weighed findings.
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
