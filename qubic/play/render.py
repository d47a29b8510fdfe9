"""The board as text: 3-D as levels, 4-D as a grid of grids, 2-D as one grid.

3-D prints LEVEL 1 to LEVEL n, each a grid with C1..Cn across and R1..Rn down, as the guide
does: stacked, one under another, or wide, side by side, level 1 on the left. 4-D prints the
grid of grids of the tesseract essay: a cell's four digits are read off the big column, the
column, the big row and the row labels. With colour, each mark has its own colour (ANSI SGR
codes), the last move is underlined and the winning lines are in reverse video. Without, the
grid is plain text with the last move in lowercase (`x`, `o`), so every column stays where
it is. `#` is a disabled cell, `.` an empty one.

A `Layout` is the text around the cells and the place of each cell's symbol; the console
fills it with symbols, the full-screen game with its own highlights. The score and a line's
squares are said in words.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, partial

from qubic.core.board import Board, Mark
from qubic.core.geometry import Geometry
from qubic.core.notation import format_cell

EMPTY = "."
DISABLED = "#"
# SGR parameters: bold cyan X, bold yellow O, bold magenta Y, bold green Z; underline marks
# the last move, reverse the winning lines.
COLOURS = {Mark.X: "1;36", Mark.O: "1;33", Mark.Y: "1;35", Mark.Z: "1;32"}
LAST = "4"
LINE = "7"
GAP = "   "  # between two grids side by side


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


Output = list["str | Picture"]  # what a session says: lines of text, pictures of the board


@dataclass(frozen=True)
class Layout:
    """The board's lines with a space where each cell's symbol goes, and each cell's place
    there: `places[cell]` is (line, column). Every place has a space or the line's end on
    either side."""

    lines: tuple[str, ...]
    places: tuple[tuple[int, int], ...]

    @property
    def width(self) -> int:
        return max(
            *(len(line.rstrip()) for line in self.lines), *(column + 1 for _, column in self.places)
        )


def render(
    picture: Picture, colour: bool = False, wide: bool = False, across: int = 0
) -> list[str]:
    """The picture's lines of text, a blank line after each grid; `wide` puts the levels of
    a 3-D cube side by side, `across` (if given) that many to a row."""
    geometry = picture.geometry
    board = layout(geometry, across or (geometry.size if wide else 1))
    lines = [list(line) for line in board.lines]
    for cell, (row, column) in enumerate(board.places):
        lines[row][column] = _symbol(picture, cell, colour)
    return ["".join(line).rstrip() for line in lines]


def wide_width(geometry: Geometry) -> int:
    """The columns the wide layout takes."""
    return layout(geometry, geometry.size).width


def fitting_across(geometry: Geometry, columns: int) -> int:
    """How many levels of a 3-D cube go to a row within `columns`: side by side if they fit,
    else in as few rows of grids as fit, evenly filled (four levels: four, two, then one)."""
    if geometry.dims != 3:
        return 1
    n = geometry.size
    most = max((k for k in range(1, n + 1) if layout(geometry, k).width <= columns), default=1)
    rows = -(-n // most)
    return -(-n // rows)


@cache
def layout(geometry: Geometry, across: int = 1, roomy: bool = False) -> Layout:
    """Where the board's text and cells go; a 3-D cube's levels `across` to a row of grids
    (1: stacked, the guide's layout). A `roomy` 4-D grid of grids puts its cells three
    columns apart, as the cube's are, with room for a cursor's brackets between them."""
    if geometry.dims == 4:
        return _grid_of_grids(geometry, 3 if roomy else 2)
    if geometry.dims == 2:
        return _joined([_grid(geometry, lambda column, row: geometry.cell((column, row)))])
    grids = [
        _grid(
            geometry,
            partial(_level_cell, geometry, level),
            f"LEVEL {level + 1}",
        )
        for level in range(geometry.size)
    ]
    return _joined(grids, max(1, across))


Block = tuple[list[str], dict[int, tuple[int, int]]]  # lines, and the cells' places in them


def _level_cell(geometry: Geometry, level: int, column: int, row: int) -> int:
    return geometry.cell((level, column, row))


def _grid(
    geometry: Geometry, cell_at: Callable[[int, int], int], heading: str | None = None
) -> Block:
    """One grid, C1..Cn across and R1..Rn down, under its heading, and a blank line."""
    n = geometry.size
    lines = [heading] if heading is not None else []
    lines.append("  " + " ".join(f"C{column + 1}" for column in range(n)))
    places = {}
    for row in range(n):
        for column in range(n):
            places[cell_at(column, row)] = (len(lines), 4 + 3 * column)
        lines.append(f"R{row + 1}" + "   " * n)
    return [*lines, ""], places


def _joined(blocks: list[Block], across: int = 1) -> Layout:
    """Blocks `across` to a row, GAP apart, rows of blocks one under another."""
    lines: list[str] = []
    places: dict[int, tuple[int, int]] = {}
    for first in range(0, len(blocks), across):
        row = blocks[first : first + across]
        width = max(len(line) for block, _ in row for line in block)
        top = len(lines)
        lines += [
            GAP.join(block[i].ljust(width) for block, _ in row) for i in range(len(row[0][0]))
        ]
        for index, (_, block_places) in enumerate(row):
            for cell, (line, column) in block_places.items():
                places[cell] = (top + line, index * (width + len(GAP)) + column)
    return Layout(tuple(lines), tuple(places[cell] for cell in sorted(places)))


def _grid_of_grids(geometry: Geometry, step: int) -> Layout:
    """Big columns (1st digit) across, columns (2nd) within, `step` apart; big rows (3rd)
    down, rows (4th) within: cell 1223 is in big column 1, column 2, big row 2, row 3."""
    n = range(geometry.size)
    width = step * (geometry.size - 1) + 1  # one big column's
    block = width + len(GAP)
    space = " " * (step - 1)
    lines = [
        "DIGITS: BIG COLUMN, COLUMN, BIG ROW, ROW",
        "       " + GAP.join(f"BC{big + 1}".ljust(width) for big in n).rstrip(),
        "       " + GAP.join(space.join(str(c + 1) for c in n) for _ in n),
    ]
    places = {}
    for big_row in n:
        for row in n:
            label = f"BR{big_row + 1} " if row == 0 else "    "
            for big in n:
                for column in n:
                    places[geometry.cell((big, column, big_row, row))] = (
                        len(lines),
                        7 + big * block + step * column,
                    )
            lines.append(f"{label}R{row + 1} " + GAP.join(" " * width for _ in n))
        lines.append("")
    return Layout(tuple(lines), tuple(places[cell] for cell in sorted(places)))


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


def score_lines(board: Board) -> list[str]:
    """The score line, in games that keep score."""
    if not board.variant.scoring:
        return []
    return ["SCORE " + " ".join(f"{mark.name} {board.scores[mark]}" for mark in board.sides)]


def line_text(board: Board, line: int) -> str:
    """The squares of a line, as LINES and a game's result name them."""
    return " ".join(format_cell(cell, board.geometry) for cell in board.geometry.lines[line].cells)
