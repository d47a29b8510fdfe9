"""The walk of the strategy that the book writer, `shrink` and the verifier share.

From a position with X to move, X wins or blocks where it can, else plays a mover's move (level
perfect's by default), and O tries every reply, replies that are images of each other under
the symmetries fixing the position once, and positions met before (up to symmetry) once.
Where X has a three, O's replies other than the block are counted, not walked: X wins at once.
A walk through workers walks its top here and cuts the rest into parts, each journalled as it
arrives, so a walk stopped part way resumes.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from qubic.core.board import Board, winning_mask
from qubic.core.geometry import CUBE, Orientation
from qubic.core.symmetry import line_profile, orbits, profile_after, stabilizer
from qubic.proof.pool import Journal, digest, run_tasks
from qubic.proof.progress import Progress
from qubic.search import strategy
from qubic.search.strategy import Reason, XMove, quiet_move
from qubic.search.threats import lowest, new_threats

# X's move and why where X has no line to complete and O none to block (`quiet_move`), given
# the book and the position's orientation if the caller has it.
Mover = Callable[[int, int, strategy.Entries, Orientation | None], XMove | None]
QUIET: tuple[Reason, ...] = ("book", "setup")  # the reasons of the quiet moves a book must hold
PARTS = 160  # the parts a walk through workers is cut into: enough to keep every worker
# busy to the end and to lose little to a stop; each part walks what it meets again
SPLIT_DEPTH = 3  # at most this many of X's moves are walked here to find the parts


@dataclass
class Walk:
    """What a walk met: X-to-move positions by how X answered them, the failures (each as the
    moves from the start of the walk), the quiet moves X played (a book of them), and O's
    replies that were not walked because they leave X a win at once (not blocking X's
    three)."""

    answered: Counter[str] = field(default_factory=Counter)
    failures: list[list[int]] = field(default_factory=list)
    quiet: strategy.Entries = field(default_factory=dict)
    lost_at_once: int = 0
    seconds: float = 0.0
    frontier: list[list[int]] = field(default_factory=list)  # lines left for other walks

    @property
    def positions(self) -> int:
        return sum(self.answered.values()) + len(self.failures)


Trail = tuple[int, "Trail"] | None  # the moves to a position, last first: siblings share it
# A position with X to move, as the walk keeps it: the bitboards, the moves to it, X's and O's
# winning cells and its line profile, the last three found from its parent's (only a move's
# lines change).
Position = tuple[int, int, Trail, int, int, int]


def _moves(path: Trail) -> list[int]:
    cells = []
    while path is not None:
        cells.append(path[0])
        path = path[1]
    return cells[::-1]


def walk(
    moves: list[int],
    book: strategy.Entries,
    limit: int | None = None,
    executor: Executor | None = None,
    mover: Mover = quiet_move,
) -> Walk:
    """Walk the strategy from the position after `moves` (X to move), or from the first
    `limit` positions of it, as `walk_lines` does from one line."""
    return walk_lines([moves], book, executor, limit, mover)


def x_lines(moves: list[int]) -> list[list[int]]:
    """The lines from `moves` to X's turn: `moves` itself when X is to move, else `moves` and
    each of O's replies (once per class under the position's symmetries; the block alone when
    X has a three)."""
    if len(moves) % 2 == 0:
        return [moves]
    x, o = Board.from_moves(moves).bits
    empty = CUBE.full_mask & ~(x | o)
    return [[*moves, reply] for reply in _o_replies(x, o, empty, winning_mask(x, o))]


def _o_replies(x: int, o: int, empty: int, mine: int) -> list[int]:
    """The replies of O a walk follows, `mine` being the cells that win for X: the block alone
    when X has a three (every other reply loses at once), else one per class of `empty`
    under the position's symmetries."""
    return [lowest(mine)] if mine else list(orbits(empty, stabilizer(CUBE, x, o)))


