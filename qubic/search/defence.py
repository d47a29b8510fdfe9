"""Attack and defence by threats: the move a position calls for, and the moves that stop the
opponent's forced win by threats.
"""

from __future__ import annotations

from collections.abc import Iterator

from qubic.core.board import iter_bits
from qubic.search.threats import (
    OutOfBudget,
    ThreatSearch,
    lowest,
    new_threats,
    threat_moves,
    winning_mask,
)

HOLD_TURNS = 2  # own forcing defences looked ahead when a defence is itself a threat


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


def is_safe(search: ThreatSearch, me: int, you: int, cell: int) -> bool:
    """After `me` plays `cell`, the opponent has no forced win by threats."""
    return search.forced_win(you, me | 1 << cell, shortest=False) is None


def holds(search: ThreatSearch, me: int, you: int, cell: int, turns: int = HOLD_TURNS) -> bool:
    """`cell` is safe and, if it is a threat, after the forced block either the opponent would
    have no forced win even on the move, or we have a move that holds again (within `turns`
    more turns of ours). The candidates then are the cells of the opponent's winning line and
    our own threats."""
    mine = me | 1 << cell
    if search.forced_win(you, mine, shortest=False) is not None:
        return False
    block = new_threats(mine, you, cell, search.geometry)
    if not block:
        return True
    yours = you | block
    line = search.forced_win(yours, mine, shortest=False)
    if line is None:
        return True
    if turns == 0:
        return False
    empty = ~(mine | yours) & search.geometry.full_mask
    candidates = {c for c in line if empty >> c & 1} | set(
        iter_bits(threat_moves(mine, yours, search.geometry))
    )
    return any(holds(search, mine, yours, c, turns - 1) for c in candidates)


def defend(search: ThreatSearch, me: int, you: int, ranked: list[int], threat: list[int]) -> int:
    """A move after which the opponent has no forced win, trying the cells of `threat` first
    and preferring one that holds over the next turns too; when there is none, the cell of
    `threat` that makes the opponent's win longest."""
    involved = [c for c in ranked if c in threat]
    found: list[int] = []
    try:
        for cell, holding in defences(search, me, you, ranked, threat):
            if holding:
                return cell
            found.append(cell)
        if found:
            return found[0]
        return max(involved, key=lambda c: len(search.forced_win(you, me | 1 << c) or ()))
    except OutOfBudget:
        return found[0] if found else involved[0]


def defences(
    search: ThreatSearch, me: int, you: int, ranked: list[int], threat: list[int]
) -> Iterator[tuple[int, bool]]:
    """The moves after which the opponent (whose forced win is `threat`) has none, each with
    whether it holds; the cells of `threat` first, then in `ranked` order."""
    for cell in [c for c in ranked if c in threat] + [c for c in ranked if c not in threat]:
        if is_safe(search, me, you, cell):
            yield cell, holds(search, me, you, cell)
