"""The one text shortener: cuts at a boundary and keeps the informative end."""

from __future__ import annotations

from generator.shorten import ELLIPSIS, shorten


def test_short_text_is_kept_whole() -> None:
    """A text within the limit is returned unchanged."""
    assert shorten("no module named foo", 40) == "no module named foo"


def test_a_path_keeps_its_file_name_and_reason() -> None:
    """A long error about a path keeps the start, the file name and the reason, with no part cut."""
    text = (
        "ImportError: /cache/envs/abc/lib/python3.12/site-packages/foo/_native.cpython-312-x86_64"
        "-linux-gnu.so: wrong ELF class: ELFCLASS64"
    )
    short = shorten(text, 90)
    assert len(short) <= 90
    assert short.startswith("ImportError: /")
    assert short.endswith("wrong ELF class: ELFCLASS64")
    assert "site-pack" + ELLIPSIS not in short


def test_words_are_never_split() -> None:
    """Every word left on either side of the cut is whole."""
    text = "The quick brown fox jumps over the lazy dog and you will never guess what happens next"
    short = shorten(text, 50)
    start, end = short.split(ELLIPSIS)
    words = set(text.split())
    assert all(word in words for word in start.split())
    assert all(word in words for word in end.split())
    assert len(short) <= 50


def test_one_long_word_is_cut_where_it_must() -> None:
    """A token with no boundary is still shortened to the limit."""
    assert len(shorten("x" * 500, 60)) == 60
