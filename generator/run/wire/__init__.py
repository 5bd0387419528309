"""The runner's parent/child contract: every message between the generator and its sandboxed
worker, declared once with its encoder and decoder, and the two framings that carry them.

Standard library only, and loaded two ways: the generator imports it as `generator.run.wire`; the
sandboxed worker, which has no project on its path, loads it by path with the rest of its side
(`child/__main__.py`), so its modules import each other relatively. One module per job:

- `records`: the typed-record codec every message is declared with.
- `control`: the control socket (generator and worker): length-prefixed JSON, descriptors passed
  alongside. The generator sends `Setup` once and a `Task` per example; the worker answers `Ready`
  once and `Ended` after each example.
- `events`: an example's event pipe (child to generator): frames of a 1-byte kind (`J` an event as
  JSON, `B` the bytes of the event before it), a 4-byte big-endian length and the body.

A message is a frozen dataclass; its fields are its JSON fields, checked against their declared
types when decoded. What comes from the child is untrusted (the tool runs in that process and can
write to its descriptors): a decoder refuses any frame, kind or field that is not as declared and
says why, without raising into the generator.
"""

from .control import (
    DESCRIPTORS,
    HEADER,
    MAX_ANSWER,
    MAX_TASK,
    TO_GENERATOR,
    TO_WORKER,
    Delivery,
    Ended,
    File,
    Http,
    Ready,
    ResourceLimits,
    Setup,
    Task,
    receive,
    send,
)
from .events import (
    BLOB,
    EVENT,
    EVENTS,
    FRAME,
    MAPPING_REFUSED,
    CredentialUnset,
    Decoder,
    Dispatched,
    Done,
    Event,
    EventWriter,
    Exchange,
    Exited,
    Frame,
    NetworkAttempt,
    OverLimit,
    Raised,
    Recorded,
    Started,
    StorageUnset,
    Unmatched,
    Unsendable,
    Unserved,
    Uploaded,
    Variables,
    Yielded,
    frame,
    prepare_events,
    takes_blob,
)
from .records import KIND, Malformed, Message, decode, fields_of, table

__all__ = [
    "BLOB",
    "DESCRIPTORS",
    "EVENT",
    "EVENTS",
    "FRAME",
    "HEADER",
    "KIND",
    "MAPPING_REFUSED",
    "MAX_ANSWER",
    "MAX_TASK",
    "TO_GENERATOR",
    "TO_WORKER",
    "CredentialUnset",
    "Decoder",
    "Delivery",
    "Dispatched",
    "Done",
    "Ended",
    "Event",
    "EventWriter",
    "Exchange",
    "Exited",
    "File",
    "Frame",
    "Http",
    "Malformed",
    "Message",
    "NetworkAttempt",
    "OverLimit",
    "Raised",
    "Ready",
    "Recorded",
    "ResourceLimits",
    "Setup",
    "Started",
    "StorageUnset",
    "Task",
    "Unmatched",
    "Unsendable",
    "Unserved",
    "Uploaded",
    "Variables",
    "Yielded",
    "decode",
    "fields_of",
    "frame",
    "prepare_events",
    "receive",
    "send",
    "table",
    "takes_blob",
]
