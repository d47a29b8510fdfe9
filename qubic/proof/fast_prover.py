"""The solver's units compiled with numba: `qubic.search.prover`'s rules, many times faster.

An optional extra (`pip install -e '.[solver]'`); the game never imports it. The rules are those
of `qubic.search.prover` (read its docstring), with two differences that keep the compiled code
small: moves that are images of each other under the position's symmetries are all tried (the
upper tree of `qubic.proof.solve` merges symmetric positions), and the tables are fixed-size
arrays that forget their least worked entries when full. Bitboards are uint64 throughout: mixing
them with signed ints would turn them into floats. The compiled functions carry no type hints:
numba infers their types from the arrays and uint64 values they are given.

`FastProver.prove` searches a position within a budget of expanded nodes; `strategy` then
lists the quiet X moves of its proof, like `Prover.strategy`.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import ClassVar, NamedTuple

import numpy as np
from numba import njit

from qubic.core.geometry import CUBE
from qubic.search import prover
from qubic.search.prover import INF, LEAF_NODES, PROVED, X_WIDTH, Result, proof_moves, status
from qubic.search.setups import MAX_SETUPS, SetupSearch
from qubic.search.threats import MAX_THREATS, OutOfBudget, PureThreatSearch, ThreatSearch

ZERO = np.uint64(0)
ONE = np.uint64(1)
LINES = np.array(CUBE.line_masks, dtype=np.uint64)
THROUGH = np.array(
    [list(lines) + [-1] * (7 - len(lines)) for lines in CUBE.lines_through], dtype=np.int64
)  # each cell's lines (at most seven), padded with -1
N_THROUGH = np.array([len(lines) for lines in CUBE.lines_through], dtype=np.int64)
BIT = np.array([1 << cell for cell in CUBE.cells], dtype=np.uint64)
FULL = np.uint64(CUBE.full_mask)
# Each cell's lines as bits of two words: lines 0-63 and lines 64 on.
LOW_LINES = np.array(
    [sum(1 << i for i in lines if i < 64) for lines in CUBE.lines_through], dtype=np.uint64
)
HIGH_LINES = np.array(
    [sum(1 << i - 64 for i in lines if i >= 64) for lines in CUBE.lines_through], dtype=np.uint64
)
EXHAUSTED = 1 << 62  # a refuted threat position whose every chain ran out before the depth
RF_BITS = 18  # the setup search's table of refuted threat positions: 2**18 entries
FRESH_RF_BITS = 14  # the same for `FreshThreatSearch`, cleared at every question
UNLIMITED = 1 << 62  # a budget without a node limit

# Popcount and lowest-bit constants (de Bruijn multiplication).
_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)
_DE_BRUIJN = 0x03F79D71B4CB0A89
_DB = np.uint64(_DE_BRUIJN)
_DB_INDEX = np.zeros(64, dtype=np.int64)
for _i in range(64):
    _DB_INDEX[((1 << _i) * _DE_BRUIJN & (1 << 64) - 1) >> 58] = _i
_K1 = np.uint64(0x9E3779B97F4A7C15)
_K2 = np.uint64(0xC2B2AE3D27D4EB4F)
_S1, _S2, _S4, _S29, _S32, _S56, _S58 = (np.uint64(s) for s in (1, 2, 4, 29, 32, 56, 58))

# The counters in `Tables.stats`; TT_USED and RF_USED count the slots filled since a clear,
# and PURE (a setting, not a counter), when nonzero, makes the threat search `PureThreatSearch`'s.
EXPANDED, LIMIT, T_NODES, T_LIMIT, CUTS, ABORTED, LINE_LENGTH, WIDTH, LEAF, TT_USED, RF_USED = (
    range(11)
)
PURE = 11
USED_LOG = 1 << 16  # filled slots remembered, so that a clear empties only those


class Tables(NamedTuple):
    """A search's memory, passed to every compiled function. `tt_*`: positions (x, o) with
    their proof number, disproof number, winning move (-1 if none) and the work spent on them,
    in buckets of four; `rf_*`: threat positions (me, you) and the depth they were refuted
    at; `line`: the last forced win found; `kids`: each ply's moves; `used`: the slots filled
    since the last clear (row 0 `tt_*`'s, row 1 `rf_*`'s), while they fit."""

    tt_key: np.ndarray
    tt_val: np.ndarray
    rf_key: np.ndarray
    rf_val: np.ndarray
    stats: np.ndarray
    line: np.ndarray
    kids: np.ndarray
    used: np.ndarray


def new_tables(
    tt_bits: int = 22, rf_bits: int = 20, width: int = X_WIDTH, leaf_nodes: int = LEAF_NODES
) -> Tables:
    """Empty tables of 2**tt_bits positions and 2**rf_bits threat positions."""
    stats = np.zeros(16, dtype=np.int64)
    stats[WIDTH], stats[LEAF] = width, leaf_nodes
    tt_val = np.zeros((1 << tt_bits, 4), dtype=np.int64)
    tt_val[:, 3] = -1  # an empty slot
    return Tables(
        np.zeros((1 << tt_bits, 2), dtype=np.uint64),
        tt_val,
        np.zeros((1 << rf_bits, 2), dtype=np.uint64),
        np.full(1 << rf_bits, -1, dtype=np.int64),
        stats,
        np.zeros(64, dtype=np.int64),
        np.zeros((66, 64), dtype=np.int64),
        np.zeros((2, USED_LOG), dtype=np.int64),
    )


@njit(cache=True)
def _note_used(t, table, slot):
    """Remember that `slot` of table `table` (0 `tt_*`, 1 `rf_*`) was empty and is filled."""
    count = t.stats[TT_USED + table]
    if count < USED_LOG:
        t.used[table, count] = slot
    t.stats[TT_USED + table] = count + 1


@njit(cache=True)
def clear_tables(t):
    """Empty every slot of `t`: those remembered in `t.used`, or all when more were filled.
    A cleared table answers as a new one does (a 128 MB table takes milliseconds to clear
    whole, and the opening build clears one for every small proof)."""
    tt_count, rf_count = t.stats[TT_USED], t.stats[RF_USED]
    if tt_count > USED_LOG:
        t.tt_val[:, 3] = -1
    else:
        for i in range(tt_count):
            t.tt_val[t.used[0, i], 3] = -1
    if rf_count > USED_LOG:
        t.rf_val[:] = -1
    else:
        for i in range(rf_count):
            t.rf_val[t.used[1, i]] = -1
    t.stats[TT_USED] = 0
    t.stats[RF_USED] = 0


# Every function is cached on disk, so a process loads the compiled code in a fraction of a
# second where compiling it takes some ten. A recursive function is called with its
# arguments' exact types (`np.int64(MAX_THREATS)`, not the constant): a literal compiles a
# second version whose call to the first the cache cannot link, and a loaded cache then
# crashes. For the same reason no two functions call each other.


@njit(cache=True)
def _popcount(v):
    v = v - ((v >> _S1) & _M1)
    v = (v & _M2) + ((v >> _S2) & _M2)
    v = (v + (v >> _S4)) & _M4
    return np.int64((v * _H01) >> _S56)


@njit(cache=True)
def _lowest(v):
    low = v & (~v + ONE)
    return _DB_INDEX[np.int64((low * _DB) >> _S58)]


@njit(cache=True)
def _x_to_move(x, o):
    return _popcount(x) == _popcount(o)


@njit(cache=True)
def _win_cells(me, you):
    cells = ZERO
    for i in range(LINES.shape[0]):
        mask = LINES[i]
        if (you & mask) == ZERO and _popcount(me & mask) == 3:
            cells |= mask & ~me
    return cells


@njit(cache=True)
def _new_threats(me, you, cell):
    cells = ZERO
    for k in range(N_THROUGH[cell]):
        mask = LINES[THROUGH[cell, k]]
        if (you & mask) == ZERO and _popcount(me & mask) == 3:
            cells |= mask & ~me
    return cells


# The threat search (`qubic.search.threats`).


@njit(cache=True)
def _hash(a, b):
    """A well-mixed hash of two bitboards: a product alone leaves the low bits blind to the
    high cells."""
    h = (a * _K1) ^ b
    h ^= h >> _S32
    h *= _K2
    return h ^ (h >> _S29)


@njit(cache=True)
def _rf_slot(me, you, t):
    return np.int64(_hash(me, you) & np.uint64(t.rf_val.shape[0] - 1))


@njit(cache=True)
def _attack(me, you, low_twos, high_twos, theirs, depth, ply, t):
    """Whether `me` to move forces a win by threats within `depth` own threats; its moves go
    to `t.line` from `ply` on. `low_twos` and `high_twos` have a bit per line (lines 0-63,
    64 on) holding two of `me` and none of `you`: inside a chain these are all that matter."""
    stats = t.stats
    if theirs != ZERO and stats[PURE] != 0:
        return False
    stats[T_NODES] += 1
    if stats[T_NODES] > stats[T_LIMIT]:
        stats[ABORTED] = 1
        return False
    cells = ZERO  # cells making a threat
    forks = ZERO  # cells making two at once
    for word in range(2):
        rest = low_twos if word == 0 else high_twos
        while rest != ZERO:
            index = _lowest(rest)
            rest ^= BIT[index]
            empty = LINES[index + 64 * word] & ~me
            forks |= cells & empty
            cells |= empty
    if theirs != ZERO:
        if (theirs & (theirs - ONE)) != ZERO:
            return False  # two of theirs: one block cannot stop both
        candidates = cells & theirs  # the block must also be a threat
    else:
        candidates = cells
    if (candidates & forks) != ZERO:
        t.line[ply] = _lowest(candidates & forks)
        stats[LINE_LENGTH] = ply + 1
        return True
    if candidates == ZERO:
        return False
    if depth == 1:
        stats[CUTS] += 1
        return False
    slot = _rf_slot(me, you, t)
    known = t.rf_key[slot, 0] == me and t.rf_key[slot, 1] == you
    if known and t.rf_val[slot] >= depth:
        if t.rf_val[slot] != EXHAUSTED:
            stats[CUTS] += 1  # deeper than it was refuted, it might yet win
        return False
    cuts = stats[CUTS]
    while candidates != ZERO:
        cell = _lowest(candidates)
        candidates ^= BIT[cell]
        mine = me | BIT[cell]
        made = ZERO
        new_low = ZERO
        new_high = ZERO
        for k in range(N_THROUGH[cell]):
            index = THROUGH[cell, k]
            mask = LINES[index]
            if (you & mask) == ZERO:
                count = _popcount(mine & mask)
                if count == 3:
                    made = mask & ~mine  # one threat: forks were taken above
                elif count == 2:
                    if index < 64:
                        new_low |= BIT[index]
                    else:
                        new_high |= BIT[index - 64]
        block = _lowest(made)
        yours = you | made
        counters = ZERO  # the block's own threats
        for k in range(N_THROUGH[block]):
            mask = LINES[THROUGH[block, k]]
            if (mine & mask) == ZERO and _popcount(yours & mask) == 3:
                counters |= mask & ~yours
        child_low = (low_twos & ~LOW_LINES[cell] | new_low) & ~LOW_LINES[block]
        child_high = (high_twos & ~HIGH_LINES[cell] | new_high) & ~HIGH_LINES[block]
        t.line[ply] = cell
        t.line[ply + 1] = block
        if _attack(mine, yours, child_low, child_high, counters, depth - 1, ply + 2, t):
            return True
        if stats[ABORTED]:
            return False
    if t.rf_val[slot] < 0:
        _note_used(t, 1, slot)
    t.rf_key[slot, 0] = me
    t.rf_key[slot, 1] = you
    t.rf_val[slot] = depth if stats[CUTS] != cuts else EXHAUSTED
    return False


@njit(cache=True)
def _threat_win(me, you, t):
    """The length of a forced win by threats for `me` to move, left in `t.line`; 0 if none
    was found within the leaf budget."""
    wins = ZERO
    theirs = ZERO
    low_twos = ZERO
    high_twos = ZERO
    for i in range(LINES.shape[0]):
        mask = LINES[i]
        if (you & mask) == ZERO:
            count = _popcount(me & mask)
            if count == 3:
                wins |= mask & ~me
            elif count == 2:
                if i < 64:
                    low_twos |= BIT[i]
                else:
                    high_twos |= BIT[i - 64]
        elif (me & mask) == ZERO and _popcount(you & mask) == 3:
            theirs |= mask & ~you
    stats = t.stats
    stats[ABORTED] = 0  # (also for a win at once: the caller reads it)
    if wins != ZERO:
        t.line[0] = _lowest(wins)
        return 1
    stats[T_LIMIT] = stats[T_NODES] + stats[LEAF]
    if _attack(me, you, low_twos, high_twos, theirs, np.int64(MAX_THREATS), np.int64(0), t):
        return stats[LINE_LENGTH]
    return 0


@njit(cache=True)
def _still_wins(length, me, you, cell, t):
    """Whether the forced win of `me` in `t.line` still works after `you` takes `cell`: not
    `qubic.search.threats.breaks`, compiled (neither side has a three before that move)."""
    you = you | BIT[cell]
    return _still_forces(t.line, length, me, you, ZERO, _new_threats(you, me, cell))


@njit(cache=True)
def _still_forces(line, length, me, you, mine, theirs):
    """`qubic.search.threats.still_forces`: whether the forced win of `me` in `line[:length]`
    still wins from here, `mine` and `theirs` each side's winning cells."""
    last = length - 1
    for i in range(0, length, 2):
        c = line[i]
        bit = BIT[c]
        if ((me | you) & bit) != ZERO:
            return False
        if (mine & bit) != ZERO:
            return i == last
        if (theirs & ~bit) != ZERO:
            return False
        me = me | bit
        made = _new_threats(me, you, c)
        if i == last:
            return (made & (made - ONE)) != ZERO
        block = line[i + 1]
        if made != BIT[block]:
            return False
        you = you | made
        theirs = _new_threats(you, me, block)
    return False


