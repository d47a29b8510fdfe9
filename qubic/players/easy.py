"""Level easy: a beginner's opponent, the guide's player with lapses."""

from __future__ import annotations

from qubic.core.board import Board
from qubic.players.base import Reply, new_seed, position_rng
from qubic.search.scoring import in_turn, score_cells

OVERLOOK = 0.35  # easy's chance of not looking for a win, and separately for a block
CHOICES = 5  # how many of the best cells easy picks from


class EasyPlayer:
    """A beginner's opponent: now and then misses a win or a block, and picks among good cells.
    `overlook` and `choices` make it more careless (the ladder's step below easy)."""

    def __init__(
        self, seed: int | None = None, overlook: float = OVERLOOK, choices: int = CHOICES
    ) -> None:
        self.seed = new_seed(seed)
        self.overlook = overlook
        self.choices = choices

    def choose(self, board: Board, seconds: float | None = None) -> Reply:
        rng = position_rng(self.seed, board)
        mark = board.turn
        for side in in_turn(board):
            cells = board.winning_cells(side)
            if cells and rng.random() >= self.overlook:
                return Reply(cells[0])
        scores = score_cells(board, mark)
        ranked = sorted(scores, key=lambda c: (-scores[c], c))[: self.choices]
        weights = [len(ranked) - i for i in range(len(ranked))]
        return Reply(rng.choices(ranked, weights)[0])
