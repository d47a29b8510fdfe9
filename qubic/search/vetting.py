"""Vetting O's moves at play time: short df-pn searches (`qubic.search.prover`) over the
positions each candidate leaves, the rule the levels that move second on the cube play by."""

from __future__ import annotations

from qubic.search.budget import Budget
from qubic.search.prover import DISPROVED, PROVED, Prover

REFUTE_NODES = 2_000  # expansions spent showing one of O's moves lost
# Threat-search positions for all the tests: late in the game one expansion's threat searches
# cost thousands, and 2,000 expansions took 2.7 s (1,770,000 positions) at 29 stones.
POSITIONS = 500_000


def least_lost(
    x: int,
    o: int,
    cells: list[int],
    expansions: int,
    budget: Budget | None = None,
    positions: int = POSITIONS,
) -> int:
    """O's move among `cells` (O to move at `(x, o)`; best first): the first shown to hold
    against X's best moves, else the first not shown lost, else the one whose loss took the
    most expansions to show. Every cell is first tested for X's forced win by threats alone
    (one expansion, cheap, and how most moves lose); those that pass then get up to
    REFUTE_NODES more, while the `expansions` and the threat-search `positions` for all the
    tests last (a test ends after the expansion that spends the last). `budget`'s time cap, if
    any, is a safety net: a test running past it ends after its current expansion (one
    expansion's threat searches can take seconds), no test but the first cell's starts past
    it, a cell that missed the first test is left out, and one that missed the second is not
    shown lost."""
    prover = Prover()
    lost: dict[int, int] = {}  # cells shown lost -> the expansions that took
    stop = budget if budget is not None else Budget()

    def positions_left() -> int:
        return positions - prover.threats.nodes

    def holds(cell: int, nodes: int) -> bool:
        """Whether `cell` is shown to hold within `nodes` more expansions."""
        result = prover.prove(x, o | 1 << cell, nodes, stop.seconds_left(), positions_left())
        if result.status == PROVED:
            lost[cell] = lost.get(cell, 0) + result.expanded
        return result.status == DISPROVED

    survivors = []
    for cell in cells:
        if cell != cells[0] and stop.expired():
            break
        if holds(cell, 1):
            return cell
        if cell not in lost:
            survivors.append(cell)
    for cell in survivors:
        left = expansions - prover.expanded
        if left <= 0 or positions_left() <= 0 or stop.expired():
            break
        if holds(cell, min(REFUTE_NODES - 1, left)):
            return cell
    still_open = [cell for cell in survivors if cell not in lost]
    return still_open[0] if still_open else max(lost, key=lambda cell: lost[cell])
