"""The ladder's steps below hard: players whose weaknesses are a person's.

A person sees the lines within a level (rows, columns, the level's diagonals) best, the lines
through the levels (pillars and the diagonals of the upright slices) less often, and the space
diagonals least. Each move, a step notices each line with the chance its `Habits` give for the
line's kind, and weighs its quiet moves by the guide's scoring over the lines it noticed only.
Every step sees every line one stone short, its own or the opponent's: none leaves a win in
one or an opponent's three unanswered (the two lowest steps, starter and easy, do:
`EasyPlayer`). Stronger steps look for forced wins by threats of bounded length, and for the
opponent's, which they stop.
Everything is drawn from the seed and the position, and searches are bounded in positions.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

from qubic.core.board import Board, winning_mask
from qubic.core.geometry import Geometry
from qubic.players.base import Reply, new_seed, position_rng
from qubic.search.defence import defend
from qubic.search.scoring import score_cells
from qubic.search.threats import OutOfBudget, ThreatSearch, lowest

SECONDS = 1.5  # a safety cap on a move's searches; their nodes bound them long before
# The kinds of line, by the geometry's family names, in the order of `Habits.notice`.
KINDS = {
    "row": 0,
    "column": 0,
    "level diagonal": 0,
    "pillar": 1,
    "column-slice diagonal": 1,
    "row-slice diagonal": 1,
    "space diagonal": 2,
}


@dataclass(frozen=True)
class Habits:
    """How a step plays: what it notices, how far it searches, how loosely it chooses."""

    notice: tuple[float, float, float]  # chance of noticing a line: in a level, through, space
    threats: int = 0  # own threat moves in the forced wins it looks for (0: it looks for none)
    defends: bool = False  # looks for the opponent's forced wins too, and stops them
    nodes: int = 0  # threat-search positions a move
    choices: int = 1  # quiet moves it picks among, the best more often
    corners: int = 0  # stones before which it keeps to the corners and centre (hard: 12)


class HumanPlayer:
    """A step of the ladder: `Habits` played reproducibly from a seed (QUBIC only)."""

    def __init__(self, habits: Habits, seed: int | None = None) -> None:
        self.habits = habits
        self.seed = new_seed(seed)

    def choose(self, board: Board, seconds: float | None = None) -> Reply:
        habits = self.habits
        rng = position_rng(self.seed, board)
        geometry = board.geometry
        seen = noticed(geometry, habits.notice, rng)
        me, you = board.pair()
        urgent = winning_mask(me, you, geometry) or winning_mask(you, me, geometry)
        if urgent:
            return Reply(lowest(urgent))
        scores = score_cells(board, board.turn, seen)
        ranked = sorted(scores, key=lambda c: (-scores[c], c))
        threats = ThreatSearch(habits.nodes, SECONDS if seconds is None else seconds, geometry)
        if habits.threats:
            move = self.search(threats, me, you, ranked)
            if move is not None:
                return Reply(move)
        key = geometry.key_cells
        if (me | you).bit_count() < habits.corners and key & scores.keys():
            ranked = [cell for cell in ranked if cell in key]
        picks = ranked[: habits.choices]
        return Reply(rng.choices(picks, [len(picks) - i for i in range(len(picks))])[0])

    def search(self, threats: ThreatSearch, me: int, you: int, ranked: list[int]) -> int | None:
        """The start of a forced win by threats, else the stop of the opponent's (if the step
        defends), within its bounds; None when it finds neither."""
        habits = self.habits
        try:
            line = threats.forced_win(me, you, habits.threats, shortest=False)
            if line is not None:
                return line[0]
            if not habits.defends:
                return None
            threat = threats.forced_win(you, me, habits.threats, shortest=False)
        except OutOfBudget:
            return None
        return None if threat is None else defend(threats, me, you, ranked, threat)


def noticed(geometry: Geometry, notice: tuple[float, float, float], rng: random.Random) -> int:
    """A bit per line (by index) that is noticed this move, each with its kind's chance."""
    seen = 0
    for index, kind in enumerate(line_kinds(geometry)):
        if rng.random() < notice[kind]:
            seen |= 1 << index
    return seen


@cache
def line_kinds(geometry: Geometry) -> tuple[int, ...]:
    """Each line's kind: 0 within a level, 1 through the levels, 2 a space diagonal."""
    return tuple(KINDS.get(line.family, 2) for line in geometry.lines)
