"""Level expert: hard, plus a proof search over quiet moves that threaten a forced win.

A quiet move that would leave us a forced win by threats if the opponent did nothing is a
*setup*: the opponent must spend its move refuting it. Expert proves wins made of setups,
trying every refutation (an AND/OR search, deepened one setup at a time inside the time budget,
with a table of refuted positions), and defends against the opponent's such wins the way hard
defends against chains of threats. The rest is hard's play.
"""

from __future__ import annotations

import random
import time

from qubic.board import Board, iter_bits
from qubic.hard import FULL, best_quiet, chances, defend, holds, is_safe
from qubic.heuristic import position_rng, score_cells
from qubic.player import Reply
from qubic.threats import (
    LINE_MASKS,
    OutOfTime,
    ThreatSearch,
    lowest,
    new_threats,
    still_forces,
    winning_cells,
)

SECONDS = 4.0  # default thinking budget per move (the cap is 5 s)
ATTACK_SHARE = 0.5  # of the budget, at most this much looking for our own setup wins
MAX_SETUPS = 4  # deepest number of own setups searched


class SetupSearch:
    """Forced wins whose attacker moves are threats or setups, proved against every reply."""

    def __init__(self, threats: ThreatSearch) -> None:
        self.threats = threats
        self._refuted: dict[tuple[int, int], int] = {}

    def forced_win(self, me: int, you: int, max_setups: int = MAX_SETUPS,
                   deadline: float | None = None) -> int | None:
        """A first move that wins by force for `me` to move with at most `max_setups` setups,
        fewest setups first; None if none was found before `deadline`. Raises OutOfTime when
        the threat search's own deadline passes."""
        for setups in range(0, max_setups + 1):
            if deadline is not None and time.perf_counter() > deadline:
                return None
            move = self._attack(me, you, setups)
            if move is not None:
                return move
        return None

    def _attack(self, me: int, you: int, setups: int) -> int | None:
        line = self.threats.forced_win(me, you, shortest=False)
        if line is not None:
            return line[0]
        if setups == 0 or self._refuted.get((me, you), -1) >= setups:
            return None
        theirs = winning_cells(you, me)
        if theirs & (theirs - 1):
            return None
        for cell in self._setup_candidates(me, you, theirs):
            mine = me | 1 << cell
            if new_threats(mine, you, cell):
                continue  # a threat and its block belong to the threat search
            threat = self.threats.forced_win(mine, you, shortest=False)
            if threat is not None and self._refutations_fail(mine, you, threat, setups - 1):
                return cell
        self._refuted[(me, you)] = setups
        return None

    def _setup_candidates(self, me: int, you: int, theirs: int) -> list[int]:
        """Empty cells that could help a chain of ours: on a line we hold and they do not."""
        if theirs:
            return [lowest(theirs)]
        cells = 0
        for mask in LINE_MASKS:
            if me & mask and not you & mask:
                cells |= mask
        return list(iter_bits(cells & ~(me | you) & FULL))

    def _refutations_fail(self, me: int, you: int, threat: list[int], setups: int) -> bool:
        """With the opponent to move against our `threat`, every reply loses: it wins nothing
        by force itself, and after each reply that refutes the threat we still win."""
        if self.threats.forced_win(you, me, shortest=False) is not None:
            return False
        for cell in iter_bits(~(me | you) & FULL):
            yours = you | 1 << cell
            if still_forces(threat, me, yours):
                continue
            if self._attack(me, yours, setups) is None:
                return False
        return True


class ExpertPlayer:
    """Hard's play plus setup wins and setup defence; reproducible by seed within budget."""

    def __init__(self, seed: int | None = None, seconds: float = SECONDS) -> None:
        self.seed = random.randrange(2**32) if seed is None else seed
        self.seconds = seconds

    def choose(self, board: Board, seconds: float | None = None) -> Reply:
        budget = self.seconds if seconds is None else seconds
        start = time.perf_counter()
        threats = ThreatSearch(start + budget)
        return Reply(decide(board, threats, start + budget * ATTACK_SHARE, self.seed))


def decide(board: Board, threats: ThreatSearch, attack_deadline: float, seed: int) -> int:
    """The expert level's move for the side to move (the board is not changed)."""
    me, you = board.bits[board.turn], board.bits[board.turn.other]
    urgent = winning_cells(me, you) or winning_cells(you, me)
    if urgent:
        return lowest(urgent)
    scores = score_cells(board, board.turn)
    ranked = sorted(scores, key=lambda c: -scores[c])
    setups = SetupSearch(threats)
    try:
        line = threats.forced_win(me, you)
        if line:
            return line[0]
        threat = threats.forced_win(you, me)
        if threat:
            holding = [c for c in ranked if is_safe(threats, me, you, c)
                       and holds(threats, me, you, c)]
            if not holding:
                return defend(threats, me, you, ranked, threat)
            return fewest_chances(threats, me, you, holding)
        move = setups.forced_win(me, you, deadline=attack_deadline)
        if move is not None:
            return move
        if setups.forced_win(you, me, 1, deadline=attack_deadline) is not None:
            stopping = [c for c in ranked if setups.forced_win(you, me | 1 << c, 1) is None]
            if stopping:
                return fewest_chances(threats, me, you, stopping)
    except OutOfTime:
        return ranked[0]
    return best_quiet(threats, me, you, scores, position_rng(seed, board))


def fewest_chances(threats: ThreatSearch, me: int, you: int, candidates: list[int]) -> int:
    """Of `candidates` (best first), the one after which the opponent has the fewest replies
    that set up a forced win; the earliest on ties, and the best so far when time runs out."""
    best, fewest = candidates[0], None
    try:
        for cell in candidates:
            count = chances(threats, me | 1 << cell, you)
            if fewest is None or count < fewest:
                best, fewest = cell, count
    except OutOfTime:
        pass
    return best
