"""Forced wins by threats: threat-space search over two bitboards.

A *three* is a line holding all but one of its cells (three, on the 4 x 4 x 4 cube) for one
side and the last cell empty, and a *threat* a move that makes one: the other side must take
that cell at once, its *block*. A side has a *forced win by threats* when it can keep making
threats, each met by its forced block, until it makes two threes at once (or one the block
cannot stop because the defender's block left two threes standing). The defender's blocks may
make threes of their own; the attacker must answer those, and only with a move that is itself
a threat. docs/architecture.md's glossary has these words and the others of attack and
defence.

Positions are `(me, you)`: the attacker's and the defender's bitboards, attacker to move, on
a geometry (the 4 x 4 x 4 cube unless one is given). The theory is for two sides where the
first line wins.
"""

from __future__ import annotations

import sys

from qubic.core.board import open_line_cells, winning_mask
from qubic.core.geometry import CUBE, Geometry
from qubic.search.budget import Budget

MAX_THREATS = 16  # deepest chain of own threat moves searched (ANALYZE misses none of 12)
EXHAUSTED = sys.maxsize  # a refuted position whose every chain ran out before any depth limit


class OutOfBudget(Exception):
    """The search used up its nodes or its time."""


def lowest(bits: int) -> int:
    """The lowest set cell of a non-empty bitboard."""
    return (bits & -bits).bit_length() - 1


def threat_moves(me: int, you: int, geometry: Geometry = CUBE) -> int:
    """Bitboard of the cells where `me` would make a threat (lines one stone short of a
    three, with no foe)."""
    return open_line_cells(me, you, geometry.size - 2, geometry)


def new_threats(me: int, you: int, cell: int, geometry: Geometry = CUBE) -> int:
    """Cells `me` threatens through the lines of `cell`, a cell `me` already holds."""
    three = geometry.size - 1
    cells = 0
    for mask in geometry.cell_line_masks[cell]:
        if not you & mask and (me & mask).bit_count() == three:
            cells |= mask & ~me
    return cells


class ThreatSearch:
    """Finds forced wins by threats, remembering answers and refuted positions across calls.

    What it remembers stays valid for any number of searches in any positions, so one instance
    may serve one decision or many. Its budget bounds the searches until `set_budget` is called
    again: at most `nodes` positions (so the same question always gets the same answer) and at
    most `seconds` of the searching thread's processor time (`budget.clock`: a safety net, or
    the budget itself when a caller asks for a time).
    """

    def __init__(
        self, nodes: int | None = None, seconds: float | None = None, geometry: Geometry = CUBE
    ) -> None:
        self.geometry = geometry
        # The geometry's tables, read by every node of the search.
        self._line_masks = geometry.line_masks
        self._pairs = geometry.cell_line_pairs
        self._line_bits = geometry.cell_line_bits
        self._cell_masks = geometry.cell_line_masks
        self._three = geometry.size - 1  # stones on a threat's line
        self.nodes = 0
        self._refuted: dict[tuple[int, int], int] = {}  # position -> depth it fails at
        self._answers: dict[tuple[int, int, int, bool], list[int] | None] = {}
        self._cuts = 0  # times the depth limit stopped a line that might have gone on
        self.set_budget(nodes, seconds)

    def set_budget(self, nodes: int | None = None, seconds: float | None = None) -> None:
        """From now on, at most `nodes` more positions and `seconds` more time."""
        self.budget = Budget(nodes, seconds, self.nodes)

    @property
    def node_limit(self) -> int:
        """The node count at which the search stops."""
        return self.budget.node_limit

    def out_of_budget(self) -> bool:
        return self.budget.exhausted(self.nodes)

    def forced_win(
        self, me: int, you: int, max_threats: int = MAX_THREATS, shortest: bool = True
    ) -> list[int] | None:
        """A forced win by threats for `me` to move, as the moves of both sides in order
        (attacker first, ending with the attacker's winning or double-threat move); None if
        there is none within `max_threats` own moves. The shortest one unless `shortest` is
        False, which answers faster whether there is one. Raises OutOfBudget."""
        key = (me, you, max_threats, shortest)
        if key not in self._answers:
            self._answers[key] = self._search(me, you, max_threats, shortest)
        return self._answers[key]

    def _search(self, me: int, you: int, max_threats: int, shortest: bool) -> list[int] | None:
        # One pass over the lines: our wins, theirs, and our lines of two (a bit per line).
        three, two = self._three, self._three - 1
        wins = theirs = twos = 0
        for index, mask in enumerate(self._line_masks):
            if not you & mask:
                count = (me & mask).bit_count()
                if count == three:
                    wins |= mask & ~me
                elif count == two:
                    twos |= 1 << index
            elif not me & mask and (you & mask).bit_count() == three:
                theirs |= mask & ~you
        if wins:
            return [lowest(wins)]
        for depth in range(1 if shortest else max_threats, max_threats + 1):
            cuts = self._cuts
            line = self._attack(me, you, twos, theirs, depth)
            if line is not None:
                return line
            if self._cuts == cuts:  # the tree ran out before the depth did
                return None
        return None

    def _attack(self, me: int, you: int, twos: int, theirs: int, depth: int) -> list[int] | None:
        # `twos` has a bit per line holding two of ours and none of theirs. Inside a chain
        # the attacker never has an open three (each is blocked at once), so those lines are
        # all it needs, and each move changes only the lines through its cell.
        self.nodes += 1
        if not self.nodes & 1023 and self.out_of_budget():
            raise OutOfBudget
        line_masks = self._line_masks
        cells = forks = 0  # cells making a threat; cells making two at once
        rest = twos
        while rest:
            low = rest & -rest
            rest ^= low
            empty = line_masks[low.bit_length() - 1] & ~me
            forks |= cells & empty
            cells |= empty
        if theirs:
            if theirs & (theirs - 1):
                return None  # two of theirs: one block cannot stop both
            candidates = cells & theirs  # the block must also be a threat
        else:
            candidates = cells
        if candidates & forks:
            return [lowest(candidates & forks)]
        if not candidates:
            return None
        if depth == 1:
            self._cuts += 1
            return None
        key = (me, you)
        refuted = self._refuted.get(key, 0)
        if refuted >= depth:
            if refuted != EXHAUSTED:
                self._cuts += 1  # deeper than it was refuted, it might yet win
            return None
        cuts = self._cuts
        line = self._threats(me, you, twos, candidates, depth)
        if line is None:
            self._refuted[key] = depth if self._cuts != cuts else EXHAUSTED
        return line

    def _threats(
        self, me: int, you: int, twos: int, candidates: int, depth: int
    ) -> list[int] | None:
        """`_attack`'s moves: each of `candidates` (each makes one threat) and its forced
        block, searched a threat shallower; the first chain that wins, else None."""
        pairs, line_bits, cell_masks = self._pairs, self._line_bits, self._cell_masks
        three = self._three
        two = three - 1
        while candidates:
            bit = candidates & -candidates
            candidates ^= bit
            cell = bit.bit_length() - 1
            mine = me | bit
            made = new_twos = 0
            for line_bit, mask in pairs[cell]:
                if not you & mask:
                    count = (mine & mask).bit_count()
                    if count == three:
                        made = mask & ~mine  # one threat: forks were taken above
                    elif count == two:
                        new_twos |= line_bit
            block = made.bit_length() - 1
            yours = you | made
            child_twos = (twos & ~line_bits[cell] | new_twos) & ~line_bits[block]
            counters = 0  # the block's own threats (new_threats, inlined: this is the hot path)
            for mask in cell_masks[block]:
                if not mine & mask and (yours & mask).bit_count() == three:
                    counters |= mask & ~yours
            line = self._attack(mine, yours, child_twos, counters, depth - 1)
            if line is not None:
                return [cell, block, *line]
        return None


