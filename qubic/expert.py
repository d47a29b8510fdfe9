"""Level expert: hard, plus a proof search over quiet moves that threaten a forced win.

A quiet move that would leave us a forced win by threats if the opponent did nothing is a
*setup*: the opponent must spend its move refuting it. Expert proves wins made of setups and
threats, trying every refutation (an AND/OR search, deepened one setup at a time inside the
budget, with a table of refuted positions). It ranks its candidate moves the way hard does,
then plays the first after which the opponent has no such win of its own.
"""

from __future__ import annotations

import contextlib
import random
import sys
import time

from qubic.board import Board, iter_bits
from qubic.hard import FULL, defences, defend, forced_move, quiet_ranking
from qubic.heuristic import position_rng, score_cells
from qubic.player import Reply
from qubic.threats import (
    LINE_MASKS,
    OutOfBudget,
    ThreatSearch,
    lowest,
    new_threats,
    still_forces,
    winning_cells,
)

NODES = 1_000_000  # threat-search positions per move: a few seconds here, and reproducible
SECONDS = 4.5  # never more than this, whatever the nodes (the cap is 5 s)
ATTACK_SHARE = 0.4  # of the budget, at most this much looking for our own setup wins
MAX_SETUPS = 4  # deepest number of own setups searched
DEEP_CHECKS = 3  # moves checked for the opponent's wins with two setups
DEEP_NODES = 150_000  # threat-search positions for each such check


class SetupSearch:
    """Forced wins whose attacker moves are threats or setups, proved against every reply."""

    def __init__(self, threats: ThreatSearch) -> None:
        self.threats = threats
        self._refuted: dict[tuple[int, int], int] = {}

    def forced_win(self, me: int, you: int, max_setups: int = MAX_SETUPS,
                   nodes: int | None = None, seconds: float | None = None) -> int | None:
        """A first move that wins by force for `me` to move with at most `max_setups` setups,
        fewest setups first; None if there is none. Raises OutOfBudget when `nodes` more
        threat-search positions, `seconds`, or the threat search's own budget run out first."""
        self._node_limit = sys.maxsize if nodes is None else self.threats.nodes + nodes
        self._deadline = None if seconds is None else time.perf_counter() + seconds
        for setups in range(0, max_setups + 1):
            move = self._attack(me, you, setups)
            if move is not None:
                return move
        return None

    def _attack(self, me: int, you: int, setups: int) -> int | None:
        if self.threats.nodes > self._node_limit or (
                self._deadline is not None and time.perf_counter() > self._deadline):
            raise OutOfBudget
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
            block = new_threats(mine, you, cell)
            if block:
                # A threat: its block is forced, and the setups after it decide.
                if self._attack(mine, you | block, setups) is not None:
                    return cell
                continue
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

    def __init__(self, seed: int | None = None) -> None:
        self.seed = random.randrange(2**32) if seed is None else seed

    def choose(self, board: Board, seconds: float | None = None) -> Reply:
        if seconds is None:
            threats = ThreatSearch(NODES, SECONDS)
            share: Share = (int(NODES * ATTACK_SHARE), None)
        else:
            threats = ThreatSearch(seconds=seconds)
            share = (None, seconds * ATTACK_SHARE)
        return Reply(decide(board, threats, share, self.seed))


Share = tuple[int | None, float | None]  # nodes and seconds for a setup search


def decide(board: Board, threats: ThreatSearch, share: Share, seed: int) -> int:
    """The expert level's move for the side to move (the board is not changed); `share` is
    the part of the budget our own setup search may use."""
    me, you = board.bits[board.turn], board.bits[board.turn.other]
    scores = score_cells(board, board.turn)
    ranked = sorted(scores, key=lambda c: -scores[c])
    setups = SetupSearch(threats)
    try:
        move, threat = forced_move(threats, me, you)
        if move is not None:
            return move
        if threat:
            candidates = safe_defences(threats, me, you, ranked, threat)
            if not candidates:
                return defend(threats, me, you, ranked, threat)
        else:
            with contextlib.suppress(OutOfBudget):
                move = setups.forced_win(me, you, MAX_SETUPS, *share)
                if move is not None:
                    return move
            candidates = quiet_ranking(threats, me, you, scores, position_rng(seed, board))
    except OutOfBudget:
        return ranked[0]
    return safest(setups, me, you, candidates)


def safe_defences(threats: ThreatSearch, me: int, you: int, ranked: list[int],
                  threat: list[int]) -> list[int]:
    """hard's defences against the opponent's forced win `threat`, those that hold first; as
    many as the budget finds."""
    found = []
    with contextlib.suppress(OutOfBudget):
        for defence in defences(threats, me, you, ranked, threat):
            found.append(defence)
    return [c for c, holding in found if holding] + [c for c, holding in found if not holding]


def safest(setups: SetupSearch, me: int, you: int, candidates: list[int]) -> int:
    """Of `candidates` (best first), the first after which the opponent has no forced win
    with two setups, among the first few with none with one setup; else the first with none
    with one setup; else the first candidate. Unfinished searches count as wins."""
    safe: list[int] = []
    with contextlib.suppress(OutOfBudget):
        for cell in candidates:
            if setups.forced_win(you, me | 1 << cell, 1) is None:
                safe.append(cell)
                if len(safe) == DEEP_CHECKS:
                    break
    for cell in safe:
        with contextlib.suppress(OutOfBudget):
            if setups.forced_win(you, me | 1 << cell, 2, DEEP_NODES) is None:
                return cell
    return safe[0] if safe else candidates[0]
