"""The cube as text: LEVEL 1 to LEVEL 4, each a grid with C1..C4 across and R1..R4 down.

With colour, X and O are drawn in two colours (ANSI SGR codes), the last move underlined and
the winning line in reverse video. Without, the grid is plain text with the last move in lowercase
(`x` or `o`), so every column stays where it is.
"""

from __future__ import annotations

from qubic.board import Mark
from qubic.game import Picture
from qubic.geometry import CUBE, Geometry

SYMBOLS = {Mark.X: "X", Mark.O: "O", None: "."}
# SGR parameters: bold cyan X, bold yellow O; underline marks the last move, reverse the line.
COLOURS = {Mark.X: "1;36", Mark.O: "1;33"}
LAST = "4"
LINE = "7"


def render(picture: Picture, geometry: Geometry = CUBE, colour: bool = False) -> list[str]:
    """Each level as the guide prints it, with a blank line after each."""
    n = geometry.size
    lines = []
    for level in range(n):
        lines.append(f"LEVEL {level + 1}")
        lines.append("  " + " ".join(f"C{column + 1}" for column in range(n)))
        for row in range(n):
            cells = (geometry.cell((level, column, row)) for column in range(n))
            lines.append(f"R{row + 1}" + "".join(
                f"  {_symbol(picture, c) if colour else _plain(picture, c)}"
                for c in cells))
        lines.append("")
    return lines


def _plain(picture: Picture, cell: int) -> str:
    """The cell's symbol, in lowercase for the last move."""
    symbol = SYMBOLS[picture.marks[cell]]
    return symbol.lower() if cell == picture.last else symbol


def _symbol(picture: Picture, cell: int) -> str:
    """The cell's symbol wrapped in its colour and highlights."""
    mark = picture.marks[cell]
    if mark is None:
        return SYMBOLS[None]
    codes = [COLOURS[mark]]
    if cell == picture.last:
        codes.append(LAST)
    if picture.line is not None and cell in picture.line:
        codes.append(LINE)
    return f"\x1b[{';'.join(codes)}m{SYMBOLS[mark]}\x1b[0m"
