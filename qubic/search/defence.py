"""Attack and defence by threats: the move a position calls for, and what a defence is.

The one rule for a defence, used by ANALYZE, the engine's `analyze`, HINT, the review's marks,
the puzzles and every level from hard up:

    A move *stops* the opponent's forced win by threats when, after it and the forced exchange
    it starts (each three answered by its block, and any three that block makes answered in
    turn), we can hold: the opponent has no forced win by threats, or the exchange left us to
    move and one of our moves stops it, by this same rule. A three whose every continuation
    leaves the forced win standing only *delays* it.

Each turn looked through after an exchange follows a three of ours, so the chains end. The rule
looks through 0, 1, 2, ... such turns until no answer is cut short (`deepened`), bounded only
by the search's budget, which its own work is charged to: when the budget runs out, the
deepest bound completed answers, and a stop it found is a stop.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator
from enum import Enum

from qubic.core.board import iter_bits, winning_mask
from qubic.search.threats import (
    OutOfBudget,
    ThreatSearch,
    breaks,
    lowest,
    new_threats,
)


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
    mine, yours, turns, _ = _exchange(me, you, cell, search)
    return None if turns == 0 else (mine, yours, turns)


def _exchange(me: int, you: int, cell: int, search: ThreatSearch) -> tuple[int, int, int, bool]:
    """`exchange`, and who won where it ends in a win: `(me, you, 0, ours)`."""
    geometry = search.geometry
    me |= 1 << cell
    if winning_mask(you, me, geometry):
        return me, you, 0, False  # the opponent completes a line at once
    turns, last = 1, cell
    mover, other = me, you
    while True:
        made = new_threats(mover, other, last, geometry) & ~(mover | other)
        if not made:
            break
        if made & (made - 1):
            # Two threes at once win: every earlier three was blocked, so the side to answer
            # them has no line of its own to complete first.
            return me, you, 0, turns % 2 == 1
        other |= made
        last = lowest(made)
        mover, other = other, mover
        turns += 1
    mine, yours = (mover, other) if turns % 2 == 1 else (other, mover)
    return mine, yours, turns, False


def classify(
    search: ThreatSearch,
    me: int,
    you: int,
    cell: int,
    depth: int | None = None,
) -> Defence:
    """What `me` playing `cell` does against the opponent's forced win by threats (the rule
    in this module's docstring), as deep as the budget allows (see `deepened`). `depth`, where
    given, bounds the turns looked through after an exchange instead: a cheaper, cautious
    answer that calls a stop found only deeper a delay. Raises OutOfBudget."""
    if depth is not None:
        return _classify(search, me, you, cell, depth, _Look())
    return deepened(search, me, you, [cell])[cell]


def deepened(
    search: ThreatSearch, me: int, you: int, cells: list[int], first: bool = False
) -> dict[int, Defence]:
    """Each of `cells` classified, looking through 0, 1, 2, ... of our turns after an exchange
    until no answer was cut short by that bound (or, with `first`, until one stops). A stop
    found at any bound is a stop; when the budget runs out, the answers of the deepest bound
    completed, whose delays are delays as far as they looked. Raises OutOfBudget when not even
    the first bound completes."""
    found: dict[int, Defence] = {}
    look, looking, depth = _Look(), list(cells), 0
    while looking:
        look.cut, now = False, {}
        try:
            for cell in looking:
                now[cell] = _classify(search, me, you, cell, depth, look)
                if first and now[cell] is Defence.STOPS:
                    break
        except OutOfBudget:
            if depth == 0:
                raise
            break
        found.update(now)
        if not look.cut or (first and Defence.STOPS in now.values()):
            break
        looking, depth = [cell for cell in now if now[cell] is Defence.DELAYS], depth + 1
    return found


class _Look:
    """What the classifications of one question share, from bound to bound: for positions
    `(me, you)` with `me` to move against the opponent's win, the fewest turns within which
    `me` was seen to hold, the most within which it was seen not to, and whether that was
    so however deep one looks; and whether the current bound cut any answer short."""

    def __init__(self) -> None:
        self.held: dict[tuple[int, int], tuple[int, int, bool]] = {}
        self.cut = False


NEVER = 1 << 30  # turns within which a position was seen to hold, where it was not
CLASSIFY_NODES = 25  # threat-search nodes a classification costs in time, charged to the budget


def _classify(
    search: ThreatSearch, me: int, you: int, cell: int, depth: int, look: _Look
) -> Defence:
    search.nodes += CLASSIFY_NODES  # its own work, which cached searches do not count
    if search.out_of_budget():
        raise OutOfBudget
    mine, yours, turns, won = _exchange(me, you, cell, search)
    if turns == 0:
        return Defence.STOPS if won else Defence.FAILS
    line = search.forced_win(yours, mine, shortest=False)
    if line is None:
        return Defence.STOPS
    if turns % 2 == 1:
        return Defence.FAILS if turns == 1 else Defence.DELAYS
    return Defence.STOPS if _holds(search, mine, yours, line, depth, look) else Defence.DELAYS


def _holds(
    search: ThreatSearch, me: int, you: int, line: list[int], depth: int, look: _Look
) -> bool:
    """Whether `me`, to move against the opponent's forced win `line`, has a stop within
    `depth` more turns. Holding within some bound holds within any deeper; not holding
    within some bound does not within any shallower."""
    within, short, always = look.held.get((me, you), (NEVER, -1, False))
    if depth >= within:
        return True
    if always:
        return False
    if depth <= short or depth == 0:
        look.cut = True
        return False
    outer, look.cut = look.cut, False
    holds = any(
        _classify(search, me, you, c, depth - 1, look) is Defence.STOPS
        for c in candidates(search, me, you, line)
    )
    look.held[(me, you)] = (depth, short, False) if holds else (within, depth, not look.cut)
    look.cut = look.cut or outer
    return holds


def stops(search: ThreatSearch, me: int, you: int, cell: int) -> bool:
    """Whether `cell` stops the opponent's forced win by threats (see `classify`)."""
    return classify(search, me, you, cell) is Defence.STOPS


