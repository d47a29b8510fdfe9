"""Proving that X wins: depth-first proof-number search (df-pn) over positions of the cube.

A position is `(x, o)`, the two bitboards; X is to move when both hold as many stones (an OR
node: X needs one winning move), O otherwise (an AND node: every reply of O must lose). The
rules of the proof:

- X to move wins at once, or has a forced win by threats: proved. O has two threes: not.
- O has a three: X must block it, the only move tried. Otherwise X tries its `width` best
  ranked quiet moves, since a proof needs only one, leaving out those after which a forced
  win O holds (as if X passed) still works. "Disproved" then means that none of those wins,
  not that X cannot.
- O to move: a win of its own, or a forced win by threats, disproves; X's two threes prove.
  X has a three: O must block it. Otherwise every reply is tried, except those after which a
  forced win X already holds (as if O passed) still works: those are plainly lost for O.
- Replies and moves that are images of each other under the symmetries fixing the position
  are tried once.

`Prover.prove` searches one position within a budget of expanded nodes; `strategy` then lists
the proof's quiet X moves: positions where X neither wins, nor blocks, nor has a forced win
by threats, with the move that wins there. `qubic.search.vetting` judges O's moves at play
time by short searches of this prover.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import islice

from qubic.core.board import winning_mask
from qubic.core.geometry import CUBE
from qubic.core.symmetry import orbits, stabilizer
from qubic.search.budget import Budget
from qubic.search.threats import (
    OutOfBudget,
    ThreatSearch,
    breaks,
    lowest,
)

INF = 1 << 40
FULL = CUBE.full_mask
CELL_LINES = CUBE.cell_line_masks
LEAF_NODES = 20_000  # threat-search positions for one leaf test: the perfect level's reach
X_WIDTH = 3  # X's quiet moves tried at a position, best ranked first: a proof needs one

PROVED = "proved"
DISPROVED = "disproved"
UNKNOWN = "unknown"


@dataclass
class Result:
    """What a search found for its root: the status, its proof and disproof numbers at the end,
    the nodes it expanded and the seconds it took."""

    status: str
    pn: int
    dn: int
    expanded: int
    seconds: float


def x_to_move(x: int, o: int) -> bool:
    return x.bit_count() == o.bit_count()


def status(pn: int, dn: int) -> str:
    """A search's status from its root's proof and disproof numbers."""
    return PROVED if pn == 0 else DISPROVED if dn == 0 else UNKNOWN


def proof_moves(
    x: int,
    o: int,
    winning_move: Callable[[int, int], int],
    replies: Callable[[int, int], Iterable[int]],
) -> Iterator[tuple[int, int, int]]:
    """Walk the proof of `(x, o)` and yield its quiet X moves `(x, o, cell)`: positions where X
    neither blocks nor wins by threats. `winning_move` gives the proof's move at X's turn (-1
    where X wins at once or by threats), `replies` O's replies the search tried."""
    seen: set[tuple[int, int]] = set()
    stack = [(x, o)]
    while stack:
        x, o = stack.pop()
        if (x, o) in seen:
            continue
        seen.add((x, o))
        if x_to_move(x, o):
            move = winning_move(x, o)
            if move >= 0:
                if not winning_mask(o, x):
                    yield x, o, move
                stack.append((x | 1 << move, o))
            continue
        mine = winning_mask(x, o)
        if mine & (mine - 1):
            continue  # two threes: O blocks one, X completes the other
        stack.extend((x, o | 1 << cell) for cell in replies(x, o))


def ranked_cells(me: int, you: int, cells: list[int]) -> list[int]:
    """`cells` best first for `me` to move: its open lines advanced, the opponent's pressed."""

    def score(cell: int) -> int:
        total = 0
        for mask in CELL_LINES[cell]:
            if not you & mask:
                total += 1 << 2 * (me & mask).bit_count()
            elif not me & mask:
                total += 1 << 2 * (you & mask).bit_count() - 1
        return total

    return sorted(cells, key=lambda c: (-score(c), c))


