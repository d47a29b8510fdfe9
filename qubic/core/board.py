"""Board state: a bitboard per side, the move stack, line counts and scores kept up to date on
push and pop.

The move stack holds cells and, for a turn that passed without a move (a timed turn ran out),
`PASS`. Every entry is one turn, so whose turn it is still follows from the stack's length: the
sides move in turn X, O, Y, Z from the first mover. Beside it, a stack of the lines each turn
completed, so that `pop` undoes a move exactly.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import IntEnum

from qubic.core.geometry import CUBE, Geometry
from qubic.core.variant import QUBIC, Variant


class Mark(IntEnum):
    """A side's mark, in playing order. Alone against the machine, the person is X."""

    X = 0
    O = 1  # noqa: E741 - the game's own letter
    Y = 2
    Z = 3

    @property
    def other(self) -> Mark:
        """X's opponent O and O's X: for the two-sided searches."""
        return Mark(1 - self)


PASS = -1
"""A turn that passed without a move, in `Board.moves`."""
NOTHING: tuple[int, ...] = ()


class IllegalMoveError(ValueError):
    """A move onto a used, disabled or non-existent cell, or after the game is over."""


@dataclass(frozen=True)
class Outcome:
    """How a game ended: `winner` None is a draw; `full` says the board filled (else a side
    reached the target); `lines` are the winner's completed lines (indexes into the
    geometry's lines)."""

    winner: Mark | None
    full: bool
    lines: tuple[int, ...]


