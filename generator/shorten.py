"""The one way a long text is shortened for a message, a hint or a title.

A text is cut in the middle, each side at a boundary (a space, a path separator, a punctuation
mark), so what is left never ends mid-word or mid-path, and the end, which in a path or an error
message says the most (the file name, the reason), is kept.
"""

from __future__ import annotations

import json

ELLIPSIS = "…"
# How much of an outside text each place shows, in characters, from the tightest to the widest.
SAMPLE = 40  # a sample quoted in a finding (markup, a link target)
VALUE = 60  # a value quoted in a schema error
ARGUMENT = 120  # any argument of a finding's message
PROBLEM = 160  # a schema library's own message inside a finding
MESSAGE = 200  # a whole line about an output checked against its schema
SHOWN = 300  # a run's inputs, messages and output in the text report
# Characters after (or before) which a text may be cut without splitting a word or a path part.
_BOUNDARIES = frozenset(" \t/\\,;:.|()[]{}<>=-_'\"`")
# The part of the room given to the end of the text: paths and error messages say most at the end.
_END_SHARE = 0.6


def shorten(text: str, limit: int) -> str:
    """`text` itself when it has at most `limit` characters, else its start and end joined by `…`,
    each cut at a boundary when one lies close enough (a long word alone is cut where it must)."""
    if len(text) <= limit:
        return text
    room = max(limit - len(ELLIPSIS), 0)
    end_room = round(room * _END_SHARE) if room > 8 else room
    start_room = room - end_room
    start = _start_at_boundary(text[:start_room])
    end = _end_at_boundary(text[len(text) - end_room :]) if end_room else ""
    return f"{start}{ELLIPSIS}{end}"


def _start_at_boundary(head: str) -> str:
    """`head` up to and including its last boundary, when that keeps at least half of it."""
    for index in range(len(head) - 1, len(head) // 2 - 1, -1):
        if head[index] in _BOUNDARIES:
            return head[: index + 1]
    return head


def _end_at_boundary(tail: str) -> str:
    """`tail` from its first boundary on, when that keeps at least half of it."""
    for index in range(min(len(tail), (len(tail) + 1) // 2)):
        if tail[index] in _BOUNDARIES:
            return tail[index:]
    return tail


def shorten_json(value: object, limit: int) -> str:
    """`value` as JSON text (what JSON cannot hold as its text), shortened to `limit` characters."""
    return shorten(json.dumps(value, ensure_ascii=False, default=str), limit)