def candidates(search: ThreatSearch, me: int, you: int, line: list[int]) -> Iterator[int]:
    """Our moves that might stop or delay the opponent's forced win `line`, the line's own
    cells first: our threes (even one whose block is the line's first move delays it) and the
    moves it no longer forces through. Every other move leaves it winning, so it can be
    neither stop nor delay. Lazy: a caller that wants one stop looks at few."""
    geometry = search.geometry
    empty = geometry.full_mask & ~(me | you)
    theirs, ours = winning_mask(you, me, geometry), winning_mask(me, you, geometry)
    on_line = [cell for cell in dict.fromkeys(line) if empty >> cell & 1]
    rest = [cell for cell in iter_bits(empty) if cell not in on_line]
    for cell in on_line + rest:
        if new_threats(me | 1 << cell, you, cell, geometry) or breaks(
            line, you, me, cell, geometry, (theirs, ours)
        ):
            yield cell


def defences(
    search: ThreatSearch, me: int, you: int, line: list[int], cells: Iterable[int] | None = None
) -> dict[int, Defence]:
    """What each move that might matter does against the opponent's forced win `line`:
    `cells` (default: `candidates`), each classified (`deepened`). Raises OutOfBudget."""
    chosen = sorted(candidates(search, me, you, line)) if cells is None else list(cells)
    return deepened(search, me, you, chosen)


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
    """`best_defence` against the opponent's forced win `threat`, the move alone. When the
    budget runs out, the best found so far."""
    try:
        return best_defence(search, me, you, ranked, threat)[0]
    except OutOfBudget:
        return (ordered(candidates(search, me, you, threat), ranked) or ranked)[0]


Longest = Callable[[int, int], "int | None"]
"""Where no move stops the opponent's forced win: given our bits and the opponent's, the move
that holds it off longest by a measure of the caller's own, or None where it does not know."""


def best_defence(
    search: ThreatSearch,
    me: int,
    you: int,
    ranked: list[int],
    line: list[int] | None,
    longest: Longest | None = None,
) -> tuple[int, bool]:
    """The best defence against the opponent's forced win `line` (None: it has none we know
    of, and every ranked move is looked at), and whether it stops it: the first move in
    `ranked` order that does; when none does, `resisting`'s move. Raises OutOfBudget."""
    cells = ranked if line is None else ordered(candidates(search, me, you, line), ranked)
    cell = first_stop(search, me, you, cells)
    if cell is not None:
        return cell, True
    return resisting(search, me, you, ranked, cells, longest), False


def stopping(
    search: ThreatSearch, me: int, you: int, ranked: list[int], line: list[int]
) -> tuple[list[int], list[int]]:
    """Every move that stops the opponent's forced win `line`, and the other moves that might
    matter, each in `ranked` order; as many as the budget finds. Where `best_defence` wants
    the first stop, this wants them all; each is classified to its own depth (`classify`),
    where `defences` deepens them all together, bound by bound, so that the two spend a
    budget differently."""
    found: dict[int, Defence] = {}
    with contextlib.suppress(OutOfBudget):
        for cell in candidates(search, me, you, line):
            found[cell] = classify(search, me, you, cell)
    stops = [cell for cell in ranked if found.get(cell) is Defence.STOPS]
    return stops, [cell for cell in ranked if cell in found and cell not in stops]


def resisting(
    search: ThreatSearch,
    me: int,
    you: int,
    ranked: list[int],
    cells: list[int],
    longest: Longest | None = None,
) -> int:
    """Where none of `cells` (the moves that might matter, best first) stops the opponent's
    forced win: the move `longest` names, else the one of `cells` that makes the win longest
    (`hold_out`), else the best ranked."""
    move = longest(me, you) if longest is not None else None
    if move is None:
        move = hold_out(search, me, you, cells) if cells else ranked[0]
    return move


def first_stop(search: ThreatSearch, me: int, you: int, cells: list[int]) -> int | None:
    """The first of `cells` found to stop the opponent's forced win by threats, at the
    shallowest bound (`deepened`); None when none does. Raises OutOfBudget."""
    found = deepened(search, me, you, cells, first=True)
    return next((cell for cell in cells if found.get(cell) is Defence.STOPS), None)


def ordered(cells: Iterable[int], ranked: list[int]) -> list[int]:
    """`cells` in `ranked` order, any not ranked last."""
    order = {cell: rank for rank, cell in enumerate(ranked)}
    return sorted(cells, key=lambda c: order.get(c, len(order)))


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