class Prover:
    """df-pn with a table of every position it has met; one instance may prove many roots,
    reusing what it learnt."""

    def __init__(self, leaf_nodes: int = LEAF_NODES, width: int = X_WIDTH) -> None:
        self.threats = ThreatSearch()
        self.leaf_nodes = leaf_nodes
        self.width = width
        self.table: dict[tuple[int, int], tuple[int, int]] = {}
        self.moves: dict[tuple[int, int], int] = {}  # proved OR node -> its winning move
        self.expanded = 0
        self._limit = 0
        self._budget = Budget()
        self._children: dict[tuple[int, int], list[tuple[int, int, int]]] = {}

    def prove(
        self, x: int, o: int, nodes: int, seconds: float | None = None, positions: int | None = None
    ) -> Result:
        """Search `(x, o)` for at most `nodes` more expansions (and about `seconds`, and about
        `positions` more of its threat searches' positions, where given)."""
        start, first = time.perf_counter(), self.expanded
        self._limit = self.expanded + nodes
        self._budget = Budget(positions, seconds, self.threats.nodes)
        group = stabilizer(CUBE, x, o)
        pn, dn = self._mid(x, o, group, INF, INF)
        return Result(status(pn, dn), pn, dn, self.expanded - first, time.perf_counter() - start)

    def strategy(self, x: int, o: int) -> Iterator[tuple[int, int, int]]:
        """The quiet X moves `(x, o, cell)` of the proof of `(x, o)`, which must be proved."""

        # Under the position's whole stabilizer the classes of replies are unions of those
        # the search tried (under a subgroup), and their lowest cells are among its.
        def replies(x: int, o: int) -> list[int]:
            return [cell for cell, _, _ in self.expand(x, o, stabilizer(CUBE, x, o))]

        return proof_moves(x, o, lambda x, o: self.moves[(x, o)], replies)

    # The search.

    def _mid(
        self, x: int, o: int, group: list[tuple[int, ...]], pth: int, dth: int
    ) -> tuple[int, int]:
        key = (x, o)
        known = self.table.get(key)
        if known is not None and (known[0] == 0 or known[1] == 0):
            return known
        if key not in self._children:
            self.expanded += 1
            if self._budget.exhausted(self.threats.nodes):
                self._limit = self.expanded  # every loop ends as if out of expansions
            verdict = self.settle(x, o)
            if verdict is not None:
                self.table[key] = verdict
                return verdict
            self._children[key] = self.expand(x, o, group)
        children = self._children[key]
        or_node = x_to_move(x, o)
        if not children:  # O to move: every reply plainly lost; X: every move plainly lost
            verdict = (INF, 0) if or_node else (0, INF)
            self.table[key] = verdict
            return verdict
        while True:
            pn, dn, best, second = self._collect(children, or_node)
            if not or_node:
                pn, dn = dn, pn  # collected as (dn, pn) for AND nodes
            if pn == 0 or dn == 0 or pn >= pth or dn >= dth or self.expanded >= self._limit:
                break
            cell, cx, co = children[best]
            cpn, cdn = self.table.get((cx, co), (1, 1))
            cpth, cdth = child_thresholds(or_node, pn, dn, pth, dth, cpn, cdn, second)
            self._mid(cx, co, [s for s in group if s[cell] == cell], cpth, cdth)
        self.table[key] = (pn, dn)
        if pn == 0 and or_node:
            self.moves[key] = children[best][0]
        if pn == 0 or dn == 0:
            del self._children[key]
        return pn, dn

    def _collect(
        self, children: list[tuple[int, int, int]], or_node: bool
    ) -> tuple[int, int, int, int]:
        """For an OR node: min pn, sum dn, the child with the least pn and the second least pn.
        For an AND node the same with pn and dn swapped."""
        low = second = INF
        total = 0
        best = 0
        table = self.table
        for index, (_, cx, co) in enumerate(children):
            cpn, cdn = table.get((cx, co), (1, 1))
            if not or_node:
                cpn, cdn = cdn, cpn
            if cpn < low:
                low, second, best = cpn, low, index
            elif cpn < second:
                second = cpn
            total = min(INF, total + cdn)
            if low == 0:
                break
        return low, total, best, second

    def settle(self, x: int, o: int) -> tuple[int, int] | None:
        """(0, INF) or (INF, 0) for a position settled at once, else None."""
        if (x | o) == FULL:
            return INF, 0
        if x_to_move(x, o):
            if winning_mask(x, o):
                self.moves[(x, o)] = -1
                return 0, INF
            theirs = winning_mask(o, x)
            if theirs & (theirs - 1):
                return INF, 0
            if self._threat_win(x, o):
                self.moves[(x, o)] = -1
                return 0, INF
            return None
        if winning_mask(o, x):
            return INF, 0
        mine = winning_mask(x, o)
        if mine & (mine - 1):
            return 0, INF
        if not mine and self._threat_win(o, x):
            return INF, 0
        return None

    def _threat_win(self, me: int, you: int) -> list[int] | None:
        self.threats.set_budget(self.leaf_nodes)
        try:
            return self.threats.forced_win(me, you, shortest=False)
        except OutOfBudget:
            return None

    def expand(
        self, x: int, o: int, group: list[tuple[int, ...]], width: int | None = None
    ) -> list[tuple[int, int, int]]:
        """The moves worth trying from an unsettled position, best first: (cell, x after,
        o after); for X at most `width` (default the prover's)."""
        empty = FULL & ~(x | o)
        if x_to_move(x, o):
            theirs = winning_mask(o, x)
            if theirs:
                return [(lowest(theirs), x | 1 << lowest(theirs), o)]
            cells: Iterable[int] = ranked_cells(x, o, list(orbits(empty, group)))
            line = self._threat_win(o, x)  # O's forced win, were it O's turn
            if line is not None:
                cells = (c for c in cells if breaks(line, o, x, c))
            return [(c, x | 1 << c, o) for c in islice(cells, width or self.width)]
        mine = winning_mask(x, o)
        if mine:
            return [(lowest(mine), x, o | mine)]
        line = self._threat_win(x, o)
        cells = list(orbits(empty, group))
        if line is not None:
            cells = [c for c in cells if breaks(line, x, o, c)]
        return [(c, x, o | 1 << c) for c in ranked_cells(o, x, cells)]


def child_thresholds(
    or_node: bool, pn: int, dn: int, pth: int, dth: int, cpn: int, cdn: int, second: int
) -> tuple[int, int]:
    """df-pn's thresholds for the child chosen at a node with numbers `(pn, dn)` and
    thresholds `(pth, dth)`: the child's own numbers, and `second` the number its sibling
    nearest to being chosen has. The 1+epsilon trick lets the child pass that sibling by a
    quarter (and by at least one). Plain int arithmetic: `qubic.proof.fast_prover` compiles this
    same function."""
    margin = INF if second >= INF else second + max(1, (second + 3) // 4)
    if or_node:
        return min(pth, margin), (dth - dn + cdn if dth < INF else INF)
    return (pth - pn + cpn if pth < INF else INF), min(dth, margin)
