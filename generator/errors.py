"""Errors every stage may raise and the command line turns into exit codes; a leaf module, so that
no stage has to import the command line to raise one."""

from __future__ import annotations


class BrokenRegistry(Exception):
    """The registry itself (its schemas, lock or configuration) cannot be used: exit code 3."""