# The proof-number search (`qubic.search.prover`).


@njit(cache=True)
def _settle(x, o, t):
    """1 if X plainly wins, -1 if it plainly does not, 0 otherwise."""
    if (x | o) == FULL:
        return -1
    if _x_to_move(x, o):
        if _win_cells(x, o) != ZERO:
            return 1
        theirs = _win_cells(o, x)
        if (theirs & (theirs - ONE)) != ZERO:
            return -1
        return 1 if _threat_win(x, o, t) else 0
    if _win_cells(o, x) != ZERO:
        return -1
    mine = _win_cells(x, o)
    if (mine & (mine - ONE)) != ZERO:
        return 1
    if mine == ZERO and _threat_win(o, x, t):
        return -1
    return 0


@njit(cache=True)
def _score(me, you, cell):
    """`qubic.search.prover.ranked_cells`'s score: `me`'s open lines advanced, `you`'s pressed."""
    total = 0
    for k in range(N_THROUGH[cell]):
        mask = LINES[THROUGH[cell, k]]
        if (you & mask) == ZERO:
            total += 1 << (2 * _popcount(me & mask))
        elif (me & mask) == ZERO:
            total += 1 << (2 * _popcount(you & mask) - 1)
    return total


@njit(cache=True)
def _expand(x, o, ply, t):
    """Write the moves worth trying to `t.kids[ply]`, best first; return how many."""
    kids = t.kids[ply]
    if _x_to_move(x, o):
        forced = _win_cells(o, x)
        me, you, width = x, o, t.stats[WIDTH]
    else:
        forced = _win_cells(x, o)
        me, you, width = o, x, 64
    if forced != ZERO:
        kids[0] = _lowest(forced)
        return 1
    keys = np.empty(64, dtype=np.int64)
    n = 0
    empty = FULL & ~(x | o)
    while empty != ZERO:
        cell = _lowest(empty)
        empty ^= BIT[cell]
        keys[n] = -_score(me, you, cell) * 64 + cell  # best first, then the lowest cell
        n += 1
    keys = np.sort(keys[:n])
    length = _threat_win(you, me, t)  # the other side's forced win, were it its turn
    count = 0
    for i in range(n):
        cell = keys[i] % 64
        if length and _still_wins(length, you, me, cell, t):
            continue  # plainly lost for the side to move
        kids[count] = cell
        count += 1
        if count == width:
            break
    return count


