"""Forced wins built from setups: quiet moves that would leave a forced win by threats if the
opponent did nothing, so that it must spend its move refuting them; proved against every reply.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from qubic.core.board import iter_bits, winning_mask
from qubic.search.budget import Budget
from qubic.search.threats import (
    OutOfBudget,
    ThreatSearch,
    breaks,
    lowest,
    new_threats,
)

MAX_SETUPS = 4  # deepest number of own setups searched


class SetupSearch:
    """Forced wins whose attacker moves are threats or setups, proved against every reply."""

    def __init__(
        self, threats: ThreatSearch, quiet_first: bool = False, free_blocks: bool = False
    ) -> None:
        """`quiet_first`: with as many setups, try the quiet moves before the threats (by
        default, every move lowest cell first). A strategy book holds each of X's moves that
        is no forced win by threats, so a threat costs it one entry more than a quiet setup
        that wins alike: the one for the position after the block. `free_blocks`: a quiet
        block of the opponent's three costs no setup (the move is forced, so a book holds no
        entry for it); by default it is a setup like any other quiet move."""
        self.threats = threats
        self.quiet_first = quiet_first
        self.free_blocks = free_blocks
        self._refuted: dict[tuple[int, int], int] = {}

    def forced_win(
        self,
        me: int,
        you: int,
        max_setups: int = MAX_SETUPS,
        nodes: int | None = None,
        seconds: float | None = None,
    ) -> int | None:
        """A first move that wins by force for `me` to move with at most `max_setups` setups,
        fewest setups first; None if there is none. Raises OutOfBudget when `nodes` more
        threat-search positions, `seconds`, or the threat search's own budget run out first."""
        self._budget = Budget(nodes, seconds, self.threats.nodes)
        for setups in range(0, max_setups + 1):
            move = self._attack(me, you, setups)
            if move is not None:
                return move
        return None

    def _attack(self, me: int, you: int, setups: int) -> int | None:
        if self._budget.exhausted(self.threats.nodes):
            raise OutOfBudget
        line = self.threats.forced_win(me, you, shortest=False)
        if line is not None:
            return line[0]
        geometry = self.threats.geometry
        theirs = winning_mask(you, me, geometry)
        if theirs & (theirs - 1):
            return None
        cost = 0 if theirs and self.free_blocks else 1  # the setups a quiet move spends
        if setups < cost or self._refuted.get((me, you), -1) >= setups:
            return None
        moves = [
            (cell, new_threats(me | 1 << cell, you, cell, geometry))
            for cell in self.setup_candidates(me, you, theirs)
        ]
        if self.quiet_first:
            moves.sort(key=lambda move: bool(move[1]))  # stable: lowest cell first in each
        for cell, block in moves:
            mine = me | 1 << cell
            if block:
                # A threat: its block is forced, and the setups after it decide.
                if self._attack(mine, you | block, setups) is not None:
                    return cell
                continue
            threat = self.threats.forced_win(mine, you, shortest=False)
            if threat is not None and self._refutations_fail(mine, you, threat, setups - cost):
                return cell
        self._refuted[(me, you)] = setups
        return None

    def setup_candidates(self, me: int, you: int, theirs: int | None = None) -> list[int]:
        """Empty cells that could help a chain of ours: on a line we hold and they do not;
        the block alone when they have a three (`theirs`, their winning cells, if known)."""
        if theirs is None:
            theirs = winning_mask(you, me, self.threats.geometry)
        if theirs:
            return [lowest(theirs)]
        geometry = self.threats.geometry
        cells = 0
        for mask in geometry.line_masks:
            if me & mask and not you & mask:
                cells |= mask
        return list(iter_bits(cells & ~(me | you) & geometry.full_mask))

    def _refutations_fail(self, me: int, you: int, threat: list[int], setups: int) -> bool:
        """With the opponent to move against our `threat`, every reply loses: it wins nothing
        by force itself, and after each reply that refutes the threat we still win."""
        if self.threats.forced_win(you, me, shortest=False) is not None:
            return False
        return all(
            self._attack(me, you | 1 << cell, setups) is not None
            for cell in self.refutations(me, you, threat)
        )

    def refutations(
        self, me: int, you: int, threat: list[int], replies: Iterable[int] | None = None
    ) -> Iterator[int]:
        """The opponent's replies (of `replies`; by default every empty cell) after which our
        `threat`, a forced win by threats for `me` if the opponent passed, no longer wins."""
        geometry = self.threats.geometry
        mine, theirs = winning_mask(me, you, geometry), winning_mask(you, me, geometry)
        if replies is None:
            replies = iter_bits(~(me | you) & geometry.full_mask)
        for cell in replies:
            if breaks(threat, me, you, cell, geometry, (mine, theirs)):
                yield cell
