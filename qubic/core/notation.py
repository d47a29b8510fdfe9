"""Move notation: a cell written as its coordinates in notation order, 1-based, e.g. `234`.

One digit per dimension: for the 3-D game Level, Column, Row. `234`, `2,3,4` and `2 3 4` are
the same move; spaces around digits and commas are ignored. Where a variant numbers its cells
(`Geometry.numbers`: 1-27 on the 3x3x3 cube, 1-81 on the tesseract; `numbered`), a cell may
also be named by its number, written as one run of fewer digits than the cube has dimensions.
On the 4x4x4 cube a move is three coordinates, as the player's guide says: a dropped digit
(`24`) is refused, never taken for a square's number. Digits apart (`1 2`) are coordinates,
never one number.
"""

from __future__ import annotations

import re

from qubic.core.geometry import CUBE, Geometry
from qubic.core.inputs import quoted

_SEPARATED = re.compile(r"[\s,]+")
_SEPARATOR = re.compile(r"\s*,\s*|\s+")  # one comma (spaces around it allowed), or spaces


class NotationError(ValueError):
    """Text that does not name a cell; the message says why in one line."""


def format_cell(cell: int, geometry: Geometry = CUBE) -> str:
    """`cell` in notation, e.g. '234'."""
    return "".join(str(c + 1) for c in geometry.coords[cell])


def parse_moves(text: str, geometry: Geometry = CUBE, numbers: bool = True) -> list[int]:
    """The cells of a list of moves such as `111 114 141`, one word a move (`parse_cell`'s
    NotationError for the first word that names no cell)."""
    return [parse_cell(word, geometry, numbers) for word in text.split()]


def numbered(geometry: Geometry) -> bool:
    """Whether people may name the cells of `geometry` by number: everywhere but on the 4x4x4
    cube, where the guide asks for three coordinates."""
    return not (geometry.dims == 3 and geometry.size == 4)


def parse_cell(text: str, geometry: Geometry = CUBE, numbers: bool = True) -> int:
    """The cell that `text` names, or NotationError saying what is wrong with it (off the
    cube, or the disabled centre). With `numbers` false, a cell number is refused as too few
    coordinates."""
    parts = _parts(text)
    if len(parts) == 1:
        digits = parts[0]
        if len(digits) < geometry.dims and numbers:
            return _numbered(int(digits), geometry)
    elif all(len(part) == 1 for part in parts):
        digits = "".join(parts)
    else:
        digits = ""  # digits apart, some of them in runs: not one digit per coordinate
    if len(digits) != geometry.dims:
        raise NotationError(_count_message(geometry, numbers))
    coords = []
    for digit in digits:
        value = int(digit)
        if not 1 <= value <= geometry.size:
            raise NotationError(
                f"coordinates run from 1 to {geometry.size}: {value} is off the cube"
            )
        coords.append(value - 1)
    return _enabled(geometry.cell(tuple(coords)), geometry)


def _numbered(number: int, geometry: Geometry) -> int:
    cell = geometry.by_number.get(number)
    if cell is None:
        raise NotationError(
            f"cells are numbered 1 to {len(geometry.coords)}: {number} is off the cube"
        )
    return _enabled(cell, geometry)


def _enabled(cell: int, geometry: Geometry) -> int:
    if cell in geometry.disabled:
        raise NotationError(f"{format_cell(cell, geometry)} is the centre, which is disabled")
    return cell


def looks_like_move(text: str) -> bool:
    """Whether `text` is written only with digits, commas and spaces (so: meant as a move)."""
    return bool(text.strip()) and not _SEPARATED.sub("", text).strip("0123456789")


def _parts(text: str) -> list[str]:
    """The runs of digits in `text`, which separators (commas, spaces) split; a doubled comma
    leaves an empty run."""
    if not looks_like_move(text):
        raise NotationError(f"{quoted(text)} is not a move")
    return _SEPARATOR.split(text.strip())


def _count_message(geometry: Geometry, numbers: bool) -> str:
    example = example_move(geometry)
    number = f", or a square's number 1 to {len(geometry.coords)}" if numbers else ""
    return (
        f"moves need {_count_word(geometry.dims)} coordinates ({_axes(geometry)}), "
        f"each 1 to {geometry.size}: {example} or {','.join(example)}{number}"
    )


AXES = {2: "column, row", 3: "level, column, row", 4: "big column, column, big row, row"}


def _axes(geometry: Geometry) -> str:
    return AXES.get(geometry.dims) or ", ".join(f"axis {i + 1}" for i in range(geometry.dims))


def example_move(geometry: Geometry) -> str:
    """The move the messages show as an example: 234 on the 4x4x4 cube, a digit more per
    dimension, none above the size."""
    return "".join(str(min(i + 2, geometry.size)) for i in range(geometry.dims))


def _count_word(n: int) -> str:
    return {2: "two", 3: "three", 4: "four"}.get(n, str(n))
