"""Board state: two bitboards, the move stack, line counts kept up to date on push and pop.

The move stack holds cells and, for a turn that passed without a move (a timed turn ran out),
`PASS`. Every entry is one turn, so whose turn it is still follows from the stack's length.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum

from qubic.geometry import CUBE, Geometry


class Mark(IntEnum):
    """A player's mark; X is the person in the console game, O the machine."""

    X = 0
    O = 1  # noqa: E741 - the game's own letter

    @property
    def other(self) -> Mark:
        return Mark(1 - self)


PASS = -1
"""A turn that passed without a move, in `Board.moves`."""


class IllegalMoveError(ValueError):
    """A move onto a used or non-existent cell, or after the game is over."""


class Board:
    """A position: whose turn it is, which cells each mark holds, and whether someone has won.

    `bits[mark]` is that mark's bitboard; `counts[mark][line]` how many of the line's cells it
    holds. `push` and `pop` keep both in step, so nothing is ever recounted from scratch.
    """

    def __init__(self, geometry: Geometry = CUBE, first: Mark = Mark.X) -> None:
        self.geometry = geometry
        self.first = first
        self.bits = [0, 0]
        self.counts = ([0] * len(geometry.lines), [0] * len(geometry.lines))
        self.moves: list[int] = []
        self.winning_line_index: int | None = None

    @classmethod
    def from_moves(
        cls, moves: Iterable[int], geometry: Geometry = CUBE, first: Mark = Mark.X
    ) -> Board:
        """The position after playing `moves` (cells or PASS) in turn from the start.

        IllegalMoveError if any of them is illegal.
        """
        board = cls(geometry, first)
        for cell in moves:
            if cell == PASS:
                board.push_pass()
            else:
                board.push(cell)
        return board

    def copy(self) -> Board:
        return Board.from_moves(self.moves, self.geometry, self.first)

    @property
    def turn(self) -> Mark:
        """The mark to move next."""
        return self.first if len(self.moves) % 2 == 0 else self.first.other

    @property
    def occupied(self) -> int:
        return self.bits[0] | self.bits[1]

    @property
    def empty(self) -> int:
        """Bitboard of the empty cells."""
        return self.geometry.full_mask & ~(self.bits[0] | self.bits[1])

    def mark_at(self, cell: int) -> Mark | None:
        for mark in Mark:
            if self.bits[mark] >> cell & 1:
                return mark
        return None

    def is_legal(self, cell: int) -> bool:
        return (
            self.winning_line_index is None
            and cell in self.geometry.cells
            and not self.occupied >> cell & 1
        )

    def legal_moves(self) -> list[int]:
        """The empty cells in ascending order; none once the game is over."""
        if self.winning_line_index is not None:
            return []
        return list(iter_bits(self.empty))

    def push(self, cell: int) -> None:
        """Place the mark to move on `cell`."""
        if not self.is_legal(cell):
            raise IllegalMoveError(f"cell {cell} is not a legal move here")
        mark = self.turn
        self.bits[mark] |= 1 << cell
        counts = self.counts[mark]
        size = self.geometry.size
        for line in self.geometry.lines_through[cell]:
            counts[line] += 1
            if counts[line] == size:
                self.winning_line_index = line
        self.moves.append(cell)

    def push_pass(self) -> None:
        """Let the turn pass to the other mark without a move."""
        if self.is_over():
            raise IllegalMoveError("the game is over: nobody has a turn to pass")
        self.moves.append(PASS)

    def pop(self) -> int:
        """Take back the last move (or pass) and return its cell (or PASS)."""
        cell = self.moves.pop()
        if cell == PASS:
            return cell
        mark = self.turn
        self.bits[mark] &= ~(1 << cell)
        counts = self.counts[mark]
        for line in self.geometry.lines_through[cell]:
            counts[line] -= 1
        self.winning_line_index = None
        return cell

    @property
    def winner(self) -> Mark | None:
        """The mark that completed a line, if any (always the one that moved last: the game
        ends on that move, so no pass follows it)."""
        if self.winning_line_index is None:
            return None
        return self.turn.other

    @property
    def winning_line(self) -> tuple[int, ...] | None:
        """The cells of the completed line, in order along it."""
        if self.winning_line_index is None:
            return None
        return self.geometry.lines[self.winning_line_index].cells

    @property
    def last_cell(self) -> int | None:
        """The cell of the most recent move, passes skipped; None before the first."""
        return next((cell for cell in reversed(self.moves) if cell != PASS), None)

    def is_full(self) -> bool:
        return self.occupied == self.geometry.full_mask

    def is_draw(self) -> bool:
        """Every cell filled and nobody has four in a line."""
        return self.is_full() and self.winning_line_index is None

    def is_over(self) -> bool:
        return self.winning_line_index is not None or self.is_full()

    def winning_cells(self, mark: Mark) -> list[int]:
        """Empty cells where `mark` would complete a line at once, in ascending order."""
        size = self.geometry.size
        other = self.counts[mark.other]
        mine = self.counts[mark]
        cells = set()
        for index, line in enumerate(self.geometry.lines):
            if mine[index] == size - 1 and other[index] == 0:
                cells.add((line.mask & ~self.bits[mark]).bit_length() - 1)
        return sorted(cells)


def iter_bits(bits: int) -> Iterator[int]:
    """The set bits of a bitboard, lowest first."""
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low
