"""Level perfect: as X, the proof's strategy; as O, expert's play, checked by the prover.

As X it wins at once if it can, else blocks, else plays the strategy book's move, else its
forced win by threats; from the empty cube that never loses (the verifier walks every line).
Off the strategy (a game it joined late, as after a change of level) it plays as expert. As
O the game is lost against perfect play, so it resists: it keeps expert's move unless a
short proof search shows that move loses, or leaves it open while another move is shown to
hold against X's best moves. Every move (one of each class under the position's symmetries)
is first tested for X's forced win by threats, which is how most moves lose; those that pass
get the short search, expert's first. A move shown to hold is played at once, one left open
next, and when every move is shown lost, the one whose proof took longest to find. Past
expert's own move, it starts no more checks once two seconds have passed (or the time limit
has), so a move takes about that much longer than expert's.
"""

from __future__ import annotations

import random
import time

from qubic import strategy
from qubic.board import Board
from qubic.expert import ExpertPlayer
from qubic.geometry import CUBE, Orientation
from qubic.hard import forced_move
from qubic.heuristic import score_cells
from qubic.player import Reply
from qubic.prover import DISPROVED, PROVED, Prover
from qubic.symmetry import orbit_representatives, stabilizer
from qubic.threats import OutOfBudget, ThreatSearch, lowest, winning_cells

THREAT_NODES = 200_000  # the threat search's reach for X's forced wins (the solver's is less)
REFUTE_NODES = 2_000  # df-pn expansions spent on each of O's candidate moves
CHECK_SECONDS = 2.0  # after expert's move, O starts no more checks once this has passed


def x_move(x: int, o: int, book: strategy.Entries,
           orientation: Orientation | None = None) -> tuple[int, str] | None:
    """X's move by the strategy and why: 'win', 'block', 'book' or 'threats'; None when the
    strategy has no move here. `orientation`: `CUBE.orient(x, o)`, if the caller has it."""
    wins = winning_cells(x, o)
    if wins:
        return lowest(wins), "win"
    theirs = winning_cells(o, x)
    if theirs:
        return lowest(theirs), "block"
    cell = strategy.lookup(book, x, o, orientation)
    if cell is not None:
        return cell, "book"
    try:
        line = ThreatSearch(THREAT_NODES).forced_win(x, o, shortest=False)
    except OutOfBudget:
        return None
    return (line[0], "threats") if line else None


class PerfectPlayer:
    """The strategy book for the side that moved first, expert checked by the prover for
    the other (the proof's X and O: in the console the machine may be either)."""

    def __init__(self, seed: int | None = None, book: strategy.Entries | None = None) -> None:
        self.seed = random.randrange(2**32) if seed is None else seed
        self.book = strategy.shipped() if book is None else book
        self.expert = ExpertPlayer(self.seed)
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
        move's check finds X's best moves failing. No check starts once CHECK_SECONDS have
        passed since expert's move (or `seconds` since `start`), but expert's move is always
        tested for X's forced win by threats."""
        move = self.expert.choose(board, seconds).cell
        deadline = time.perf_counter() + CHECK_SECONDS if seconds is None else start + seconds
        me, you = board.bits[board.turn], board.bits[board.first]
        if called_for(me, you):
            return move  # a win, a block or our own forced win: nothing to weigh
        prover = Prover()
        lost: dict[int, int] = {}  # moves shown lost -> the expansions that took
        still_open: list[int] = []  # moves neither shown lost nor safe, expert's first

        def check(cell: int, nodes: int) -> bool:
            """Search `cell` for `nodes` expansions; True when it is shown to hold."""
            result = prover.prove(you, me | 1 << cell, nodes)
            if result.status == PROVED:
                lost[cell] = lost.get(cell, 0) + result.expanded
            return result.status == DISPROVED

        # Most moves lose at once to a forced win by threats: every class of moves gets that
        # test alone first (it is cheap), and the time left goes to those that pass it.
        group = stabilizer(CUBE, you, me)
        images = {symmetry[move] for symmetry in group}
        scores = score_cells(board, board.turn)
        others = [cell for cell in orbit_representatives(CUBE.full_mask & ~(me | you), group)
                  if cell not in images]
        others.sort(key=lambda cell: -scores[cell])
        survivors = []
        for cell in [move, *others]:
            if cell != move and time.perf_counter() > deadline:
                break
            if check(cell, 1):
                return cell
            if cell not in lost:
                survivors.append(cell)
        for cell in survivors:
            if time.perf_counter() < deadline and check(cell, REFUTE_NODES - 1):
                return cell
            if cell not in lost:
                still_open.append(cell)
        if still_open:
            return still_open[0]
        return max(lost, key=lambda cell: lost[cell])


def called_for(me: int, you: int, nodes: int = 20_000) -> bool:
    """Whether the position calls for a move (a win, a block, or our forced win by threats
    found within `nodes` positions), which expert then plays: nothing to weigh."""
    try:
        return forced_move(ThreatSearch(nodes), me, you)[0] is not None
    except OutOfBudget:
        return False
