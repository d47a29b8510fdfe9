"""Level perfect: as X, the proof's strategy; as O, expert's second player, vetted further.

As X it wins at once if it can, else blocks, else plays the strategy book's move, else its
forced win by threats; from the empty cube that never loses (the verifier walks every line).
Off the strategy (a game it joined late, as after a change of level) it plays as expert. As
O the game is lost against perfect play, so it resists: it plays as expert moving second
(the least exposed of the moves that stop X's forced win), with the prover vetting more of
the best moves, longer (`PERFECT`). Where no move stops X's forced win, it plays the move after
which its own strategy for X takes longest to win (`longest_loss`), if X has played that
strategy so far: the proof's X is the perfect play it knows. Its budgets are counts, so its
moves do not depend on how busy the computer is.
"""

from __future__ import annotations

from qubic.core.board import Board, iter_bits
from qubic.core.geometry import CUBE
from qubic.players.base import Reply, new_seed
from qubic.players.expert import (
    SECOND_SECONDS,
    Effort,
    ExpertPlayer,
    Vetting,
    second_move,
)
from qubic.search import strategy
from qubic.search.strategy import ESCAPED, loss_length, x_move
from qubic.search.threats import OutOfBudget, ThreatSearch

# As O: every quiet move measured, more of them proved.
PERFECT = Effort(vet=Vetting(64, 6, 3_000))
LOSS_NODES = 300_000  # threat-search positions for X's play in all the measures of a loss
LOSS_SECONDS = 1.0  # their safety cap


class PerfectPlayer:
    """The strategy book for the side that moved first, expert's second player vetted
    further for the other (the proof's X and O: in the console the machine may be either)."""

    def __init__(
        self,
        seed: int | None = None,
        book: strategy.Entries | None = None,
        effort: Effort = PERFECT,
        known: int = 64,
    ) -> None:
        """`effort` for expert's play, and `known`: the stones up to which it knows the
        strategy (a ladder's step below perfect plays as expert past them)."""
        self.seed = new_seed(seed)
        self.book = strategy.shipped() if book is None else book
        self.effort = effort
        self.known = known
        self.expert = ExpertPlayer(self.seed, effort)
        CUBE.orient(0, 0)  # builds the symmetry tables now, not in the first move's time

    def choose(self, board: Board, seconds: float | None = None) -> Reply:
        if board.geometry is CUBE:
            first, second = board.pair(board.first)
            if board.turn is not board.first:
                search = ThreatSearch(
                    self.effort.second_nodes if seconds is None else None,
                    SECOND_SECONDS if seconds is None else seconds,
                    board.geometry,
                )

                def longest(me: int, you: int) -> int | None:
                    if not self.on_strategy(board):
                        return None
                    return self.longest_loss(me, you, search.budget.seconds_left())

                return Reply(second_move(board, search, self.seed, self.effort, longest))
            move = x_move(first, second, self.book) if len(board.moves) < self.known else None
            if move is not None:
                return Reply(move.cell)
        return self.expert.choose(board, seconds)

    def on_strategy(self, board: Board) -> bool:
        """Whether every move of the first player's so far was the strategy's: only then is
        the strategy the perfect play the first player would go on with."""
        replay = Board(board.variant, board.first)
        for cell in board.moves:
            if replay.turn is replay.first:
                move = x_move(*replay.pair(), self.book)
                if move is None or move.cell != cell:
                    return False
            replay.push(cell)
        return True

    def longest_loss(self, me: int, you: int, seconds: float | None = None) -> int | None:
        """As O with no move that stops X's forced win: the move after which the strategy
        takes X longest to win (`strategy.loss_length`), the lowest cell of the longest; None
        when the strategy does not know the position (some move takes X off it) or the
        budget (LOSS_NODES, and at most `seconds` as well as LOSS_SECONDS) runs out first."""
        cap = LOSS_SECONDS if seconds is None else min(seconds, LOSS_SECONDS)
        search = ThreatSearch(LOSS_NODES, cap)
        lengths: dict[int, int] = {}
        try:
            for cell in iter_bits(CUBE.full_mask & ~(me | you)):
                lengths[cell] = loss_length(you, me | 1 << cell, self.book, search)
        except OutOfBudget:
            return None
        if not lengths or ESCAPED in lengths.values():
            return None
        return max(lengths, key=lengths.__getitem__)
