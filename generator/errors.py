"""Errors every stage may raise and the command line turns into exit codes; a leaf module, so that
no stage has to import the command line to raise one."""

from __future__ import annotations


class BrokenRegistry(Exception):
    """The registry itself (its schemas, lock or configuration) cannot be used: exit code 3."""


# The exit codes, a documented contract (`generator.cli`): every command returns one of these.
EXIT_OK = 0  # clean, or warnings only
EXIT_FINDINGS = 1  # errors, or warnings with --strict
EXIT_USAGE = 2  # a usage error (`InputError`)
EXIT_BROKEN = 3  # a broken registry or configuration (`BrokenRegistry`)
EXIT_BROKEN_PIPE = 141  # stdout's reader went away (`| head`): what a shell reports for SIGPIPE
