"""What a child run's events show, read once: the facts that `judge` makes findings of and that
`verdict.weigh` decides their severity from (see the package's docstring)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from generator.run.hosts import contacted_hosts
from generator.run.wire import (
    CredentialUnset,
    Done,
    Event,
    Exited,
    NetworkAttempt,
    OverLimit,
    Raised,
    Started,
    StorageUnset,
    Unmatched,
    Unsendable,
    Unserved,
)

# An event that ends the invocation where it came (a crash, an exit, a limit, a message Dify refuses).
Failure = Raised | Exited | OverLimit | Unsendable
# An attempt to reach outside the sandbox: a connection, or a call back into Dify.
Outside = NetworkAttempt | Unserved


@dataclass(frozen=True, slots=True)
class Evidence:
    """The facts of one run's events, each in the order the child reported it."""

    python: str  # "<python> (dify_plugin <sdk>)", or "" when the child never started
    done: bool  # the child said the invocation returned
    failures: tuple[Failure, ...]
    outside: tuple[Outside, ...]
    unset_credentials: tuple[str, ...]  # credentials the tool read without a value
    unset_storage: tuple[str, ...]  # plugin storage keys the tool read and found unset, once each
    hosts: tuple[str, ...]  # the hosts of its network attempts (`hosts.contacted_hosts`)
    unmatched: tuple[Unmatched, ...]  # requests a replay had no recorded answer for

    @property
    def raised(self) -> tuple[Raised, ...]:
        """The errors the tool raised."""
        return tuple(f for f in self.failures if isinstance(f, Raised))

    @property
    def connections(self) -> tuple[str, ...]:
        """The addresses it tried to connect to, once each."""
        return tuple(dict.fromkeys(e.address for e in self.outside if isinstance(e, NetworkAttempt)))

    @property
    def calls(self) -> tuple[str, ...]:
        """The calls back into Dify that the runner did not serve, once each."""
        return tuple(dict.fromkeys(e.call for e in self.outside if isinstance(e, Unserved)))


def read_evidence(events: Sequence[Event]) -> Evidence:
    """The facts of a run's events, in one pass."""
    python = ""
    done = False
    failures: list[Failure] = []
    outside: list[Outside] = []
    credentials: list[str] = []
    storage: list[str] = []
    unmatched: list[Unmatched] = []
    for event in events:
        if isinstance(event, Started):
            python = f"{event.python} (dify_plugin {event.sdk})"
        elif isinstance(event, Done):
            done = True
        elif isinstance(event, Raised | Exited | OverLimit | Unsendable):
            failures.append(event)
        elif isinstance(event, NetworkAttempt | Unserved):
            outside.append(event)
        elif isinstance(event, CredentialUnset):
            credentials.append(event.name)
        elif isinstance(event, StorageUnset):
            storage.append(event.key)
        elif isinstance(event, Unmatched):
            unmatched.append(event)
    return Evidence(
        python,
        done,
        tuple(failures),
        tuple(outside),
        tuple(credentials),
        tuple(dict.fromkeys(storage)),
        contacted_hosts(outside),
        tuple(unmatched),
    )
