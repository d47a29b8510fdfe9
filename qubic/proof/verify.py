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
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from qubic.core.board import Board
from qubic.core.geometry import CUBE, Orientation
from qubic.core.notation import format_cell, parse_cell
from qubic.core.symmetry import line_profile, orbit_representatives, stabilizer
from qubic.search import strategy
from qubic.search.strategy import x_move
from qubic.search.threats import lowest, winning_mask

Mover = Callable[[int, int, strategy.Entries, Orientation | None], tuple[int, str] | None]
QUIET = ("book", "setup")  # the reasons of the quiet moves a book must hold


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
    mover: Mover = x_move,
) -> Walk:
    """Walk the strategy from the position after `moves` (X to move), or from the first
    `limit` positions of it, as `walk_lines` does from one line."""
    return walk_lines([moves], book, executor, limit, mover)


def walk_lines(
    lines: list[list[int]],
    book: strategy.Entries,
    executor: Executor | None = None,
    limit: int | None = None,
    mover: Mover = x_move,
) -> Walk:
    """Walk the strategy from the position after each of `lines` (X to move), X playing
    `mover`'s moves (level perfect's by default). With an `executor`, the subtrees after X's
    first answers and each of O's replies are walked in its processes (`limit` then counts
    within each); a position two of them meet is walked in each."""
    if executor is None:
        return _walk(lines, book, limit, mover)
    start = time.perf_counter()
    result = _walk(lines, book, limit, mover, split=True)
    size = max(1, len(result.frontier) // 32)
    chunks = [result.frontier[i : i + size] for i in range(0, len(result.frontier), size)]
    for part in executor.map(partial(_walk, book=book, limit=limit, mover=mover), chunks):
        result.answered.update(part.answered)
        result.failures += part.failures
        result.quiet |= part.quiet
        result.lost_at_once += part.lost_at_once
    result.seconds = time.perf_counter() - start
    return result


def _walk(
    starts: list[list[int]],
    book: strategy.Entries,
    limit: int | None = None,
    mover: Mover = x_move,
    split: bool = False,
) -> Walk:
    """`walk` from each of `starts` in this process; when `split`, only X's first answers,
    with the lines to O's replies to them left in `frontier`."""
    start = time.perf_counter()
    result = Walk()
    seen: set[tuple[int, int]] = set()
    stack: list[tuple[int, int, Trail]] = []
    for moves in starts:
        path: Trail = None
        for cell in moves:
            path = (cell, path)
        board = Board.from_moves(moves)
        stack.append((board.bits[0], board.bits[1], path))
    profiles = {line_profile(CUBE, x, o) for x, o in book}
    while stack and (limit is None or result.positions < limit):
        x, o, path = stack.pop()
        if winning_mask(x, o):  # no need to look for the position again
            result.answered["win"] += 1
            continue
        if winning_mask(o, x) or line_profile(CUBE, x, o) in profiles:
            orientation = CUBE.orient(x, o)
            if orientation[0] in seen:
                continue
            seen.add(orientation[0])
            move = mover(x, o, book, orientation)
        else:  # not in the book: X's move is its forced win by threats (or, as the book is
            # built, a win with setups), else none. Most such positions are on a forced line,
            # met once, so finding them again (the orientation, most of the walk's time) is
            # not worth it.
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
        x |= 1 << cell
        path = (cell, path)
        empty = CUBE.full_mask & ~(x | o)
        theirs = winning_mask(o, x)
        if not empty or theirs:  # a draw, or O wins
            result.failures.append(_moves(path if not theirs else (lowest(theirs), path)))
            continue
        mine = winning_mask(x, o)
        if mine:  # O must block X's three: every other reply loses at once
            result.lost_at_once += empty.bit_count() - 1
            replies = [lowest(mine)]
        else:
            replies = orbit_representatives(empty, stabilizer(CUBE, x, o))
        for reply in replies:
            after = o | 1 << reply
            if after | x == CUBE.full_mask:
                result.failures.append(_moves((reply, path)))
            elif split:
                result.frontier.append(_moves((reply, path)))
            else:
                stack.append((x, after, (reply, path)))
    result.seconds = time.perf_counter() - start
    return result


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "moves",
        nargs="*",
        metavar="MOVE",
        help="walk from the position after these moves (X to move); default the empty cube",
    )
    parser.add_argument("--book", type=Path, help="a strategy file (default: the package's)")
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


def verify(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """`verify`: walk the strategy; exit status 1 on any line that X does not win."""
    try:
        moves = [parse_cell(text) for text in args.moves]
        Board.from_moves(moves)
    except ValueError as error:
        parser.error(f"bad moves: {error}")
    if len(moves) % 2:
        parser.error("give an even number of moves: the walk starts with X to move")
    book = strategy.shipped() if args.book is None else strategy.load(args.book)
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as executor:
            result = walk(moves, book, args.limit, executor)
    else:
        result = walk(moves, book, args.limit)
    print(f"positions walked: {result.positions:,} in {result.seconds:.1f} s")
    for reason in ("book", "threats", "block", "win"):
        print(f"  answered by {reason}: {result.answered[reason]:,}")
    print(f"O's replies not blocking X's three (lost at once, not walked): {result.lost_at_once:,}")
    print(f"failures: {len(result.failures):,}")
    for line in result.failures[:10]:
        print("  " + " ".join(format_cell(cell) for cell in line))
    return 1 if result.failures else 0
