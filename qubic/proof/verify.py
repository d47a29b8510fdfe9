"""`python -m qubic.proof verify`: walk the whole strategy and check that every line ends in
X's win.

From the start (or from given moves), X plays as level perfect does (win, block, the strategy
book, its forced win by threats) and O tries every legal reply, replies that are images of each
other under the symmetries fixing the position once, and positions met before (up to
symmetry) once. The walk trusts only the board rules, the book and the threat search: nothing
of the solver. A position where X has no move by the strategy, or where O's reply wins or
fills the board, is a failure. Where X has a three, O's replies other than the block are
counted, not walked: X wins at once.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from functools import cache, partial
from pathlib import Path
from typing import Any, TextIO

from qubic.core.board import Board
from qubic.core.geometry import CUBE, Orientation
from qubic.core.notation import format_cell, parse_cell
from qubic.core.symmetry import line_profile, orbit_representatives, profile_after, stabilizer
from qubic.proof.checkpoint import place
from qubic.proof.pool import Journal, Workers, digest, run_tasks, workers
from qubic.proof.progress import Progress
from qubic.proof.unit import fast_prover_available
from qubic.search import strategy
from qubic.search.strategy import quiet_move
from qubic.search.threats import (
    OutOfBudget,
    PureThreatSearch,
    ThreatSearch,
    lowest,
    new_threats,
    winning_mask,
)

# X's move and why where X has no line to complete and O none to block (`quiet_move`), given
# the book and the position's orientation if the caller has it.
Mover = Callable[[int, int, strategy.Entries, Orientation | None], tuple[int, str] | None]
QUIET = ("book", "setup")  # the reasons of the quiet moves a book must hold
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
    return [lowest(mine)] if mine else orbit_representatives(empty, stabilizer(CUBE, x, o))


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
    blocking where it can, else playing `mover`'s moves (level perfect's by default). With an
    `executor` or a `journal`, the top of the walk is walked here, X's answers and O's replies
    to them, until some `parts` lines are left; their subtrees are walked in parts, in the
    executor's processes (`limit` then counts within each), and each part's answer goes to
    the journal as it arrives: a walk stopped and run again takes the parts it finished from
    there. A position two parts meet is walked in each."""
    if executor is None and journal is None:
        return _walk(lines, book, limit, mover)
    start = time.perf_counter()
    result = Walk()
    frontier = lines
    journal = journal or Journal(None)
    book_key = digest(sorted(book.items()))
    for depth in range(SPLIT_DEPTH):
        if len(frontier) >= parts:
            break
        # X's answers and O's replies, a level at a time, in the workers too: the book's
        # mover searches for setups, which takes time even near the root.
        size = max(1, -(-len(frontier) // parts))
        chunks = [frontier[i : i + size] for i in range(0, len(frontier), size)]
        keys = [digest("top", book_key, _name(mover), limit, chunk) for chunk in chunks]
        if progress is not None:
            progress.update(note=f"level {depth + 1} of the top")
        tops = run_tasks(
            partial(_walk, book=book, limit=limit, mover=mover, split=True, book_key=book_key),
            chunks,
            keys,
            journal,
            partial(_encode, frontier=True),
            _decode,
            executor,
            progress,
            seconds=lambda part: part.seconds,
            count=False,
        )
        frontier = []
        for top in tops:
            _merge(result, top)
            frontier += top.frontier
    size = max(1, -(-len(frontier) // parts))
    chunks = [frontier[i : i + size] for i in range(0, len(frontier), size)]
    keys = [digest("walk", book_key, _name(mover), limit, chunk) for chunk in chunks]
    if progress is not None:
        progress.update(note="")
    answers = run_tasks(
        partial(_walk, book=book, limit=limit, mover=mover, book_key=book_key),
        chunks,
        keys,
        journal,
        _encode,
        _decode,
        executor,
        progress,
        seconds=lambda part: part.seconds,
    )
    for part in answers:
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
    # A position, X to move: the bitboards, the moves to it, X's and O's winning cells and
    # its line profile, the last three found from its parent's (only a move's lines change).
    stack: list[tuple[int, int, Trail, int, int, int]] = []
    for moves in starts:
        path: Trail = None
        for cell in moves:
            path = (cell, path)
        x, o = Board.from_moves(moves).bits
        stack.append((x, o, path, winning_mask(x, o), winning_mask(o, x), line_profile(CUBE, x, o)))
    profiles = _profiles.get(book_key or "") if book_key else None
    if profiles is None:
        profiles = {line_profile(CUBE, x, o) for x, o in book}
        if book_key:
            _profiles.clear()  # one book at a time
            _profiles[book_key] = profiles
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
            move = (lowest(theirs), "block") if theirs else mover(x, o, book, orientation)
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
        for reply in _o_replies(x, o, empty, mine):
            after = o | 1 << reply
            if after | x == CUBE.full_mask:
                result.failures.append(_moves((reply, path)))
            elif split:
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
    result.seconds = time.perf_counter() - start
    return result


@cache
def strategy_threats(fast: bool) -> ThreatSearch | None:
    """The threat search that answers `quiet_move`'s question as its own new one would:
    compiled when `fast` (`FreshThreatSearch`, the solver extra), else None, `quiet_move`'s
    default."""
    if not fast:
        return None
    from qubic.proof.fast_prover import FreshThreatSearch  # numba: the solver extra

    return FreshThreatSearch(strategy.THREAT_NODES)


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
    ) -> tuple[int, str] | None:
        move = quiet_move(x, o, book, orientation, search=strategy_threats(self.fast))
        if self.leaf == "ours" or move is None or move[1] != "threats":
            return move
        try:
            pure = PureThreatSearch(strategy.THREAT_NODES).forced_win(x, o, shortest=False)
        except OutOfBudget:
            pure = None
        return (pure[0], "threats") if pure else (move[0], "book")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "moves",
        nargs="*",
        metavar="MOVE",
        help="walk from the position after these moves (after each of O's replies when O is "
        "to move); default the empty cube",
    )
    parser.add_argument(
        "--start",
        nargs="+",
        metavar="MOVE",
        help="the same moves, given as book and all take them",
    )
    parser.add_argument(
        "--book", type=Path, help="a strategy file (default: DIR's, else the package's)"
    )
    parser.add_argument(
        "--limit", type=int, help="stop after this many positions (in each process's part)"
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=2,
        help="processes walking the subtrees after O's replies (default 2; "
        "1 walks in this process alone)",
    )
    parser.add_argument(
        "--leaf",
        choices=LEAVES,
        default="ours",
        help="the leaf rule the entries are counted under: ours (X's forced wins by threats, "
        "O's blocks may make threes that X blocks with threats) or patashnik (forced wins by "
        "threats alone; the other positions count as entries); default ours",
    )
    add_place_arguments(parser)


def add_place_arguments(parser: argparse.ArgumentParser) -> None:
    """`--dir` and `--scheduler`, which every step of the proof takes."""
    parser.add_argument(
        "--dir",
        type=Path,
        help="keep the checkpoint, the journals and the strategy book in this folder, "
        "created if missing (default: the package's files)",
    )
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run the work on this Dask scheduler's workers (the cluster extra), "
        "e.g. tcp://10.0.0.5:8786, instead of local processes",
    )


def legal_moves(parser: argparse.ArgumentParser, texts: list[str], what: str) -> list[int]:
    """The cells `texts` name, a legal line from the empty cube; else a usage error naming
    them as `what`."""
    try:
        moves = [parse_cell(text) for text in texts]
        Board.from_moves(moves)
    except ValueError as error:
        parser.error(f"bad {what}: {error}")
    return moves


def verify(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """`verify`: walk the strategy; exit status 1 on any line that X does not win. A walk
    stopped part way resumes: its finished parts are in the journal `verify.journal`."""
    if args.start and args.moves:
        parser.error("give the moves either after verify or after --start, not both")
    moves = legal_moves(parser, args.start or args.moves, "moves")
    where = place(args.dir)
    if args.book is not None:
        book = strategy.load(args.book)
    elif args.dir is not None:
        book = strategy.load(where.strategy)
    else:
        book = strategy.shipped()
    return check(
        moves, book, where.verify_journal, args.workers, args.scheduler, args.limit, leaf=args.leaf
    )


def check(
    moves: list[int],
    book: strategy.Entries,
    journal_path: Path,
    count: int = 2,
    scheduler: str | None = None,
    limit: int | None = None,
    out: TextIO = sys.stdout,
    pool: Workers | None = None,
    leaf: str = "ours",
    fast: bool | None = None,
) -> int:
    """Walk `book` from `moves` in `pool`'s workers, else `count` new ones (or a Dask
    cluster's; 1: here), resuming from the journal, print what it met, and give the exit
    status: 1 on any failure. A finished walk removes its journal: the next is a whole new
    check. `leaf`: the rule the strategy's entries are counted under (`LEAVES`). `fast`: X's
    forced wins found by the compiled search (default: when the solver extra is installed)."""
    journal = Journal(journal_path)
    if pool is None and (count > 1 or scheduler):
        with workers(count, scheduler) as pool:
            return check(
                moves, book, journal_path, limit=limit, out=out, pool=pool, leaf=leaf, fast=fast
            )
    executor, count = (None, 1) if pool is None else pool
    progress = Progress("verify", out, workers=count)
    mover = StrategyMover(fast_prover_available() if fast is None else fast, leaf)
    result = walk_lines(
        x_lines(moves), book, executor, limit, mover=mover, journal=journal, progress=progress
    )
    progress.finish(f"{result.positions:,} positions")
    journal.remove()
    print(f"positions walked: {result.positions:,} in {result.seconds:.1f} s", file=out)
    for reason in ("book", "threats", "block", "win"):
        print(f"  answered by {reason}: {result.answered[reason]:,}", file=out)
    print(
        f"O's replies not blocking X's three (lost at once, not walked): {result.lost_at_once:,}",
        file=out,
    )
    held = sum(1 for key in result.quiet if key in book)
    print(
        f"entries the strategy needs ({leaf} leaf rule): {len(result.quiet):,} "
        f"({held:,} of the book's {len(book):,}, {len(result.quiet) - held:,} more)",
        file=out,
    )
    print(f"failures: {len(result.failures):,}", file=out)
    for line in result.failures[:10]:
        print("  " + " ".join(format_cell(cell) for cell in line), file=out)
    out.flush()
    return 1 if result.failures else 0
