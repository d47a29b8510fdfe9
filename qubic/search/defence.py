"""Attack and defence by threats: the move a position calls for, and what a defence is.

The one rule for a defence, used by ANALYZE, the engine's `analyze`, HINT, the puzzles and every
level from hard up:

    A move *stops* the opponent's forced win by threats when, after it and after the forced
    exchange it starts (each three answered by its block, and any three that block makes
    answered in turn), the opponent has no forced win by threats that we cannot stop again.
    A three whose forced exchange leaves the opponent's forced win standing only *delays* it.

"Cannot stop again" looks through at most STOP_DEPTH more of our turns after an exchange that
ends with us to move; a stop found there makes the first move a stop, none makes it a delay.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator
from enum import Enum

from qubic.core.board import iter_bits
from qubic.search.threats import (
    OutOfBudget,
    ThreatSearch,
    lowest,
    new_threats,
    still_forces,
    winning_mask,
)

STOP_DEPTH = 2  # our turns looked through after an exchange that ends with us to move


class Defence(Enum):
    """What a move does against the opponent's forced win by threats."""

    STOPS = "stops"  # afterwards the opponent has no forced win we cannot stop
    DELAYS = "delays"  # a three whose forced exchange leaves the forced win standing
    FAILS = "fails"  # the forced win goes on (or the opponent wins at once)


def forced_move(search: ThreatSearch, me: int, you: int) -> tuple[int | None, list[int] | None]:
    """The move the position calls for (win now, block a win, or start our forced win by
    threats) and None; or None and the opponent's forced win by threats (None if it has
    none). Raises OutOfBudget."""
    urgent = winning_mask(me, you, search.geometry) or winning_mask(you, me, search.geometry)
    if urgent:
        return lowest(urgent), None
    line = search.forced_win(me, you)
    if line:
        return line[0], None
    return None, search.forced_win(you, me)


def exchange(me: int, you: int, cell: int, search: ThreatSearch) -> tuple[int, int, int] | None:
    """`me` plays `cell`, then the forced exchange: each three answered by its block. The
    position after it, `(me, you, turns)` with `turns` the moves played (odd: the opponent to
    move, even: we are); None when the exchange ends in a win for either side (two threes at
    once, or the opponent completing a line)."""
    geometry = search.geometry
    me |= 1 << cell
    if winning_mask(you, me, geometry):
        return None  # the opponent completes a line at once
    turns, last = 1, cell
    mover, other = me, you
    while True:
        made = new_threats(mover, other, last, geometry) & ~(mover | other)
        if not made:
            break
        if made & (made - 1):
            return None  # two threes at once: the side that made them wins
        other |= made
        last = lowest(made)
        mover, other = other, mover
        turns += 1
    mine, yours = (mover, other) if turns % 2 == 1 else (other, mover)
    return mine, yours, turns


def classify(
    search: ThreatSearch, me: int, you: int, cell: int, depth: int = STOP_DEPTH
) -> Defence:
    """What `me` playing `cell` does against the opponent's forced win by threats (the rule
    in this module's docstring). Raises OutOfBudget."""
    after = exchange(me, you, cell, search)
    if after is None:
        # The exchange ended in a win: ours if our move made two threes the opponent
        # cannot answer with a line of its own, else the opponent's.
        mine = me | 1 << cell
        ours = winning_mask(mine, you, search.geometry)
        theirs = winning_mask(you, mine, search.geometry)
        return Defence.STOPS if ours & (ours - 1) and not theirs else Defence.FAILS
    mine, yours, turns = after
    line = search.forced_win(yours, mine, shortest=False)
    if line is None:
        return Defence.STOPS
    if turns == 1:
        return Defence.FAILS
    if (
        turns % 2 == 0
        and depth > 0
        and any(
            classify(search, mine, yours, c, depth - 1) is Defence.STOPS
            for c in candidates(search, mine, yours, line)
        )
    ):
        return Defence.STOPS
    return Defence.DELAYS


def stops(search: ThreatSearch, me: int, you: int, cell: int) -> bool:
    """Whether `cell` stops the opponent's forced win by threats (see `classify`)."""
    return classify(search, me, you, cell) is Defence.STOPS


def candidates(search: ThreatSearch, me: int, you: int, line: list[int]) -> Iterator[int]:
    """Our moves that might stop the opponent's forced win `line`, the line's own cells first:
    those it no longer forces through. Every other move leaves it winning, so it can be
    neither stop nor delay. Lazy: a caller that wants one stop looks at few."""
    geometry = search.geometry
    empty = geometry.full_mask & ~(me | you)
    theirs, ours = winning_mask(you, me, geometry), winning_mask(me, you, geometry)
    on_line = [cell for cell in dict.fromkeys(line) if empty >> cell & 1]
    rest = [cell for cell in iter_bits(empty) if cell not in on_line]
    for cell in on_line + rest:
        mine = me | 1 << cell
        bit = 1 << cell
        threes = (theirs & ~bit, ours & ~bit | new_threats(mine, you, cell, geometry))
        if not still_forces(line, you, mine, geometry, threes):
            yield cell


def defences(
    search: ThreatSearch, me: int, you: int, line: list[int], cells: Iterable[int] | None = None
) -> dict[int, Defence]:
    """What each move that might matter does against the opponent's forced win `line`:
    `cells` (default: `candidates`), each classified. Raises OutOfBudget."""
    chosen = sorted(candidates(search, me, you, line)) if cells is None else cells
    return {cell: classify(search, me, you, cell) for cell in chosen}


def resistance(search: ThreatSearch, me: int, you: int, cell: int) -> int:
    """How long the opponent's forced win by threats takes after `cell` and its exchange, in
    plies (a move with no forced win after it: a large number). Raises OutOfBudget."""
    after = exchange(me, you, cell, search)
    if after is None:
        return 0
    mine, yours, turns = after
    line = search.forced_win(yours, mine)
    return 1000 if line is None else turns + len(line)


def defend(search: ThreatSearch, me: int, you: int, ranked: list[int], threat: list[int]) -> int:
    """Against the opponent's forced win `threat`: the first move in `ranked` order that stops
    it; when none does, the one that makes its win longest (a delay, if any, as the opponent
    must then find its win again). When the budget runs out, the best found so far."""
    order = {cell: rank for rank, cell in enumerate(ranked)}
    cells = sorted(candidates(search, me, you, threat), key=lambda c: order.get(c, len(order)))
    try:
        for cell in cells:
            if classify(search, me, you, cell) is Defence.STOPS:
                return cell
    except OutOfBudget:
        return (cells or ranked)[0]
    return hold_out(search, me, you, cells) if cells else ranked[0]


def hold_out(search: ThreatSearch, me: int, you: int, cells: list[int]) -> int:
    """Of `cells` (none of which stops the opponent's forced win; best first), the one that
    makes its win longest. When the budget runs out, the best found so far."""
    best, longest = cells[0], -1
    with contextlib.suppress(OutOfBudget):
        for cell in cells:
            plies = resistance(search, me, you, cell)
            if plies > longest:
                best, longest = cell, plies
    return best
