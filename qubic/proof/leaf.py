"""X's moves on a walk of the strategy, under either leaf rule: what counts as a position the
strategy must hold (an entry) and what as a forced win X finds in play."""

from __future__ import annotations

from functools import cache

from qubic.core.geometry import Orientation
from qubic.search import strategy
from qubic.search.strategy import XMove, quiet_move
from qubic.search.threats import OutOfBudget, PureThreatSearch, ThreatSearch


def strategy_threats(fast: bool, pure: bool = False) -> ThreatSearch | None:
    """The threat search that answers `quiet_move`'s question as its own new one would:
    compiled when `fast` (`FreshThreatSearch`, the solver extra), else None, `quiet_move`'s
    default; with `pure`, forced wins by threats alone (`PureThreatSearch`, a new one for
    each question when not compiled)."""
    if not fast:
        return PureThreatSearch(strategy.THREAT_NODES) if pure else None
    return _compiled_threats(pure)


@cache
def _compiled_threats(pure: bool) -> ThreatSearch:
    from qubic.proof.fast_prover import FreshThreatSearch  # numba: the solver extra

    return FreshThreatSearch(strategy.THREAT_NODES, pure)


LEAVES = ("ours", "patashnik")  # the leaf rules a walk can count the strategy's entries under


class StrategyMover:
    """X's moves as the strategy plays them where X neither wins nor blocks (`quiet_move`),
    for a walk: its forced wins by threats found by the compiled search if `fast` (the same
    answers; the walk plays every line to its end, so its verdict never rests on the search),
    and under the `leaf` rule. Under Patashnik's, a forced win must be one by threats alone
    (`PureThreatSearch`): where X's only forced wins need O's blocks to make threes (answered
    by blocks that are threats), X's move is one the strategy must hold, a 'book' move."""

    def __init__(self, fast: bool = False, leaf: str = "ours") -> None:
        self.fast, self.leaf = fast, leaf
        self.__name__ = f"x_move[fast={fast}, leaf={leaf}]"  # the journal's name for it

    def __call__(
        self, x: int, o: int, book: strategy.Entries, orientation: Orientation | None = None
    ) -> XMove | None:
        move = quiet_move(x, o, book, orientation, search=strategy_threats(self.fast))
        if self.leaf == "ours" or move is None or move.reason != "threats":
            return move
        search = strategy_threats(self.fast, pure=True)
        assert search is not None  # (a pure search is always a search of its own)
        try:
            pure = search.forced_win(x, o, shortest=False)
        except OutOfBudget:
            pure = None
        return XMove(pure[0], "threats") if pure else XMove(move.cell, "book")