def walk_lines(
    lines: list[list[int]],
    book: strategy.Entries,
    executor: Executor | None = None,
    limit: int | None = None,
    mover: Mover = quiet_move,
    journal: Journal | None = None,
    progress: Progress | None = None,
    parts: int = PARTS,
) -> Walk:
    """Walk the strategy from the position after each of `lines` (X to move), X winning or
    blocking where it can, else playing `mover`'s moves. With an `executor` or a `journal`,
    the top (X's answers and O's replies) is walked a level at a time until some `parts`
    lines are left, whose subtrees are walked in parts (`limit` counts within each), each
    part's answer journalled as it arrives, so a walk run again takes the parts it finished
    from there. A position two parts meet is walked in each."""
    if executor is None and journal is None:
        return _walk(lines, book, limit, mover)
    start = time.perf_counter()
    book_key = digest(sorted(book.items()))
    journal = journal or Journal(None)

    def in_parts(frontier: list[list[int]], split: bool) -> list[Walk]:
        """`_walk` over `frontier` cut into some `parts` chunks, each journalled under its
        own key; when `split`, only X's first answers (a level of the top)."""
        size = max(1, -(-len(frontier) // parts))
        chunks = [frontier[i : i + size] for i in range(0, len(frontier), size)]
        kind = "top" if split else "walk"
        return run_tasks(
            partial(_walk, book=book, limit=limit, mover=mover, split=split, book_key=book_key),
            chunks,
            [digest(kind, book_key, _name(mover), limit, chunk) for chunk in chunks],
            journal,
            partial(_encode, frontier=split),
            _decode,
            executor,
            progress,
            seconds=lambda part: part.seconds,
            count=not split,
        )

    result = Walk()
    frontier = lines
    for depth in range(SPLIT_DEPTH):
        if len(frontier) >= parts:
            break
        # X's answers and O's replies, a level at a time, in the workers too: the book's
        # mover searches for setups, which takes time even near the root.
        if progress is not None:
            progress.update(note=f"level {depth + 1} of the top")
        tops = in_parts(frontier, split=True)
        frontier = [line for top in tops for line in top.frontier]
        for top in tops:
            _merge(result, top)
    if progress is not None:
        progress.update(note="")
    for part in in_parts(frontier, split=False):
        _merge(result, part)
    result.seconds = time.perf_counter() - start
    return result


def _merge(result: Walk, part: Walk) -> None:
    result.answered.update(part.answered)
    result.failures += part.failures
    result.quiet |= part.quiet
    result.lost_at_once += part.lost_at_once


def _name(mover: Mover) -> str:
    """A name for `mover` that is the same in every run (a key of the journal)."""
    if isinstance(mover, partial):
        return f"{mover.func.__name__}{sorted(mover.keywords.items())}"
    return getattr(mover, "__name__", type(mover).__name__)


def _encode(part: Walk, frontier: bool = False) -> dict[str, Any]:
    return {
        "frontier": part.frontier if frontier else [],
        "answered": dict(part.answered),
        "failures": part.failures,
        "quiet": [[x, o, cell] for (x, o), cell in part.quiet.items()],
        "lost": part.lost_at_once,
        "seconds": part.seconds,
    }


def _decode(data: dict[str, Any]) -> Walk:
    return Walk(
        Counter(data["answered"]),
        data["failures"],
        {(x, o): cell for x, o, cell in data["quiet"]},
        data["lost"],
        data["seconds"],
        data["frontier"],
    )


_profiles: dict[str, set[int]] = {}  # the book's line profiles, by its digest


def _walk(
    starts: list[list[int]],
    book: strategy.Entries,
    limit: int | None = None,
    mover: Mover = quiet_move,
    split: bool = False,
    book_key: str | None = None,
) -> Walk:
    """`walk` from each of `starts` in this process; when `split`, only X's first answers,
    with the lines to O's replies to them left in `frontier`. `book_key`: the book's digest,
    under which this process keeps what it derives from the book for the next part."""
    start = time.perf_counter()
    result = Walk()
    seen: set[tuple[int, int]] = set()
    stack = _positions(starts)
    profiles = _book_profiles(book, book_key)
    while stack and (limit is None or result.positions < limit):
        x, o, path, mine, theirs, profile = stack.pop()
        if mine:  # no need to look for the position again
            result.answered["win"] += 1
            continue
        if theirs or profile in profiles:
            orientation = CUBE.orient(x, o)
            if orientation[0] in seen:
                continue
            seen.add(orientation[0])
            move = XMove(lowest(theirs), "block") if theirs else mover(x, o, book, orientation)
        else:  # not in the book: X's move is its forced win by threats (or, as the book is
            # built, a win with setups), else none. Most such positions are on a forced line,
            # met once, so finding them again (the orientation, as long as the rest of a
            # position's work) is not worth it.
            orientation = None
            move = mover(x, o, {}, None)
        if move is None:
            result.failures.append(_moves(path))
            continue
        cell, reason = move
        result.answered[reason] += 1
        if reason in QUIET:
            key, symmetry = orientation or CUBE.orient(x, o)
            result.quiet[key] = symmetry[cell]
        profile = profile_after(CUBE, profile, x, o, cell)
        x |= 1 << cell
        path = (cell, path)
        empty = CUBE.full_mask & ~(x | o)
        theirs &= ~(1 << cell)  # each of O's threes has one empty cell: X's stone ends those
        if not empty or theirs:  # a draw, or O wins
            result.failures.append(_moves(path if not theirs else (lowest(theirs), path)))
            continue
        mine = new_threats(x, o, cell)  # X had no three: any now is through its stone
        if mine:
            result.lost_at_once += empty.bit_count() - 1
        _o_turn(result, stack if not split else None, x, o, empty, mine, profile, path)
    result.seconds = time.perf_counter() - start
    return result


def _positions(starts: list[list[int]]) -> list[Position]:
    """The positions after each of `starts`, found afresh."""
    stack: list[Position] = []
    for moves in starts:
        path: Trail = None
        for cell in moves:
            path = (cell, path)
        x, o = Board.from_moves(moves).bits
        stack.append((x, o, path, winning_mask(x, o), winning_mask(o, x), line_profile(CUBE, x, o)))
    return stack


def _book_profiles(book: strategy.Entries, book_key: str | None) -> set[int]:
    """The line profiles of the book's positions, kept in this process under `book_key`."""
    profiles = _profiles.get(book_key or "") if book_key else None
    if profiles is None:
        profiles = {line_profile(CUBE, x, o) for x, o in book}
        if book_key:
            _profiles.clear()  # one book at a time
            _profiles[book_key] = profiles
    return profiles


def _o_turn(
    result: Walk,
    stack: list[Position] | None,
    x: int,
    o: int,
    empty: int,
    mine: int,
    profile: int,
    path: Trail,
) -> None:
    """O's replies after X's move, the last of `path` (`mine`, `profile`: X's winning cells and
    the line profile after it): a reply that fills the cube is a failure, the others go on
    the `stack`, or, without one, to the walk's frontier."""
    for reply in _o_replies(x, o, empty, mine):
        after = o | 1 << reply
        if after | x == CUBE.full_mask:
            result.failures.append(_moves((reply, path)))
        elif stack is None:
            result.frontier.append(_moves((reply, path)))
        else:
            stack.append(
                (
                    x,
                    after,
                    (reply, path),
                    mine & ~(1 << reply),
                    new_threats(after, x, reply),  # O had no three: the same
                    profile_after(CUBE, profile, x, o, reply, second_plays=True),
                )
            )
