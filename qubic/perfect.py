"""Level perfect: as X, the proof's strategy; as O, expert's play, checked by the prover.

As X it wins at once if it can, else blocks, else plays the strategy book's move, else its
forced win by threats; off the book (until the proof is complete, or after a position the proof
never reaches) it plays as expert. As O the game is lost against perfect play, so it resists.
In the opening it plays the defence book's move (`qubic.defence`: this rule with searches 150
times deeper, run offline). Elsewhere it keeps expert's move unless a short proof search shows
that move loses, or leaves it open while another move is shown to hold against X's best moves.
Every move (one of each class under the position's symmetries) is first tested for X's forced
win by threats, which is how most moves lose; those that pass get the short search, expert's
first. A move shown to hold is played at once, one left open next, and when every move is shown
lost, the one whose proof took longest to find. Past expert's own move, it starts no more
checks once two seconds have passed (or the time limit has), so a move takes about that much
longer than expert's.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from qubic import defence, strategy
from qubic.board import Board
from qubic.expert import ExpertPlayer
from qubic.geometry import CUBE
from qubic.hard import forced_move
from qubic.heuristic import score_cells
from qubic.player import Reply
from qubic.prover import DISPROVED, PROVED, Prover, Result
from qubic.symmetry import orbit_representatives, stabilizer
from qubic.threats import OutOfBudget, ThreatSearch, lowest, winning_cells

THREAT_NODES = 200_000  # the threat search's reach for X's forced wins (the solver's is less)
REFUTE_NODES = 2_000  # df-pn expansions spent on each of O's candidate moves
CHECK_SECONDS = 2.0  # after expert's move, O starts no more checks once this has passed


def x_move(x: int, o: int, book: strategy.Entries) -> tuple[int, str] | None:
    """X's move by the strategy and why: 'win', 'block', 'book' or 'threats'; None when the
    strategy has no move here."""
    wins = winning_cells(x, o)
    if wins:
        return lowest(wins), "win"
    theirs = winning_cells(o, x)
    if theirs:
        return lowest(theirs), "block"
    cell = strategy.lookup(book, x, o)
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

    def __init__(self, seed: int | None = None, book: strategy.Entries | None = None,
                 defence_book: strategy.Entries | None = None) -> None:
        self.seed = random.randrange(2**32) if seed is None else seed
        self.book = strategy.shipped() if book is None else book
        self.defence = defence.shipped() if defence_book is None else defence_book
        self.expert = ExpertPlayer(self.seed)

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
        """The defence book's move; else expert's, unless a short proof search shows it lost
        or leaves it open while another move's check finds X's best moves failing. No check
        starts once CHECK_SECONDS have passed since expert's move (or `seconds` since
        `start`), but expert's move is always tested for X's forced win by threats."""
        me, you = board.bits[board.turn], board.bits[board.first]
        cell = strategy.lookup(self.defence, you, me)
        if cell is not None:
            return cell
        move = self.expert.choose(board, seconds).cell
        deadline = time.perf_counter() + CHECK_SECONDS if seconds is None else start + seconds
        if called_for(me, you):
            return move  # a win, a block or our own forced win: nothing to weigh
        prover = Prover()

        def check(cell: int, nodes: int) -> Result:
            return prover.prove(you, me | 1 << cell, nodes)

        return resist(move, other_moves(board, move), check, REFUTE_NODES,
                      lambda: time.perf_counter() < deadline)


def called_for(me: int, you: int, nodes: int = 20_000) -> bool:
    """Whether the position calls for a move (a win, a block, or our forced win by threats
    found within `nodes` positions), which expert then plays: nothing to weigh."""
    try:
        return forced_move(ThreatSearch(nodes), me, you)[0] is not None
    except OutOfBudget:
        return False


def other_moves(board: Board, move: int) -> list[int]:
    """The side to move's moves other than `move`, one of each class under the position's
    symmetries (leaving out `move`'s), best scored first."""
    me, you = board.bits[board.turn], board.bits[board.turn.other]
    group = stabilizer(CUBE, board.bits[board.first], board.bits[board.first.other])
    images = {symmetry[move] for symmetry in group}
    scores = score_cells(board, board.turn)
    others = [cell for cell in orbit_representatives(CUBE.full_mask & ~(me | you), group)
              if cell not in images]
    return sorted(others, key=lambda cell: -scores[cell])


def resist(move: int, others: list[int], check: Callable[[int, int], Result], nodes: int,
           more_time: Callable[[], bool]) -> int:
    """O's most stubborn move among `move` (expert's) and `others`, by the checks
    `check(cell, nodes)` (a proof search for X after O takes `cell`). Every move first gets a
    one-node check, X's forced win by threats, which is how most moves lose; those that pass
    get `nodes`, `move` first. A move shown to hold (X's best moves failing) is played at
    once, one left open next, and when every move is shown lost, the one whose proof took
    longest to find. Past `move`, no check starts once `more_time()` is False."""
    lost: dict[int, int] = {}  # moves shown lost -> the expansions that took
    survivors = []
    for cell in [move, *others]:
        if cell != move and not more_time():
            break
        result = check(cell, 1)
        if result.status == DISPROVED:
            return cell
        if result.status == PROVED:
            lost[cell] = result.expanded
        else:
            survivors.append(cell)
    still_open = []  # moves neither shown lost nor safe, expert's first
    for cell in survivors:
        if more_time():
            result = check(cell, nodes - 1)
            if result.status == DISPROVED:
                return cell
            if result.status == PROVED:
                lost[cell] = 1 + result.expanded
                continue
        still_open.append(cell)
    if still_open:
        return still_open[0]
    return max(lost, key=lambda cell: lost[cell])