class PureThreatSearch(ThreatSearch):
    """Forced wins by threats alone: chains in which the defender's blocks never make a
    threat of its own (which `ThreatSearch` lets the attacker answer with a block that is a
    threat). Patashnik's leaf rule, for counting a strategy under it; never used in play."""

    def _attack(self, me: int, you: int, twos: int, theirs: int, depth: int) -> list[int] | None:
        if theirs:
            return None
        return super()._attack(me, you, twos, theirs, depth)


def still_forces(
    line: list[int],
    me: int,
    you: int,
    geometry: Geometry = CUBE,
    threes: tuple[int, int] | None = None,
) -> bool:
    """Whether `line`, a forced win found earlier, still wins for `me` to move from here.
    `threes`, the winning cells of `me` and of `you`, may be given when the caller knows them.

    Much cheaper than a new search, so a defender's moves can be sorted into the few that
    might refute a known win and the many that plainly do not.
    """
    if threes is None:
        threes = winning_mask(me, you, geometry), winning_mask(you, me, geometry)
    # Every three `me` makes on the way is blocked at once, so its winning cells stay these.
    mine, theirs = threes
    last = len(line) - 1
    for i in range(0, len(line), 2):
        cell = line[i]
        bit = 1 << cell
        if (me | you) & bit:
            return False
        if mine & bit:
            return i == last  # completes a line
        if theirs & ~bit:
            return False  # a threat of theirs left standing
        me |= bit
        made = new_threats(me, you, cell, geometry)
        if i == last:
            return bool(made & (made - 1))
        block = line[i + 1]
        if made != 1 << block:
            return False
        you |= made
        theirs = new_threats(you, me, block, geometry)
    return False


def breaks(
    line: list[int],
    me: int,
    you: int,
    cell: int,
    geometry: Geometry = CUBE,
    threes: tuple[int, int] = (0, 0),
) -> bool:
    """Whether `you` taking `cell` breaks `line`, a forced win by threats of `me`'s (to move
    after it): the one test of a reply against a known win, which the defence, the setup
    search and the prover share. `threes`: the winning cells of `me` and of `you` before the
    reply (none, unless given)."""
    bit = 1 << cell
    yours = you | bit
    after = (threes[0] & ~bit, threes[1] & ~bit | new_threats(yours, me, cell, geometry))
    return not still_forces(line, me, yours, geometry, after)
