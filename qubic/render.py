"""The board as text: 3-D as levels, 4-D as a grid of grids, 2-D as one grid.

3-D prints LEVEL 1 to LEVEL n, each a grid with C1..Cn across and R1..Rn down, as the guide
does. 4-D prints the grid of grids of the tesseract essay: a cell's four digits are read off
the big column, the column, the big row and the row labels. With colour, each mark has its own
colour (ANSI SGR codes), the last move is underlined and the winning lines are in reverse
video. Without, the grid is plain text with the last move in lowercase (`x`, `o`), so every
column stays where it is. `#` is a disabled cell, `.` an empty one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from qubic.board import Board, Mark
from qubic.geometry import Geometry

EMPTY = "."
DISABLED = "#"
# SGR parameters: bold cyan X, bold yellow O, bold magenta Y, bold green Z; underline marks
# the last move, reverse the winning lines.
COLOURS = {Mark.X: "1;36", Mark.O: "1;33", Mark.Y: "1;35", Mark.Z: "1;32"}
LAST = "4"
LINE = "7"


@dataclass(frozen=True)
class Picture:
    """The board to print: its geometry, each cell's mark (or None), the last move and the
    cells of the winner's lines."""

    geometry: Geometry
    marks: tuple[Mark | None, ...]
    last: int | None = None
    line: frozenset[int] = frozenset()

    @classmethod
    def of(cls, board: Board) -> Picture:
        outcome = board.outcome()
        lines = outcome.lines if outcome is not None else ()
        return cls(
            board.geometry,
            tuple(board.mark_at(cell) for cell in board.geometry.cells),
            board.last_cell,
            frozenset(c for line in lines for c in board.geometry.lines[line].cells),
        )


def render(picture: Picture, colour: bool = False) -> list[str]:
    """The picture's lines of text, a blank line after each grid."""
    geometry = picture.geometry

    def symbol(cell: int) -> str:
        return _symbol(picture, cell, colour)

    if geometry.dims == 4:
        return _grid_of_grids(geometry, symbol)
    if geometry.dims == 3:
        lines = []
        for level in range(geometry.size):
            lines.append(f"LEVEL {level + 1}")
            lines += _grid(geometry, lambda column, row, lv=level: geometry.cell((lv, column, row)),
                           symbol)
        return lines
    return _grid(geometry, lambda column, row: geometry.cell((column, row)), symbol)


def _grid(geometry: Geometry, cell_at: Callable[[int, int], int],
          symbol: Callable[[int], str]) -> list[str]:
    n = geometry.size
    lines = ["  " + " ".join(f"C{column + 1}" for column in range(n))]
    for row in range(n):
        lines.append(f"R{row + 1}" + "".join(f"  {symbol(cell_at(column, row))}"
                                             for column in range(n)))
    return [*lines, ""]


def _grid_of_grids(geometry: Geometry, symbol: Callable[[int], str]) -> list[str]:
    """Big columns (1st digit) across, columns (2nd) within; big rows (3rd) down, rows (4th)
    within: cell 1223 is in big column 1, column 2, big row 2, row 3."""
    n = range(geometry.size)
    gap = "   "
    lines = ["DIGITS: BIG COLUMN, COLUMN, BIG ROW, ROW",
             ("       " + gap.join(f"BC{big + 1:<{2 * geometry.size - 3}}" for big in n)).rstrip(),
             "       " + gap.join(" ".join(str(c + 1) for c in n) for _ in n)]
    for big_row in n:
        for row in n:
            label = f"BR{big_row + 1} " if row == 0 else "    "
            cells = gap.join(
                " ".join(symbol(geometry.cell((big, column, big_row, row))) for column in n)
                for big in n)
            lines.append(f"{label}R{row + 1} {cells}")
        lines.append("")
    return lines


def _symbol(picture: Picture, cell: int, colour: bool) -> str:
    """The cell's symbol, in colour wrapped in its colour and highlights."""
    if cell in picture.geometry.disabled:
        return DISABLED
    mark = picture.marks[cell]
    if mark is None:
        return EMPTY
    if not colour:
        return mark.name.lower() if cell == picture.last else mark.name
    codes = [COLOURS[mark]]
    if cell == picture.last:
        codes.append(LAST)
    if cell in picture.line:
        codes.append(LINE)
    return f"\x1b[{';'.join(codes)}m{mark.name}\x1b[0m"
