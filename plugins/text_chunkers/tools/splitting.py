"""Text cleaning and splitting shared by the chunkers."""

import re
from typing import Any

from dify_plugin.file.file import File

SPACES = re.compile(r"[ \t\f\v]+")
BLANK_LINES = re.compile(r"\n{3,}")
URLS_AND_EMAILS = re.compile(r"https?://\S+|www\.\S+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+")


def read_source(tool_parameters: dict[str, Any]) -> str:
    """The text to chunk: `input_text`, else the UTF-8 content of `input_file`."""
    text = tool_parameters.get("input_text")
    if isinstance(text, str) and text.strip():
        return text
    source = tool_parameters.get("input_file")
    if isinstance(source, File):
        return source.blob.decode("utf-8-sig").replace("\r\n", "\n")
    raise ValueError("Give the text to chunk in input_text or as input_file.")


def unescape(separator: str) -> str:
    # Separators typed into Dify's forms arrive as a backslash and a letter.
    return separator.replace("\\n", "\n").replace("\\t", "\t")


def clean(text: str, remove_extra_spaces: bool, remove_urls_emails: bool) -> str:
    if remove_urls_emails:
        text = URLS_AND_EMAILS.sub("", text)
    if remove_extra_spaces:
        text = BLANK_LINES.sub("\n\n", SPACES.sub(" ", text))
    return text


def split_text(text: str, separator: str, max_length: int) -> list[str]:
    """Split on `separator`, then pack the words of longer pieces into chunks of `max_length`."""
    if max_length < 1:
        raise ValueError("The maximum chunk length must be at least 1.")
    pieces = text.split(separator) if separator else [text]
    chunks: list[str] = []
    for piece in pieces:
        piece = piece.strip()
        if piece:
            chunks.extend(_pack(piece, max_length))
    return chunks


def _pack(piece: str, max_length: int) -> list[str]:
    if len(piece) <= max_length:
        return [piece]
    chunks: list[str] = []
    current = ""
    for word in piece.split():
        while len(word) > max_length:
            if current:
                chunks.append(current)
                current = ""
            chunks.append(word[:max_length])
            word = word[max_length:]
        candidate = f"{current} {word}" if current else word
        if len(candidate) <= max_length:
            current = candidate
        else:
            chunks.append(current)
            current = word
    if current:
        chunks.append(current)
    return chunks
