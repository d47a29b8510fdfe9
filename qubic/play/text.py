"""Text for people: short quotes of what they typed, and lines that fit the terminal."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence

from qubic.core.inputs import quoted as quoted  # defined beside the number parser, in core

WIDTH = 80  # what everything the game prints fits, when the terminal is not narrower


class Verbatim(str):
    """A line printed as it is, never wrapped: text meant to be copied, such as an export."""


class Hanging(str):
    """Text the front end wraps to its width, at most WIDTH, going on under its column
    `indent`: a row of a table, a paragraph (indent 0)."""

    indent: int

    def __new__(cls, text: str, indent: int) -> Hanging:
        line = super().__new__(cls, text)
        line.indent = indent
        return line

    def __getnewargs__(self) -> tuple[str, int]:  # type: ignore[override]
        return str(self), self.indent


def capitals(text: str) -> str:
    """`text` in the game's capitals, a board's shape (4x4x4) written as ever."""
    return re.sub(r"(?<=\d)X(?=\d)", "x", text.upper())


def table(rows: Sequence[tuple[str, str]], width: int | None = WIDTH) -> list[str]:
    """Two indented columns, the second wrapped at word boundaries within `width`; with
    `width` None, one Hanging line a row, for the front end to wrap to its own width."""
    column = max(len(left) for left, _ in rows) + 4
    lines: list[str] = [Hanging(f"  {left}".ljust(column) + right, column) for left, right in rows]
    return lines if width is None else [piece for line in lines for piece in fit(line, width)]


def fit(line: str, width: int) -> list[str]:
    """`line` wrapped at word boundaries within `width`, going on at its own indent (a
    Hanging line under its column); a Verbatim line stays whole."""
    if len(line) <= width or isinstance(line, Verbatim):
        return [line]
    if isinstance(line, Hanging):
        indent = " " * line.indent
    else:
        indent = line[: len(line) - len(line.lstrip())]
    return textwrap.wrap(line, width, subsequent_indent=indent, break_on_hyphens=False)