@njit(cache=True)
def _tt_find(x, o, t):
    base = np.int64(_hash(x, o) & np.uint64(t.tt_val.shape[0] - 1)) & ~3
    for slot in range(base, base + 4):
        if t.tt_val[slot, 3] >= 0 and t.tt_key[slot, 0] == x and t.tt_key[slot, 1] == o:
            return slot
    return -1 - base


@njit(cache=True)
def _tt_store(x, o, pn, dn, move, work, t):
    slot = _tt_find(x, o, t)
    if slot < 0:  # the bucket's least worked slot
        base = -1 - slot
        slot = base
        for other in range(base + 1, base + 4):
            if t.tt_val[other, 3] < t.tt_val[slot, 3]:
                slot = other
        if t.tt_val[slot, 3] < 0:
            _note_used(t, 0, slot)
        t.tt_key[slot, 0] = x
        t.tt_key[slot, 1] = o
    t.tt_val[slot, 0] = pn
    t.tt_val[slot, 1] = dn
    t.tt_val[slot, 2] = move
    t.tt_val[slot, 3] = work


_child_thresholds = njit(cache=True)(prover.child_thresholds)  # the one rule, compiled


@njit(cache=True)
def _mid(x, o, pth, dth, t):
    """df-pn: search `(x, o)` until its numbers reach the thresholds or the budget ends."""
    stats = t.stats
    slot = _tt_find(x, o, t)
    if slot >= 0:
        if t.tt_val[slot, 0] == 0 or t.tt_val[slot, 1] == 0:
            return t.tt_val[slot, 0], t.tt_val[slot, 1]
    else:
        stats[EXPANDED] += 1
        verdict = _settle(x, o, t)
        if verdict != 0:
            pn, dn = (0, INF) if verdict > 0 else (INF, 0)
            _tt_store(x, o, pn, dn, -1, 1, t)
            return pn, dn
    or_node = _x_to_move(x, o)
    ply = _popcount(x | o)
    n = _expand(x, o, ply, t)
    if n == 0:  # every move plainly lost
        pn, dn = (INF, 0) if or_node else (0, INF)
        _tt_store(x, o, pn, dn, -1, 1, t)
        return pn, dn
    kids = t.kids[ply]
    start = stats[EXPANDED]
    while True:
        low = INF
        second = INF
        total = 0
        best = 0
        for i in range(n):
            bit = BIT[kids[i]]
            cx, co = (x | bit, o) if or_node else (x, o | bit)
            cslot = _tt_find(cx, co, t)
            cpn, cdn = (t.tt_val[cslot, 0], t.tt_val[cslot, 1]) if cslot >= 0 else (1, 1)
            if not or_node:
                cpn, cdn = cdn, cpn
            if cpn < low:
                second = low
                low = cpn
                best = i
            elif cpn < second:
                second = cpn
            total = min(INF, total + cdn)
            if low == 0:
                break
        pn, dn = (low, total) if or_node else (total, low)
        if pn == 0 or dn == 0 or pn >= pth or dn >= dth or stats[EXPANDED] >= stats[LIMIT]:
            break
        bit = BIT[kids[best]]
        cx, co = (x | bit, o) if or_node else (x, o | bit)
        cslot = _tt_find(cx, co, t)
        cpn, cdn = (t.tt_val[cslot, 0], t.tt_val[cslot, 1]) if cslot >= 0 else (1, 1)
        cpth, cdth = _child_thresholds(or_node, pn, dn, pth, dth, cpn, cdn, second)
        _mid(cx, co, cpth, cdth, t)
    move = kids[best] if pn == 0 and or_node else -1
    _tt_store(x, o, pn, dn, move, stats[EXPANDED] - start + 1, t)
    return pn, dn


