"""Making the book smaller: heavy entries asked again for a win with one more setup.

The build's walk plays a win with at most `book.SETUPS` setups before the proof's move. A
third setup everywhere needs more entries, not fewer (below `111 224`: 692 instead of 657),
but where the proof's move leads into a large subtree, a win with three setups often needs a
small part of it: of the 71 entries of 4 stones with 20 or more entries below them in the
book of 6,379, 21 had one, needing 460 entries where they needed 1,422. So once the walk is
complete, each entry of `LEVELS` stones, deepest first, with at least `HEAVY` entries below
it is asked again with `DEEP_SETUPS` setups and a larger budget; the win found is walked,
and kept where it needs fewer entries than the subtree it replaces.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection
from concurrent.futures import Executor
from functools import partial
from typing import NamedTuple

from qubic.core.board import iter_bits, winning_mask
from qubic.core.geometry import CUBE
from qubic.proof.pool import Journal, digest, run_tasks
from qubic.proof.progress import Progress
from qubic.proof.walk import Mover, walk_lines
from qubic.search.setups import SetupSearch
from qubic.search.strategy import Entries
from qubic.search.threats import OutOfBudget, lowest

DEEP_SETUPS = 3  # the setups of the wins the heavy entries are asked for
DEEP_NODES = 20_000_000  # threat-search positions for each of those searches
RAW_FROM = 8  # `Reach` meets positions of this many stones or more by their bitboards
HEAVY = 10  # the entries below an entry (its own included) that make it worth asking again
# The stones of the entries asked, deepest first: a lighter subtree below changes the weight
# of the entries above it.
LEVELS = (12, 10, 8, 6, 4)


class Reach:
    """The entries of a book the strategy meets below a position. Where X has no win, no
    block and no entry, X has a forced win by threats, so the walk needs no search: X wins,
    blocks or plays the entry, and O's every reply follows. Positions of fewer than
    `RAW_FROM` stones are met once per class; deeper ones, which seldom meet an image of
    each other, by their own bitboards, looked up among every image of the entries."""

    def __init__(self, quiet: Entries) -> None:
        self.quiet: Entries = {}
        self.images: Entries = {}
        self.update(quiet)

    def update(self, entries: Entries) -> None:
        """Add `entries`, or change their moves."""
        self.quiet |= entries
        for (x, o), cell in entries.items():
            if x.bit_count() + o.bit_count() >= RAW_FROM:
                for image_x, image_o, symmetry in zip(
                    CUBE.images(x), CUBE.images(o), CUBE.symmetries, strict=True
                ):
                    self.images[image_x, image_o] = symmetry[cell]

    def below(self, x: int, o: int) -> set[tuple[int, int]]:
        """The entries met from `(x, o)`, X to move, its own included."""
        met: set[tuple[int, int]] = set()
        seen: set[tuple[int, int]] = set()
        todo = [(x, o)]
        while todo:
            mine, yours = todo.pop()
            if mine.bit_count() + yours.bit_count() < RAW_FROM:
                mine, yours = key = canonical = CUBE.canonical(mine, yours)
                cell = self.quiet.get(key)
            else:
                key, canonical = (mine, yours), None  # the class's key, only if an entry
                cell = self.images.get(key)
            if key in seen or winning_mask(mine, yours):
                continue
            seen.add(key)
            theirs = winning_mask(yours, mine)
            if theirs:
                cell = lowest(theirs)
            elif cell is None:
                continue
            else:
                met.add(canonical or CUBE.canonical(mine, yours))
            mine |= 1 << cell
            empty = CUBE.full_mask & ~(mine | yours)
            threes = winning_mask(mine, yours)
            replies = iter_bits(empty) if not threes else [lowest(threes)]
            todo += [(mine, yours | 1 << reply) for reply in replies]
        return met


def line_to(x: int, o: int) -> list[int]:
    """Moves from the empty cube to `(x, o)`, X to move."""
    line = []
    for mine, yours in zip(iter_bits(x), iter_bits(o), strict=True):
        line += [mine, yours]
    return line


class Lighter(NamedTuple):
    """A heavy entry asked again: the first move of a win with `DEEP_SETUPS` setups (None if
    there is none within `DEEP_NODES`, or it is the entry's own), the quiet moves of the walk
    below it, the positions that walk found no move at, and the CPU seconds it took."""

    cell: int | None
    quiet: Entries
    failures: int
    seconds: float


def ask_again(
    entry: tuple[tuple[int, int], int],
    book: Entries,
    mover: Mover,
    search: Callable[[int], SetupSearch],
) -> Lighter:
    """An entry, `(key, move)`, asked again (`Lighter`) of `search(DEEP_NODES)`, a new setup
    search; the walk below a new move takes the book's moves where `mover` has none (below
    the entry's own move it would walk the subtree the book has). Runs in a worker process."""
    start = time.process_time()
    key, played = entry
    x, o = key
    try:
        cell = search(DEEP_NODES).forced_win(x, o, DEEP_SETUPS)
    except OutOfBudget:
        cell = None
    if cell is None or cell == played:
        return Lighter(None, {}, 0, time.process_time() - start)
    walk = walk_lines([line_to(x, o)], {**book, key: cell}, mover=mover)
    return Lighter(cell, walk.quiet, len(walk.failures), time.process_time() - start)


def shrink(
    quiet: Entries,
    book: Entries,
    roots: list[tuple[int, int]],
    mover: Mover,
    search: Callable[[int], SetupSearch],
    journal: Journal,
    executor: Executor | None = None,
    progress: Callable[[str], Progress] | None = None,
    chosen: Collection[tuple[int, int]] = (),
) -> Entries:
    """The quiet moves of a complete walk from `roots` (X to move), each heavy entry of
    `LEVELS` replaced by a win with `DEEP_SETUPS` setups where that needs fewer entries below
    it, and only the entries the strategy then meets. The entries `chosen` names (X's chosen
    moves) are not asked: a chosen move's subtree may be another entry's too, which the
    count below it does not see. `book`: the moves the walk took where it
    had no setup (the checkpoint's, and those proved again), which the walks below new moves
    take too; `mover`: the walk's; `search`: a new setup search of so many threat-search
    positions. Each level's questions run through `executor` (its answers in `journal`, so a
    stopped build resumes); the answers are taken in the entries' order, so the same inputs
    give the same book."""
    reach, book = Reach(quiet), dict(book)
    for stones in LEVELS:
        heavy = [
            key
            for key in sorted(reach.quiet)
            if key[0].bit_count() + key[1].bit_count() == stones
            and key not in chosen
            and len(reach.below(*key)) >= HEAVY
        ]
        book_key = digest(sorted(book.items()), sorted(reach.quiet.items()))
        asking = progress(f"book: entries of {stones} stones asked again") if progress else None
        answers = run_tasks(
            partial(ask_again, book=book, mover=mover, search=search),
            [(key, reach.quiet[key]) for key in heavy],
            [digest("again", key, book_key, DEEP_SETUPS, DEEP_NODES) for key in heavy],
            journal,
            lambda answer: [answer.cell, sorted(answer.quiet.items()), *answer[2:]],
            lambda data: Lighter(data[0], {tuple(k): m for k, m in data[1]}, *data[2:]),
            executor,
            asking,
            seconds=lambda answer: answer.seconds,
        )
        kept = 0
        for key, answer in zip(heavy, answers, strict=True):
            if answer.cell is None or answer.failures:
                continue
            if len(answer.quiet) < len(reach.below(*key)):
                book[key] = answer.cell
                reach.update(answer.quiet)
                kept += 1
        if asking:
            asking.finish(f"{kept} of {len(heavy)} entries lighter")
    met: set[tuple[int, int]] = set()
    for x, o in roots:
        met |= reach.below(x, o)
    return {key: reach.quiet[key] for key in sorted(met)}
