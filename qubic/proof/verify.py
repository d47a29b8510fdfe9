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
from collections import Counter
from pathlib import Path
from typing import TextIO

from qubic.core import files
from qubic.core.notation import format_cell
from qubic.proof.checkpoint import place
from qubic.proof.cli import add_leaf_argument, add_place_arguments, legal_moves
from qubic.proof.leaf import StrategyMover
from qubic.proof.pool import Journal, Workers, workers
from qubic.proof.progress import Progress
from qubic.proof.unit import fast_prover_available
from qubic.proof.walk import walk_lines, x_lines
from qubic.search import strategy


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
    add_leaf_argument(parser, "the leaf rule the entries are counted under")
    add_place_arguments(parser)


def verify(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """`verify`: walk the strategy; exit status 1 on any line that X does not win. A walk
    stopped part way resumes: its finished parts are in the journal `verify.journal`."""
    if args.start and args.moves:
        parser.error("give the moves either after verify or after --start, not both")
    moves = legal_moves(parser, args.start or args.moves, "moves")
    where = place(args.dir)
    path = args.book if args.book is not None else where.strategy if args.dir else None
    try:
        book = strategy.shipped() if path is None else strategy.load(path)
    except (OSError, UnicodeDecodeError) as error:
        why = files.reason(error) if isinstance(error, OSError) else "it is not ASCII text"
        parser.error(f"cannot read the strategy book {path}: {why}")
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
    stones = Counter((x | o).bit_count() for x, o in result.quiet)
    if stones:
        print("  by stones: " + ", ".join(f"{n}: {stones[n]:,}" for n in sorted(stones)), file=out)
    print(f"failures: {len(result.failures):,}", file=out)
    for line in result.failures[:10]:
        print("  " + " ".join(format_cell(cell) for cell in line), file=out)
    out.flush()
    return 1 if result.failures else 0
