"""`--memory SIZE` raises (or lowers) the address space of each run, the limit R039 names."""

from __future__ import annotations

import argparse

import pytest

from generator.cli import build_parser
from generator.commands.options import memory_option, run_options


@pytest.mark.parametrize("line", [["run", "."], ["validate", ".", "--run"], ["build", "."]])
def test_run_validate_and_build_take_a_memory_limit(line: list[str]) -> None:
    args = build_parser().parse_args([*line, "--memory", "8G", "--timeout", "60"])
    limits = run_options(args).limits
    assert (limits.memory_bytes, limits.timeout) == (8 * 1024**3, 60)


def test_without_the_option_the_default_holds() -> None:
    assert run_options(build_parser().parse_args(["run", "."])).limits.memory_bytes == 2 * 1024**3


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("8G", 8 * 1024**3),
        ("512M", 512 * 1024**2),
        ("2GiB", 2 * 1024**3),
        ("1.5g", 3 * 1024**3 // 2),
        ("100000000", 10**8),
    ],
)
def test_sizes_are_read_with_their_unit(text: str, size: int) -> None:
    assert memory_option(text) == size


@pytest.mark.parametrize("text", ["lots", "G", "10M", ""])
def test_a_size_that_is_not_one_or_too_small_is_a_usage_error(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError):
        memory_option(text)