@njit(cache=True)
def _prove(x, o, nodes, t):
    t.stats[LIMIT] = t.stats[EXPANDED] + nodes
    return _mid(x, o, np.int64(INF), np.int64(INF), t)


@njit(cache=True)
def _probe(x, o, t):
    """(proof number, winning move) as the table holds them; (1, -1) if it does not."""
    slot = _tt_find(x, o, t)
    if slot < 0:
        return 1, -1
    return t.tt_val[slot, 0], t.tt_val[slot, 2]


@njit(cache=True)
def _replies(x, o, t):
    """O's replies the search tries at `(x, o)`, as a new array."""
    ply = _popcount(x | o)
    n = _expand(x, o, ply, t)
    return t.kids[ply, :n].copy()


class FastProver:
    """The compiled df-pn with its tables; one instance may prove many roots, reusing what it
    learnt unless cleared between them (its tables belong to one `width` and leaf budget)."""

    def __init__(
        self, width: int = X_WIDTH, leaf_nodes: int = LEAF_NODES, tt_bits: int = 22
    ) -> None:
        self.width = width
        self.tables = new_tables(tt_bits, width=width, leaf_nodes=leaf_nodes)

    def clear(self) -> None:
        """Forget every position (not the counters): a search from a clear table answers the
        same whatever was searched before. A warm table may not: a forced win by threats
        found or missed within the leaf budget depends on what the threat search remembers,
        and so may a failure stored on the way."""
        clear_tables(self.tables)

    @property
    def expanded(self) -> int:
        return int(self.tables.stats[EXPANDED])

    def prove(self, x: int, o: int, nodes: int) -> Result:
        """Search `(x, o)` for at most `nodes` more expansions."""
        start, first = time.perf_counter(), self.expanded
        pn, dn = _prove(np.uint64(x), np.uint64(o), nodes, self.tables)
        return Result(
            status(int(pn), int(dn)),
            int(pn),
            int(dn),
            self.expanded - first,
            time.perf_counter() - start,
        )

    def strategy(self, x: int, o: int, nodes: int = 1_000_000) -> Iterator[tuple[int, int, int]]:
        """The quiet X moves `(x, o, cell)` of the proof of `(x, o)`, which must be proved.
        A position the tables have forgotten is proved again within `nodes`; RuntimeError if
        that fails."""
        t = self.tables

        def winning_move(x: int, o: int) -> int:
            pn, move = _probe(np.uint64(x), np.uint64(o), t)
            if pn != 0:
                if self.prove(x, o, nodes).status != PROVED:
                    raise RuntimeError(f"position {x:x} {o:x} of the proof not proved again")
                pn, move = _probe(np.uint64(x), np.uint64(o), t)
            return int(move)

        def replies(x: int, o: int) -> list[int]:
            return [int(cell) for cell in _replies(np.uint64(x), np.uint64(o), t)]

        return proof_moves(x, o, winning_move, replies)


