"""The lines of a pip requirements file as pip and uv read them: comments removed, backslash
continuations joined, each word with its column; URLs without their passwords. Shared by the
submission checks and the runner."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import urlsplit, urlunsplit


def logical_lines(body: str) -> Iterator[tuple[int, str]]:
    """Lines with comments removed and backslash continuations joined, numbered by their first."""
    pending, start = "", 0
    for number, raw in enumerate(body.splitlines(), start=1):
        line = raw if not raw.lstrip().startswith("#") else ""
        if " #" in line or "\t#" in line:
            line = line[: min(i for i in (line.find(" #"), line.find("\t#")) if i >= 0)]
        if not pending:
            start = number
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        yield start, pending + line
        pending = ""
    if pending:
        yield start, pending


def tokens(line: str) -> Iterator[tuple[int, str]]:
    """Whitespace-separated words with their 1-based columns (columns of continued lines are
    counted in the joined line)."""
    column = 0
    for word in line.split():
        column = line.index(word, column)
        yield column + 1, word
        column += len(word)


def redacted(url: str) -> str:
    """`url` without the user name and password it may carry (findings are published)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    if "@" not in parts.netloc:
        return url
    return urlunsplit(parts._replace(netloc="***@" + parts.netloc.rsplit("@", 1)[1]))
