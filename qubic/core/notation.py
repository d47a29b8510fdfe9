"""Move notation: a cell written as its coordinates in notation order, 1-based, e.g. `234`.

One digit per dimension: for the 3-D game Level, Column, Row. `234` and `2,3,4` are the same
move; spaces around digits and commas are ignored. A cell may also be named by its number
(`Geometry.numbers`: 1-27 on the 3x3x3 cube, 1-81 on the tesseract), written with fewer
digits than the cube has dimensions.
"""

from __future__ import annotations

import re

from qubic.core.geometry import CUBE, Geometry

_SEPARATED = re.compile(r"[\s,]+")


class NotationError(ValueError):
    """Text that does not name a cell; the message says why in one line."""


def format_cell(cell: int, geometry: Geometry = CUBE) -> str:
    """`cell` in notation, e.g. '234'."""
    return "".join(str(c + 1) for c in geometry.coords[cell])


def parse_cell(text: str, geometry: Geometry = CUBE) -> int:
    """The cell that `text` names, or NotationError saying what is wrong with it (off the
    cube, or the disabled centre)."""
    digits = _digits(text.strip())
    if "," not in text and 0 < len(digits) < geometry.dims:
        return _numbered(int("".join(digits)), geometry)
    if len(digits) != geometry.dims:
        raise NotationError(
            f"moves need {_count_word(geometry.dims)} coordinates ({_axes(geometry)}), "
            f"each 1..{geometry.size}: type {_example(geometry)} or {','.join(_example(geometry))}"
            f", or a cell number 1..{len(geometry.coords)}"
        )
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


def _digits(text: str) -> list[str]:
    if not looks_like_move(text):
        raise NotationError(f"{text!r} is not a move")
    if "," in text:
        parts = [part for part in _SEPARATED.split(text) if part]
        if all(len(part) == 1 for part in parts):
            return parts
        return []  # a comma-separated move with a multi-digit part: wrong count
    return list(_SEPARATED.sub("", text))


AXES = {2: "column, row", 3: "level, column, row", 4: "big column, column, big row, row"}


def _axes(geometry: Geometry) -> str:
    return AXES.get(geometry.dims) or ", ".join(f"axis {i + 1}" for i in range(geometry.dims))


def _example(geometry: Geometry) -> str:
    return "".join(str(min(i + 2, geometry.size)) for i in range(geometry.dims))


def _count_word(n: int) -> str:
    return {2: "two", 3: "three", 4: "four"}.get(n, str(n))
