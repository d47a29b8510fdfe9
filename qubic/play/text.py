"""Text for people: short quotes of what they typed, and lines that fit the terminal."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from qubic.core.inputs import quoted as quoted  # defined beside the number parser, in core

WIDTH = 80  # what everything the game prints fits, when the terminal is not narrower


class Verbatim(str):
    """A line printed as it is, never wrapped: text meant to be copied, such as an export."""


def table(rows: Sequence[tuple[str, str]], width: int = WIDTH) -> list[str]:
    """Two indented columns; the second wraps at word boundaries to stay within `width`."""
    column = max(len(left) for left, _ in rows) + 4
    lines = []
    for left, right in rows:
        lines += textwrap.wrap(
            right,
            width,
            initial_indent=f"  {left}".ljust(column),
            subsequent_indent=" " * column,
            break_on_hyphens=False,
        )
    return lines


def fit(line: str, width: int) -> list[str]:
    """`line` wrapped at word boundaries within `width`, going on at its own indent; a
    Verbatim line stays whole."""
    if len(line) <= width or isinstance(line, Verbatim):
        return [line]
    indent = line[: len(line) - len(line.lstrip())]
    return textwrap.wrap(line, width, subsequent_indent=indent, break_on_hyphens=False)