class FastThreatSearch(ThreatSearch):
    """`ThreatSearch` with its full-depth search compiled: `forced_win(..., shortest=False)`,
    the question the setup search asks, runs `_threat_win` (the same search, lowest cell
    first, so the same line where neither runs out of budget), counting its positions in
    `nodes` against the same budget. Other questions go to the Python search. What it
    remembers of refuted positions lives in fixed-size tables, shared by the instances of a
    process and cleared for each new one: an answer must not depend on the searches before."""

    _shared: ClassVar[dict[bool, Tables]] = {}  # by `pure`

    def __init__(
        self, nodes: int | None = None, seconds: float | None = None, pure: bool = False
    ) -> None:
        """`pure`: forced wins by threats alone, as `PureThreatSearch` finds them."""
        super().__init__(nodes, seconds)
        self.pure = pure
        if pure not in FastThreatSearch._shared:
            FastThreatSearch._shared[pure] = new_tables(tt_bits=2, rf_bits=RF_BITS)
        self.tables = FastThreatSearch._shared[pure]
        clear_tables(self.tables)
        self.tables.stats[PURE] = pure

    def _attack(self, me: int, you: int, twos: int, theirs: int, depth: int) -> list[int] | None:
        if self.pure and theirs:
            return None
        return super()._attack(me, you, twos, theirs, depth)

    def forced_win(
        self, me: int, you: int, max_threats: int = MAX_THREATS, shortest: bool = True
    ) -> list[int] | None:
        if shortest or max_threats != MAX_THREATS:
            return super().forced_win(me, you, max_threats, shortest)
        key = (me, you, max_threats, shortest)
        if key in self._answers:
            return self._answers[key]
        if self.out_of_budget():
            raise OutOfBudget
        t = self.tables
        limit = self.node_limit
        left = limit - self.nodes if limit < UNLIMITED else UNLIMITED
        t.stats[LEAF] = max(1, left)
        before = int(t.stats[T_NODES])
        length = int(_threat_win(np.uint64(me), np.uint64(you), t))
        self.nodes += int(t.stats[T_NODES]) - before
        if t.stats[ABORTED]:
            raise OutOfBudget
        line = t.line[:length].tolist() if length else None
        self._answers[key] = line
        return line


