"""Level perfect: as X, the proof's strategy; as O, expert's play, checked by the prover.

As X it wins at once if it can, else blocks, else plays the strategy book's move, else its
forced win by threats; from the empty cube that never loses (the verifier walks every line).
Off the strategy (a game it joined late, as after a change of level) it plays as expert. As
O the game is lost against perfect play, so it resists: it keeps expert's move unless a
short proof search shows that move lost, or leaves it open while another move is shown to
hold against X's best moves. It weighs one move of each class under the position's
symmetries, expert's first, by `prover.least_lost`; expert's own vetting of its candidates,
a cheaper subset of that, is off. No check starts two seconds after expert's move or five
seconds after the move began, whichever comes first (or once the time limit has passed).
"""

from __future__ import annotations

import time

from qubic.core.board import Board
from qubic.core.geometry import CUBE
from qubic.core.symmetry import orbit_representatives, stabilizer
from qubic.players.base import Reply, new_seed
from qubic.players.expert import ExpertPlayer
from qubic.search import strategy
from qubic.search.defence import forced_move
from qubic.search.prover import least_lost
from qubic.search.scoring import score_cells
from qubic.search.strategy import x_move
from qubic.search.threats import OutOfBudget, ThreatSearch

CHECK_SECONDS = 2.0  # as O, no check starts this long after expert's move...
MOVE_SECONDS = 5.0  # ...or this long after the move began, whichever comes first


class PerfectPlayer:
    """The strategy book for the side that moved first, expert checked by the prover for
    the other (the proof's X and O: in the console the machine may be either)."""

    def __init__(self, seed: int | None = None, book: strategy.Entries | None = None) -> None:
        self.seed = new_seed(seed)
        self.book = strategy.shipped() if book is None else book
        self.expert = ExpertPlayer(self.seed, vet=False)  # `_resist` weighs every move itself
        CUBE.orient(0, 0)  # builds the symmetry tables now, not in the first move's time

    def choose(self, board: Board, seconds: float | None = None) -> Reply:
        if board.geometry is CUBE:
            first, second = board.bits[board.first], board.bits[board.first.other]
            if board.turn is not board.first:
                return Reply(self._resist(board, seconds, time.perf_counter()))
            move = x_move(first, second, self.book)
            if move is not None:
                return Reply(move[0])
        return self.expert.choose(board, seconds)

    def _resist(self, board: Board, seconds: float | None, start: float) -> int:
        """Expert's move, unless the prover shows it lost or leaves it open while another
        move's check finds X's best moves failing (`least_lost`, expert's move first, then
        one move of each other class by heuristic score). No check starts CHECK_SECONDS after
        expert's move or MOVE_SECONDS after `start`, whichever comes first (or `seconds` after
        `start`, when given)."""
        move = self.expert.choose(board, seconds).cell
        deadline = (
            min(time.perf_counter() + CHECK_SECONDS, start + MOVE_SECONDS)
            if seconds is None
            else start + seconds
        )
        me, you = board.bits[board.turn], board.bits[board.first]
        if called_for(me, you):
            return move  # a win, a block or our own forced win: nothing to weigh
        group = stabilizer(CUBE, you, me)
        images = {symmetry[move] for symmetry in group}
        scores = score_cells(board, board.turn)
        others = [
            cell
            for cell in orbit_representatives(CUBE.full_mask & ~(me | you), group)
            if cell not in images
        ]
        others.sort(key=lambda cell: -scores[cell])
        return least_lost(you, me, [move, *others], deadline)


def called_for(me: int, you: int, nodes: int = 20_000) -> bool:
    """Whether the position calls for a move (a win, a block, or our forced win by threats
    found within `nodes` positions), which expert then plays: nothing to weigh."""
    try:
        return forced_move(ThreatSearch(nodes), me, you)[0] is not None
    except OutOfBudget:
        return False
