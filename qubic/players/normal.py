"""Level normal: the guide's machine. It wins at once when it can and blocks an immediate win
(in a scoring game: completes a line when it can); otherwise it plays the best-scoring cell
(`qubic.search.scoring`), ties broken at random."""

from __future__ import annotations

from qubic.core.board import Board
from qubic.players.base import Reply, new_seed, position_rng
from qubic.search.scoring import score_cells, urgent_move


class NormalPlayer:
    """The guide's player: takes wins, blocks wins, else the best-scoring cell (ties at random)."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = new_seed(seed)

    def choose(self, board: Board, seconds: float | None = None) -> Reply:
        urgent = urgent_move(board)
        if urgent is not None:
            return Reply(urgent)
        scores = score_cells(board, board.turn)
        best = max(scores.values())
        return Reply(
            position_rng(self.seed, board).choice([c for c, s in scores.items() if s == best])
        )