class FreshThreatSearch(ThreatSearch):
    """The strategy's own question, `forced_win(..., shortest=False)` of a new
    `ThreatSearch(nodes)` (`qubic.search.strategy.x_move`), answered exactly, compiled. Its
    table is cleared for each question and forgets more than the Python search's, so the same
    search, lowest cell first, finds the same line in at least as many positions: a question
    it settles within `nodes` the Python search settles the same way, and one it cannot goes to
    the Python search."""

    def __init__(self, nodes: int, pure: bool = False) -> None:
        """`pure`: forced wins by threats alone, as `PureThreatSearch` finds them."""
        super().__init__(nodes)
        self.limit = nodes
        self.python = PureThreatSearch if pure else ThreatSearch
        self.tables = new_tables(tt_bits=2, rf_bits=FRESH_RF_BITS)
        self.tables.stats[PURE] = pure

    def forced_win(
        self, me: int, you: int, max_threats: int = MAX_THREATS, shortest: bool = True
    ) -> list[int] | None:
        if shortest or max_threats != MAX_THREATS:
            return self.python(self.limit).forced_win(me, you, max_threats, shortest)
        t = self.tables
        clear_tables(t)
        t.stats[LEAF] = self.limit
        length = int(_threat_win(np.uint64(me), np.uint64(you), t))
        if t.stats[ABORTED]:
            return self.python(self.limit).forced_win(me, you, shortest=False)
        return t.line[:length].tolist() if length else None


