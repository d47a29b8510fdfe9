"""Level perfect: as X, the proof's strategy; as O, expert's second player, vetted further.

As X it wins at once if it can, else blocks, else plays the strategy book's move, else its
forced win by threats; from the empty cube that never loses (the verifier walks every line).
Off the strategy (a game it joined late, as after a change of level) it plays as expert. As
O the game is lost against perfect play, so it resists: it plays as expert moving second
(the least exposed of the moves that stop X's forced win), with the prover vetting more of
the best moves, longer (`VET`). Its budgets are counts, so its moves do not depend on how
busy the computer is.
"""

from __future__ import annotations

from qubic.core.board import Board
from qubic.core.geometry import CUBE
from qubic.players.base import Reply, new_seed
from qubic.players.expert import SECOND_NODES, SECONDS, ExpertPlayer, Vetting, second_move
from qubic.search import strategy
from qubic.search.strategy import x_move
from qubic.search.threats import ThreatSearch

VET = Vetting(64, 6, 5_000)  # as O: every quiet move measured, more of them proved


class PerfectPlayer:
    """The strategy book for the side that moved first, expert's second player vetted
    further for the other (the proof's X and O: in the console the machine may be either)."""

    def __init__(self, seed: int | None = None, book: strategy.Entries | None = None) -> None:
        self.seed = new_seed(seed)
        self.book = strategy.shipped() if book is None else book
        self.expert = ExpertPlayer(self.seed)
        CUBE.orient(0, 0)  # builds the symmetry tables now, not in the first move's time

    def choose(self, board: Board, seconds: float | None = None) -> Reply:
        if board.geometry is CUBE:
            first, second = board.bits[board.first], board.bits[board.first.other]
            if board.turn is not board.first:
                search = ThreatSearch(
                    SECOND_NODES if seconds is None else None,
                    SECONDS if seconds is None else seconds,
                    board.geometry,
                )
                return Reply(second_move(board, search, self.seed, VET))
            move = x_move(first, second, self.book)
            if move is not None:
                return Reply(move[0])
        return self.expert.choose(board, seconds)
