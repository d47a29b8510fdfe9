"""The board on the full screen: render's layout with each cell styled, where a cursor goes
when it moves, and the words about the cell under it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from prompt_toolkit.formatted_text import OneStyleAndTextTuple, StyleAndTextTuples
from prompt_toolkit.mouse_events import MouseEvent

from qubic.core.board import Board, Mark
from qubic.core.geometry import Geometry
from qubic.core.notation import format_cell, numbered
from qubic.play.render import DISABLED, EMPTY, Layout, fitting_across, layout

THREAT, THREATS = "!", "*"  # where one side, or several, could complete a line now
Handler = Callable[[MouseEvent], object]
Fragment = tuple[str, str, Handler | None]  # style, text, mouse handler


@dataclass(frozen=True)
class Highlights:
    """What the board shows besides the marks: the cursor, the lines through it, the winner's
    lines and, for each empty cell where sides could complete a line now, those sides."""

    cursor: int
    preview: frozenset[int] = frozenset()
    line: frozenset[int] = frozenset()
    threats: dict[int, tuple[Mark, ...]] = field(default_factory=dict)


def fitted(geometry: Geometry, columns: int) -> Layout:
    """The layout for `columns`: a cube's levels side by side if they fit, else in as few
    rows of grids as fit, evenly filled; a 4-D board roomy, the cursor's brackets between
    its cells, where that fits."""
    roomy = layout(geometry, roomy=True)
    if geometry.dims == 4 and roomy.width < columns:
        return roomy
    return layout(geometry, fitting_across(geometry, columns))


def threats(board: Board) -> dict[int, tuple[Mark, ...]]:
    """The empty cells where a side could complete a line now, with those sides."""
    found: dict[int, tuple[Mark, ...]] = {}
    if board.is_over():
        return found
    for mark in board.sides:
        for cell in board.winning_cells(mark):
            found[cell] = (*found.get(cell, ()), mark)
    return found


def fragments(
    board: Board, shape: Layout, shown: Highlights, colour: bool, handlers: list[Handler]
) -> StyleAndTextTuples:
    """The board's text, styled: marks by side, the cursor in brackets and reversed, the
    preview, the winner's lines and the last move (underlined; without colour, lowercase).
    Each cell answers the mouse with its handler, the spaces beside it too where they are
    its own."""
    lines: list[list[Fragment]] = [
        [("class:label", char, None) for char in line.ljust(shape.width + 1)]
        for line in shape.lines[: height(shape)]
    ]
    symbols = set(shape.places)
    for cell, (row, column) in enumerate(shape.places):
        text, style = _cell(board, cell, shown, colour)
        around = "class:cell" + "".join(
            f" class:{name}"
            for name, on in (
                ("preview", cell in shown.preview),
                ("win", cell in shown.line),
                ("cursor", cell == shown.cursor),
            )
            if on
        )
        lines[row][column] = (f"{style} {around}", text, handlers[cell])  # highlights win
        for side, bracket in ((-1, "["), (1, "]")):
            own = (row, column + 2 * side) not in symbols  # else the space is shared
            char = bracket if cell == shown.cursor else " "
            if own:
                lines[row][column + side] = (around, char, handlers[cell])
            elif cell == shown.cursor:
                lines[row][column + side] = ("class:cursor", char, None)
    result: StyleAndTextTuples = []
    for number, line in enumerate(lines):
        if number:
            result.append(("", "\n"))
        result += _merged(line)
    return result


def height(shape: Layout) -> int:
    """The layout's lines, blank lines at the end left out."""
    return max(row for row, _ in shape.places) + 1


def _cell(board: Board, cell: int, shown: Highlights, colour: bool) -> tuple[str, str]:
    """A cell's symbol and its own style."""
    if cell in board.geometry.disabled:
        return DISABLED, "class:disabled"
    mark = board.mark_at(cell)
    if mark is None:
        sides = shown.threats.get(cell, ())
        if not sides:
            return EMPTY, "class:empty"
        if len(sides) > 1:
            return THREATS, "class:threat"
        return THREAT, f"class:threat class:mark-{sides[0].name.lower()}"
    last = cell == board.last_cell
    style = f"class:mark class:mark-{mark.name.lower()}" + " class:last" * last
    return (mark.name.lower() if last and not colour else mark.name), style


def _merged(line: list[Fragment]) -> StyleAndTextTuples:
    """Runs of characters with the same style and handler as one fragment each."""
    runs: list[Fragment] = []
    for style, text, handler in line:
        if runs and runs[-1][0] == style and runs[-1][2] is handler:
            runs[-1] = (style, runs[-1][1] + text, handler)
        else:
            runs.append((style, text, handler))
    merged: StyleAndTextTuples = []
    for style, text, handler in runs:
        fragment: OneStyleAndTextTuple = (
            (style, text) if handler is None else (style, text, handler)
        )
        merged.append(fragment)
    return merged


def step(shape: Layout, cell: int, down: int, right: int) -> int:
    """The nearest cell from `cell` on the screen in the direction (down, right), or `cell`
    itself at the edge: right of a level's last column comes the next level's first."""
    row, column = shape.places[cell]

    def ahead(r: int, c: int) -> bool:
        if right:
            return r == row and (c - column) * right > 0
        return c == column and (r - row) * down > 0

    candidates = [
        (abs(r - row) + abs(c - column), other)
        for other, (r, c) in enumerate(shape.places)
        if ahead(r, c)
    ]
    return min(candidates)[1] if candidates else cell


def shifted(geometry: Geometry, cell: int, axis: int, delta: int) -> int:
    """`cell` moved by `delta` along `axis` (a level, in 3-D), stopping at the edge."""
    coords = list(geometry.coords[cell])
    coords[axis] = min(max(coords[axis] + delta, 0), geometry.size - 1)
    return geometry.cell(tuple(coords))


def describe(board: Board, cell: int) -> str:
    """The cell under the cursor in words: its name (and number, where squares are named by
    number), its lines, who could still make each, and whether it is taken or would complete
    a line."""
    geometry = board.geometry
    name = format_cell(cell, geometry)
    if numbered(geometry):
        name += f" (SQUARE {geometry.numbers[cell]})"
    if cell in geometry.disabled:
        return f"{name}: DISABLED"
    lines = geometry.lines_through[cell]
    words = f"{name}: ON {len(lines)} LINES"
    open_to = []
    for mark in board.sides:
        others = [side for side in board.sides if side is not mark]
        count = sum(all(board.counts[side][line] == 0 for side in others) for line in lines)
        open_to.append(f"{mark.name} {count}")
    words += ", OPEN TO " + " ".join(open_to)
    owner = board.mark_at(cell)
    if owner is not None:
        return f"{words}; TAKEN BY {owner.name}"
    winners = threats(board).get(cell, ())
    if winners:
        return f"{words}; {' AND '.join(m.name for m in winners)} COULD COMPLETE A LINE HERE"
    return words