class Board:
    """A position: whose turn it is, which cells each side holds, the lines and scores.

    `bits[mark]` is that side's bitboard; `counts[mark][line]` how many of the line's cells it
    holds; `scores[mark]` how many lines it has completed. `push` and `pop` keep them all in
    step, so nothing is ever recounted from scratch.
    """

    def __init__(self, variant: Variant = QUBIC, first: Mark = Mark.X) -> None:
        self.variant = variant
        self.geometry: Geometry = variant.geometry
        self.sides = tuple(Mark(side) for side in range(variant.sides))
        if first not in self.sides:
            raise ValueError(f"{first.name} does not play in a game of {variant.sides} sides")
        self.first = first
        self._order = tuple(Mark((first + ply) % variant.sides) for ply in self.sides)
        lines = len(self.geometry.lines)
        self.bits = [0] * variant.sides
        self.counts = tuple([0] * lines for _ in self.sides)
        self.scores = [0] * variant.sides
        self.occupied = 0
        self.moves: list[int] = []
        self.completed: list[tuple[int, ...]] = []  # the lines each turn completed
        self.winner: Mark | None = None  # the side that reached the target

    @classmethod
    def from_moves(
        cls, moves: Iterable[int], variant: Variant = QUBIC, first: Mark = Mark.X
    ) -> Board:
        """The position after playing `moves` (cells or PASS) in turn from the start.

        IllegalMoveError if any of them is illegal.
        """
        board = cls(variant, first)
        for cell in moves:
            if cell == PASS:
                board.push_pass()
            else:
                board.push(cell)
        return board

    def copy(self) -> Board:
        return Board.from_moves(self.moves, self.variant, self.first)

    @property
    def turn(self) -> Mark:
        """The side to move next."""
        return self.mover(len(self.moves))

    def mover(self, ply: int) -> Mark:
        """The side whose turn `ply` (counted from 0) is."""
        return self._order[ply % len(self._order)]

    @property
    def empty(self) -> int:
        """Bitboard of the empty playable cells."""
        return self.geometry.full_mask & ~self.occupied

    def pair(self, mark: Mark | None = None) -> tuple[int, int]:
        """The two-sided searches' position: `(bits of mark, bits of its opponent)`, `mark`
        the side to move unless given."""
        mark = self.turn if mark is None else mark
        return self.bits[mark], self.bits[mark.other]

    def mark_at(self, cell: int) -> Mark | None:
        for mark in self.sides:
            if self.bits[mark] >> cell & 1:
                return mark
        return None

    def is_legal(self, cell: int) -> bool:
        return (
            self.winner is None
            and cell >= 0
            and self.geometry.full_mask >> cell & 1 == 1
            and not self.occupied >> cell & 1
        )

    def legal_moves(self) -> list[int]:
        """The empty playable cells in ascending order; none once a side has won."""
        if self.winner is not None:
            return []
        return list(iter_bits(self.empty))

    def push(self, cell: int) -> None:
        """Place the mark to move on `cell`."""
        geometry = self.geometry
        bit = 1 << cell if cell >= 0 else 0
        if self.winner is not None or not geometry.full_mask & bit & ~self.occupied:
            raise IllegalMoveError(f"cell {cell} is not a legal move here")
        order = self._order
        mark = order[len(self.moves) % len(order)]
        self.bits[mark] |= bit
        self.occupied |= bit
        counts = self.counts[mark]
        size = geometry.size
        made = NOTHING
        for line in geometry.lines_through[cell]:
            counts[line] += 1
            if counts[line] == size:
                made += (line,)
        if made:
            self.scores[mark] += len(made)
            if self.scores[mark] >= self.variant.target:
                self.winner = mark
        self.completed.append(made)
        self.moves.append(cell)

    def push_pass(self) -> None:
        """Let the turn pass to the next side without a move."""
        if self.is_over():
            raise IllegalMoveError("the game is over: nobody has a turn to pass")
        self.completed.append(NOTHING)
        self.moves.append(PASS)

    def pop(self) -> int:
        """Take back the last move (or pass) and return its cell (or PASS)."""
        cell = self.moves.pop()
        made = self.completed.pop()
        if cell == PASS:
            return cell
        order = self._order
        mark = order[len(self.moves) % len(order)]
        bit = 1 << cell
        self.bits[mark] &= ~bit
        self.occupied &= ~bit
        counts = self.counts[mark]
        for line in self.geometry.lines_through[cell]:
            counts[line] -= 1
        if made:
            self.scores[mark] -= len(made)
            self.winner = None
        return cell

    def is_over(self) -> bool:
        return self.winner is not None or self.occupied == self.geometry.full_mask

    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on: a side reached the target, or the
        board is full and the top score wins (a tie at the top is a draw)."""
        if self.winner is not None:
            return Outcome(self.winner, False, self.lines_of(self.winner))
        if self.occupied != self.geometry.full_mask:
            return None
        top = max(self.scores)
        leaders = [mark for mark in self.sides if self.scores[mark] == top]
        if len(leaders) > 1:
            return Outcome(None, True, NOTHING)
        return Outcome(leaders[0], True, self.lines_of(leaders[0]))

    def lines_of(self, mark: Mark) -> tuple[int, ...]:
        """The lines `mark` has completed, in the order it completed them."""
        return tuple(
            line
            for ply, made in enumerate(self.completed)
            if self.mover(ply) is mark
            for line in made
        )

    @property
    def last_cell(self) -> int | None:
        """The cell of the most recent move, passes skipped; None before the first."""
        return next((cell for cell in reversed(self.moves) if cell != PASS), None)

    def winning_cells(self, mark: Mark) -> list[int]:
        """Empty cells where `mark` would complete a line at once, in ascending order."""
        mine = self.bits[mark]
        return list(iter_bits(winning_mask(mine, self.occupied & ~mine, self.geometry)))

    def completed_by(self, cell: int) -> int:
        """How many lines the side to move would complete on `cell`, an empty cell: those
        through it that hold all their other cells already."""
        counts = self.counts[self.turn]
        short = self.geometry.size - 1
        return sum(counts[line] == short for line in self.geometry.lines_through[cell])


def winning_mask(me: int, you: int, geometry: Geometry = CUBE) -> int:
    """Bitboard of the empty cells where `me` would complete a line now (`you`: every other
    side's stones)."""
    return open_line_cells(me, you, geometry.size - 1, geometry)


def open_line_cells(me: int, you: int, stones: int, geometry: Geometry = CUBE) -> int:
    """Bitboard of the empty cells of the lines that hold `stones` of `me`'s and none of
    `you`'s."""
    cells = 0
    for mask in geometry.line_masks:
        if not you & mask and (me & mask).bit_count() == stones:
            cells |= mask & ~me
    return cells


def iter_bits(bits: int) -> Iterator[int]:
    """The set bits of a bitboard, lowest first."""
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low
