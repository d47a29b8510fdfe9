"""The cube as text: LEVEL 1 to LEVEL 4, each a grid with C1..C4 across and R1..R4 down."""

from __future__ import annotations

from qubic.board import Mark
from qubic.game import Picture
from qubic.geometry import CUBE, Geometry

SYMBOLS = {Mark.X: "X", Mark.O: "O", None: "."}


def render(picture: Picture, geometry: Geometry = CUBE) -> list[str]:
    """Each level as the guide prints it, with a blank line after each."""
    n = geometry.size
    lines = []
    for level in range(n):
        lines.append(f"LEVEL {level + 1}")
        lines.append("  " + " ".join(f"C{column + 1}" for column in range(n)))
        for row in range(n):
            cells = (geometry.cell((level, column, row)) for column in range(n))
            lines.append(f"R{row + 1}" + "".join(f"  {SYMBOLS[picture.marks[c]]}" for c in cells))
        lines.append("")
    return lines
