"""The guide's machine (level normal) and its careless younger sibling (level easy).

Normal wins at once when it can and blocks an immediate win (in a scoring game: completes a
line when it can); otherwise every empty cell is scored
by the lines through it: open lines it joins, how far it advances its own lines, how much it
presses the opponent's, and how central it is.
"""

from __future__ import annotations

import random

from qubic.core.board import Board, Mark
from qubic.players.base import Reply

# Score of a line through the cell, by how many stones the mover (ADVANCE) or the opponent (PRESS)
# already has on it while the other side has none. An empty line is a promising one: ADVANCE[0].
ADVANCE = (1.0, 4.0, 16.0)
PRESS = (0.0, 3.0, 12.0)
FORK = 40.0  # a cell that makes (or would give the opponent) two threes at once
CENTRAL = 0.25  # per line through the cell: corners and centre cells lie on 7, others on 4


def score_cells(board: Board, mark: Mark) -> dict[int, float]:
    """Every empty cell's heuristic score for `mark` to move there. With more than one
    opponent, a line is pressed when one of them alone holds cells on it."""
    geometry = board.geometry
    mine, theirs = board.counts[mark], opponents_counts(board, mark)
    three = geometry.size - 2  # stones on a line one move away from a threat
    scores = {}
    for cell in board.legal_moves():
        score = 0.0
        my_threes = their_threes = 0
        lines = geometry.lines_through[cell]
        for line in lines:
            own, opp = mine[line], theirs[line]
            if opp == 0:
                score += ADVANCE[min(own, 2)]
                my_threes += own == three
            elif own == 0 and opp > 0:
                score += PRESS[min(opp, 2)]
                their_threes += opp == three
        if my_threes >= 2:
            score += FORK
        if their_threes >= 2:
            score += FORK * 0.75
        scores[cell] = score + CENTRAL * len(lines)
    return scores


def opponents_counts(board: Board, mark: Mark) -> list[int]:
    """For each line, how many cells the opponents hold on it, or -1 when more than one of
    them does (a line nobody can complete)."""
    others = [board.counts[side] for side in board.sides if side != mark]
    if len(others) == 1:
        return others[0]
    return [sum(counts) if sum(map(bool, counts)) < 2 else -1 for counts in zip(*others)]


def in_turn(board: Board) -> list[Mark]:
    """The sides in the order they move from now: the side to move first."""
    ply = len(board.moves)
    return [board.mover(ply + i) for i in range(len(board.sides))]


def urgent_move(board: Board) -> int | None:
    """A move that completes a line at once, else one that blocks the next side's (then the
    one after's) immediate line, else None.

    In a scoring game a blocked line is a point less for one other side, no more than a
    line of one's own is: only completing lines is urgent there, the cell completing the most
    first (measured, this turns normal's lead over easy in the tesseract from 16-8 to 20-4)."""
    if board.variant.scoring:
        cells = board.winning_cells(board.turn)
        return max(cells, key=lambda cell: completed_by(board, cell)) if cells else None
    for side in in_turn(board):
        cells = board.winning_cells(side)
        if cells:
            return cells[0]
    return None


def completed_by(board: Board, cell: int) -> int:
    """How many lines the side to move would complete on `cell`."""
    mark = board.turn
    others = board.occupied & ~board.bits[mark]
    lines = board.geometry.lines_through[cell]
    full = board.geometry.size - 1
    return sum(
        board.counts[mark][line] == full and not others & board.geometry.line_masks[line]
        for line in lines
    )


class NormalPlayer:
    """The guide's player: takes wins, blocks wins, else the best-scoring cell (ties at random)."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = random.randrange(2**32) if seed is None else seed

    def choose(self, board: Board, seconds: float | None = None) -> Reply:
        urgent = urgent_move(board)
        if urgent is not None:
            return Reply(urgent)
        scores = score_cells(board, board.turn)
        best = max(scores.values())
        return Reply(
            position_rng(self.seed, board).choice([c for c, s in scores.items() if s == best])
        )


class EasyPlayer:
    """A beginner's opponent: now and then misses a win or a block, and picks among good cells."""

    OVERLOOK = 0.35  # chance of not looking for a win, and separately for a block
    CHOICES = 5  # how many of the best cells it picks from

    def __init__(self, seed: int | None = None) -> None:
        self.seed = random.randrange(2**32) if seed is None else seed

    def choose(self, board: Board, seconds: float | None = None) -> Reply:
        rng = position_rng(self.seed, board)
        mark = board.turn
        for side in in_turn(board):
            cells = board.winning_cells(side)
            if cells and rng.random() >= self.OVERLOOK:
                return Reply(cells[0])
        scores = score_cells(board, mark)
        ranked = sorted(scores, key=lambda c: (-scores[c], c))[: self.CHOICES]
        weights = [len(ranked) - i for i in range(len(ranked))]
        return Reply(rng.choices(ranked, weights)[0])


def position_rng(seed: int, board: Board) -> random.Random:
    """Randomness that depends only on the seed and the position, so replies are reproducible."""
    return random.Random(":".join(map(str, [seed, *board.bits])))
