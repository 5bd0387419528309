"""The runner: each tool's reference implementation runs on its examples in a sandboxed child
process with the real `dify_plugin` SDK; what comes back is assembled as Dify does and checked."""

from generator.run.runner import all_findings, run_plugins
from generator.run.runtypes import ExampleRun, Limits, OutputFile, RunMessage, RunOptions, RunReport

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
