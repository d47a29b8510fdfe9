"""Level shrewd: a shallow max-n search on the score, for any number of sides and any target.

In a scoring game a forced line is a point, not the game, and with three or four sides any
other side may block it; the threat searches assume neither. Shrewd looks a round of moves
ahead instead: it plays its most promising candidates, then the next sides' most promising
replies, and so on for DEPTH moves, and values each position for every side by the lines that
side alone holds: a completed line is a point (POINT), a line one cell short SHARE of a point,
two short SHARE**2, and so on; where the search stops, the side to move is credited with the
lines it can complete at once. A gain counts for less the later it comes (DISCOUNT), so a
point now beats the same point later. Each side is taken to play for its own value less the
best of the others' (max-n; with two sides, plain minimax), and reaching the target ends the
search. The values are kept up to date move by move from the board's line counts, so the
search never recounts a position.
"""

from __future__ import annotations

import random

from qubic.core.board import Board, Mark
from qubic.players.base import Reply, new_seed, position_rng
from qubic.search.budget import clock
from qubic.search.threats import OutOfBudget

DEPTH = 4  # moves looked ahead: ours and the next sides' replies
WIDTHS = (8, 5, 4, 3)  # candidates searched at each depth, best first
POINT = 100.0  # a completed line
SHARE = 0.3  # a line one cell short is worth SHARE of a point, two short SHARE**2, ...
WIN = 1e9  # reaching the target
DISCOUNT = 0.5  # a gain one move later counts half: a point now beats the same point later
URGENT = 100  # candidates: how much more completing or blocking a line counts
SECONDS = 0.8  # a move never takes longer: the search keeps the best found so far


class ShrewdPlayer:
    """Max-n over the best few candidates at each depth; reproducible by seed within time."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = new_seed(seed)

    def choose(self, board: Board, seconds: float | None = None) -> Reply:
        search = Search(board, clock() + (SECONDS if seconds is None else seconds))
        return Reply(search.best(position_rng(self.seed, board)))


class Search:
    """One decision's search on `board` (left as it was found)."""

    def __init__(self, board: Board, deadline: float) -> None:
        self.board = board
        self.deadline = deadline
        size = board.geometry.size
        self.weights = [0.0] + [POINT * SHARE ** (size - k) for k in range(1, size + 1)]
        self.values = [self._value(mark) for mark in board.sides]

    def best(self, rng: random.Random) -> int:
        """The move for the side to move: the best for it after DEPTH moves, among equals
        the one `rng` picks; when time runs out, the best found so far."""
        board = self.board
        mark = board.turn
        ranked = self._candidates(WIDTHS[0])
        best: list[int] = []
        top = -float("inf")
        for cell in ranked:
            try:
                values = self._after(cell, 1)
            except OutOfBudget:
                break
            utility = _utility(values, mark)
            if utility > top:
                top, best = utility, [cell]
            elif utility == top:
                best.append(cell)
        return rng.choice(best) if best else ranked[0]

    def _after(self, cell: int, depth: int) -> list[float]:
        """Every side's value after `cell` is played and the search goes on below it."""
        board = self.board
        mover = board.turn
        # Later gains count for less, so that a point now beats the same point later.
        changes = [(mark, change * DISCOUNT**depth) for mark, change in self._changes(cell, mover)]
        for mark, change in changes:
            self.values[mark] += change
        board.push(cell)
        try:
            if board.winner is not None:
                win = WIN - depth  # the sooner the better
                return [win if mark is board.winner else -win for mark in board.sides]
            if depth == DEPTH or board.is_over():
                if clock() > self.deadline:
                    raise OutOfBudget
                return self._leaf()
            mark = board.turn
            best: list[float] | None = None
            for reply in self._candidates(WIDTHS[depth]):
                values = self._after(reply, depth + 1)
                if best is None or _utility(values, mark) > _utility(best, mark):
                    best = values
            assert best is not None
            return best
        finally:
            board.pop()
            for mark, change in changes:
                self.values[mark] -= change

    def _leaf(self) -> list[float]:
        """Every side's value where the search stops, the side to move credited with the
        lines it can complete at once on its best cell (it is its turn: they are points)."""
        board = self.board
        values = list(self.values)
        cells = board.winning_cells(board.turn)
        if cells:
            values[board.turn] += (
                max(map(board.completed_by, cells))
                * (self.weights[-1] - self.weights[-2])
                * DISCOUNT ** (DEPTH + 1)
            )
        return values

    def _candidates(self, width: int) -> list[int]:
        """The `width` most promising moves for the side to move: what they add to its own
        lines plus what they take from the others', a line completed or blocked one cell
        short first of all."""
        board = self.board
        mark = board.turn
        urgent = self.weights[-2]
        gains = {}
        for cell in board.legal_moves():
            gains[cell] = sum(
                abs(change) * (URGENT if abs(change) >= urgent else 1)
                for _, change in self._changes(cell, mark)
            )
        return sorted(gains, key=lambda c: -gains[c])[:width]

    def _changes(self, cell: int, mover: Mark) -> list[tuple[Mark, float]]:
        """How each side's value changes when `mover` plays `cell`: a line `mover` alone
        holds (or an empty one) grows, a line one other side alone holds dies."""
        board = self.board
        weights = self.weights
        counts = board.counts
        sides = board.sides
        changes = []
        for line in board.geometry.lines_through[cell]:
            holders = [mark for mark in sides if counts[mark][line]]
            if not holders or holders == [mover]:
                k = counts[mover][line]
                changes.append((mover, weights[k + 1] - weights[k]))
            elif len(holders) == 1:
                other = holders[0]
                changes.append((other, -weights[counts[other][line]]))
        return changes

    def _value(self, mark: Mark) -> float:
        """`mark`'s value counted from scratch: the weights of the lines it alone holds."""
        board = self.board
        others = board.occupied & ~board.bits[mark]
        return sum(
            self.weights[board.counts[mark][index]]
            for index, mask in enumerate(board.geometry.line_masks)
            if not others & mask
        )


def _utility(values: list[float], mark: Mark) -> float:
    """What `mark` plays for: its own value less the best of the others'."""
    return values[mark] - max(value for side, value in enumerate(values) if side != mark)