# The setup search (`qubic.search.setups`), compiled whole: one call per question, where the
# Python search crosses into compiled code for each of its threat searches (some ten thousand
# a question, each paying the crossing).

SETUP_BITS = 16  # the setup search's tables: 2**16 threat answers and refuted setup positions
LINE_CELLS = 2 * MAX_THREATS + 2  # the longest forced win a threat answer holds
SETUP_OUT = -2  # the setup search ran out of its budget


class SetupTables(NamedTuple):
    """A compiled setup search's memory: threat answers by position (`ans_*`, length -1 for
    an empty slot, 0 for no win), positions refuted with so many setups (`sr_*`), and the
    threat-search node count at which the question runs out (`limit`)."""

    ans_key: np.ndarray
    ans_len: np.ndarray
    ans_line: np.ndarray
    sr_key: np.ndarray
    sr_val: np.ndarray
    limit: np.ndarray


def new_setup_tables(bits: int = SETUP_BITS) -> SetupTables:
    return SetupTables(
        np.zeros((1 << bits, 2), dtype=np.uint64),
        np.full(1 << bits, -1, dtype=np.int64),
        np.zeros((1 << bits, LINE_CELLS), dtype=np.int64),
        np.zeros((1 << bits, 2), dtype=np.uint64),
        np.full(1 << bits, -1, dtype=np.int64),
        np.zeros(1, dtype=np.int64),
    )


@njit(cache=True)
def _threat_answer(me, you, s, t):
    """The slot of `s` holding the forced win by threats of `me` to move (its length 0 if
    none), searched once; -1 when the budget ran out."""
    slot = np.int64(_hash(me, you) & np.uint64(s.ans_len.shape[0] - 1))
    if s.ans_len[slot] >= 0 and s.ans_key[slot, 0] == me and s.ans_key[slot, 1] == you:
        return slot
    stats = t.stats
    if stats[T_NODES] > s.limit[0]:
        stats[ABORTED] = 1
        return -1
    stats[LEAF] = max(1, s.limit[0] - stats[T_NODES])
    length = _threat_win(me, you, t)
    if stats[ABORTED]:
        return -1
    s.ans_key[slot, 0] = me
    s.ans_key[slot, 1] = you
    s.ans_len[slot] = length
    for i in range(length):
        s.ans_line[slot, i] = t.line[i]
    return slot


