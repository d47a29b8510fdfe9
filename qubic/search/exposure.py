"""How exposed a quiet move leaves us, measured without assuming how the opponent plays.

After our move, every reply of the opponent's is looked at: a quiet reply after which the
opponent has a short forced win by threats (EXPOSED_SETUP) is a *setup*; a setup whose forced
win no move of ours stops (`qubic.search.defence`, looking SETUP_STOP_DEPTH of our turns past
an exchange) is a *lost* reply. Fewer lost replies is better, then fewer setups, then more
*forcing moves* of our own (`forcing_moves`): moves that would win by force if the opponent
let us play twice. These are the second player's measures: they hold against any first
player, from a beginner to a perfect one.
"""

from __future__ import annotations

from dataclasses import dataclass

from qubic.core.board import iter_bits, winning_mask
from qubic.core.geometry import CUBE
from qubic.core.symmetry import orbits, stabilizer
from qubic.search.defence import Defence, candidates, classify, exchange
from qubic.search.threats import ThreatSearch, new_threats

SETUP_DEPTH = 8  # own threat moves looked for after a setup
# Exposure counts the opponent's short forced wins only: this far, a move's candidates are
# mostly all measured within its budget; as far as SETUP_DEPTH, often only the first one or
# two were, and the rest went unmeasured (docs/benchmarks.md, gauntlet.py). A stop to one is
# held to every forced win the threat search finds after it, as deep as MAX_THREATS: looking
# only 8 deep, O lost 16 more of 128 games to hard as X.
EXPOSED_SETUP = 4  # own threat moves of the opponent's forced win that makes a reply a setup
SETUP_STOP_DEPTH = 1  # our turns looked through after an exchange, for a stop to a setup's win
LOST_AT_ONCE = 1000  # the lost replies counted for a move after which the opponent wins at once
SYMMETRIC_STONES = 8  # past this many stones a position is rarely symmetric: not looked for


@dataclass(frozen=True, order=True)
class Exposure:
    """The measures of one move against the opponent's replies, ordered best first."""

    lost: int  # replies after which its forced win by threats cannot be stopped
    setups: int  # quiet replies after which it has a forced win by threats


def count_setups(search: ThreatSearch, me: int, you: int, cell: int) -> int:
    """The opponent's setups after `me` plays `cell`: the cheap half of `exposure`, which
    ranks the moves whose lost replies are counted first. Raises OutOfBudget."""
    found = exposure(search, me, you, cell, count_lost=False)
    assert found is not None
    return found.setups


def exposure(
    search: ThreatSearch,
    me: int,
    you: int,
    cell: int,
    bound: Exposure | None = None,
    count_lost: bool = True,
) -> Exposure | None:
    """The measures of `me` playing `cell`; None as soon as it is plainly worse than `bound`
    (more lost replies). A three is measured after the forced exchange it starts, as if the
    opponent were then to move: its block is no reply of the opponent's choosing, and the tempo
    the three gains is not counted. Raises OutOfBudget."""
    geometry = search.geometry
    after = exchange(me, you, cell, search)
    if after is None:  # the exchange ends in a win, ours or the opponent's
        ours = winning_mask(me | 1 << cell, you, geometry)
        return Exposure(0, 0) if ours & (ours - 1) else Exposure(LOST_AT_ONCE, 0)
    mine, you, _ = after
    empty = geometry.full_mask & ~(mine | you)
    lost = found = 0
    for reply, weight in _classes(search, mine, you, empty).items():
        yours = you | 1 << reply
        if new_threats(yours, mine, reply, geometry):
            continue  # a three is blocked at once, and no forced win of theirs starts here
        line = search.forced_win(yours, mine, EXPOSED_SETUP, shortest=False)
        if line is None:
            continue
        found += weight
        if count_lost and not any(
            classify(search, mine, yours, c, SETUP_STOP_DEPTH) is Defence.STOPS
            for c in candidates(search, mine, yours, line)
        ):
            lost += weight
            if bound is not None and lost > bound.lost:
                return None
    return Exposure(lost, found)


def forcing_moves(search: ThreatSearch, me: int, you: int, by_class: bool = False) -> int:
    """How many of `me`'s moves (`me` to move) are forcing: threats, or setups with a forced
    win of at most SETUP_DEPTH own threat moves, were the opponent to pass. `by_class`: one
    move of each symmetric class searched, counted for its whole class. Raises OutOfBudget."""
    empty = search.geometry.full_mask & ~(me | you)
    moves = _classes(search, me, you, empty) if by_class else dict.fromkeys(iter_bits(empty), 1)
    return sum(
        weight
        for move, weight in moves.items()
        if search.forced_win(me | 1 << move, you, SETUP_DEPTH, shortest=False) is not None
    )


def _classes(search: ThreatSearch, a: int, b: int, cells: int) -> dict[int, int]:
    """`symmetry.orbits` of `cells` under the symmetries fixing the position `(a, b)` on the
    4x4x4 cube while it is young; elsewhere every cell alone."""
    if search.geometry is not CUBE or (a | b).bit_count() > SYMMETRIC_STONES:
        return dict.fromkeys(iter_bits(cells), 1)
    return orbits(cells, stabilizer(CUBE, a, b))