@njit(cache=True)
def _setup_attack(me, you, setups, quiet_first, free_blocks, s, t):
    """`SetupSearch._attack`: a winning first move of `me` with at most `setups` setups, -1
    if none, SETUP_OUT when the budget ran out. `quiet_first`: the quiet moves in a first
    pass, the threats in a second; `free_blocks`: a quiet block costs no setup."""
    slot = _threat_answer(me, you, s, t)
    if slot < 0:
        return SETUP_OUT
    if s.ans_len[slot] > 0:
        return s.ans_line[slot, 0]
    theirs = _win_cells(you, me)
    if (theirs & (theirs - ONE)) != ZERO:
        return -1
    cost = 0 if free_blocks and theirs != ZERO else 1
    if setups < cost:
        return -1
    rs = np.int64(_hash(me, you) & np.uint64(s.sr_val.shape[0] - 1))
    if s.sr_key[rs, 0] == me and s.sr_key[rs, 1] == you and s.sr_val[rs] >= setups:
        return -1
    if theirs != ZERO:
        candidates = BIT[_lowest(theirs)]
    else:  # empty cells on a line we hold and they do not
        candidates = ZERO
        for i in range(LINES.shape[0]):
            mask = LINES[i]
            if (me & mask) != ZERO and (you & mask) == ZERO:
                candidates |= mask
        candidates &= ~(me | you) & FULL
    for phase in range(2 if quiet_first else 1):
        cells = candidates
        while cells != ZERO:
            cell = _lowest(cells)
            cells ^= BIT[cell]
            mine = me | BIT[cell]
            block = _new_threats(mine, you, cell)
            if quiet_first and (block != ZERO) != (phase == 1):
                continue  # a threat in the first pass, or a quiet move in the second
            if block != ZERO:  # a threat: its block is forced, and the setups after it decide
                found = _setup_attack(mine, you | block, setups, quiet_first, free_blocks, s, t)
                if found == SETUP_OUT:
                    return SETUP_OUT
                if found >= 0:
                    return cell
                continue
            slot = _threat_answer(mine, you, s, t)
            if slot < 0:
                return SETUP_OUT
            length = s.ans_len[slot]
            if length > 0:
                line = s.ans_line[slot, :length].copy()  # the slot may be taken while we use it
                status, replies = _unforced_replies(mine, you, line, length, s, t)
                if status == SETUP_OUT:
                    return SETUP_OUT
                while status == 1 and replies != ZERO:  # each must lose to a setup in turn
                    reply = _lowest(replies)
                    replies ^= BIT[reply]
                    found = _setup_attack(
                        mine, you | BIT[reply], setups - cost, quiet_first, free_blocks, s, t
                    )
                    if found == SETUP_OUT:
                        return SETUP_OUT
                    status = 1 if found >= 0 else 0
                if status == 1:
                    return cell
    s.sr_key[rs, 0] = me
    s.sr_key[rs, 1] = you
    s.sr_val[rs] = setups
    return -1


@njit(cache=True)
def _unforced_replies(me, you, line, length, s, t):
    """`SetupSearch._refutations_fail`'s first half: (1, the replies of `you` to our threat
    `line` after which it no longer forces a win), (0, 0) if `you` has a forced win of its
    own, (SETUP_OUT, 0) when the budget ran out. The caller asks each reply for a setup: the
    one recursion is `_setup_attack`'s own, as numba caches no mutual recursion."""
    slot = _threat_answer(you, me, s, t)
    if slot < 0:
        return SETUP_OUT, ZERO
    if s.ans_len[slot] > 0:
        return 0, ZERO
    mine = _win_cells(me, you)
    theirs = _win_cells(you, me)
    empty = ~(me | you) & FULL
    replies = ZERO
    while empty != ZERO:
        cell = _lowest(empty)
        empty ^= BIT[cell]
        yours = you | BIT[cell]  # `qubic.search.threats.breaks`, inlined
        threes = (theirs & ~BIT[cell]) | _new_threats(yours, me, cell)
        if not _still_forces(line, length, me, yours, mine & ~BIT[cell], threes):
            replies |= BIT[cell]
    return 1, replies


@njit(cache=True)
def _setup_win(me, you, max_setups, quiet_first, free_blocks, s, t):
    for setups in range(max_setups + 1):
        found = _setup_attack(me, you, setups, quiet_first, free_blocks, s, t)
        if found != -1:
            return found
    return -1


class FastSetupSearch(SetupSearch):
    """`SetupSearch` compiled whole, over a `FastThreatSearch`'s tables and budget: the same
    search, lowest cell first, so the same move where neither runs out. What it remembers
    (threat answers, refuted setups) lives in fixed-size tables of its own, which forget on
    collision, so near its budget it may run out where the Python search would not."""

    def __init__(
        self, threats: FastThreatSearch, quiet_first: bool = False, free_blocks: bool = False
    ) -> None:
        super().__init__(threats, quiet_first, free_blocks)
        self.fast_threats = threats
        self.tables = new_setup_tables()

    def forced_win(
        self,
        me: int,
        you: int,
        max_setups: int = MAX_SETUPS,
        nodes: int | None = None,
        seconds: float | None = None,
    ) -> int | None:
        if nodes is not None or seconds is not None:
            return super().forced_win(me, you, max_setups, nodes, seconds)
        threats = self.fast_threats
        t = threats.tables
        start = int(t.stats[T_NODES])
        self.tables.limit[0] = start + min(UNLIMITED, threats.node_limit - threats.nodes)
        found = int(
            _setup_win(
                np.uint64(me),
                np.uint64(you),
                max_setups,
                self.quiet_first,
                self.free_blocks,
                self.tables,
                t,
            )
        )
        threats.nodes += int(t.stats[T_NODES]) - start
        if found == SETUP_OUT:
            raise OutOfBudget
        return None if found < 0 else found
