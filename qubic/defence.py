"""The defence book: level perfect's moves as O in the opening, chosen offline.

O loses QUBIC against perfect play, so no book holds O's saving moves; this one holds its most
stubborn, by perfect's rule of resistance (`qubic.perfect.resist`) with checks of `NODES`
expansions of the compiled prover, some 150 times what a move's two seconds allow: expert's
move unless the prover shows it lost, then the best scored move not shown lost. Its
positions are those of the opening where X has played a move hard or expert might choose and
O the book's replies, up to O's `O_MOVES`th move. `qubic/defence.txt` holds a line per
position under symmetry, in the strategy book's format. `python -m qubic.defence` (with the
solver extra) rebuilds it, keeping the entries it has, so a stopped run resumes.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import TextIO

from qubic import hard, strategy
from qubic.board import Board, Mark
from qubic.expert import ExpertPlayer
from qubic.geometry import CUBE
from qubic.notation import format_cell
from qubic.prover import DISPROVED, UNKNOWN, Result
from qubic.threats import ThreatSearch

DEFENCE_FILE = "defence.txt"
PATH = Path(__file__).with_name(DEFENCE_FILE)
HEADER = ("# QUBIC defence book (level perfect as O), written by `python -m qubic.defence`.\n"
          "# X (hex)  O (hex)  O's move, in the position's canonical image")
NODES = 300_000  # the compiled prover's expansions per check (about two seconds here)
O_MOVES = 5  # O's moves the book covers
EXPERT_SEEDS = range(6)  # expert's seeds whose moves as X the book follows


def shipped() -> strategy.Entries:
    """The package's defence book."""
    return strategy.shipped(DEFENCE_FILE)


def x_moves(board: Board) -> list[int]:
    """The moves hard might play here as X, and expert with any of EXPERT_SEEDS."""
    moves = set(hard.choices(board, ThreatSearch(hard.NODES)))
    moves |= {ExpertPlayer(seed).choose(board.copy()).cell for seed in EXPERT_SEEDS}
    return sorted(moves)


def build(path: Path, o_moves: int, nodes: int, out: TextIO) -> strategy.Entries:
    """Walk the opening and add each O-to-move position's move to the book at `path`,
    written after every new entry."""
    from qubic.fast_prover import FastProver  # numba: the solver extra
    from qubic.perfect import called_for, other_moves, resist

    book = strategy.load(path) if path.exists() else {}
    prover = FastProver()
    expert = ExpertPlayer(0)
    seen: set[tuple[int, int]] = set()
    stack = [Board()]
    start = time.perf_counter()
    while stack:
        board = stack.pop()
        for cell in x_moves(board):
            after = board.copy()
            after.push(cell)
            x, o = after.bits[Mark.X], after.bits[Mark.O]
            key, symmetry = CUBE.orient(x, o)
            if key in seen or after.is_over():
                continue
            seen.add(key)
            reply = strategy.lookup(book, x, o)
            if reply is None:
                reply = expert.choose(after.copy()).cell
                if not called_for(o, x):

                    def check(move: int, budget: int) -> Result:
                        prover.clear()
                        result = prover.prove(x, o | 1 << move, budget)  # noqa: B023
                        # X's three best moves failing is no sign of a hold this early,
                        # where X wins: the move counts as open.
                        if result.status == DISPROVED:
                            return replace(result, status=UNKNOWN)
                        return result

                    reply = resist(reply, other_moves(after, reply), check, nodes, lambda: True)
                    book[key] = symmetry[reply]
                    path.write_text(strategy.format_entries(book.items(), HEADER),
                                    encoding="ascii")
                    moves = " ".join(format_cell(c) for c in after.moves)
                    print(f"{time.perf_counter() - start:7.0f} s | {len(book)} entries | "
                          f"{moves} -> O {format_cell(reply)}", file=out, flush=True)
            if o.bit_count() + 1 < o_moves:
                after.push(reply)
                stack.append(after)
    return book


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m qubic.defence", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--o-moves", type=int, default=O_MOVES,
                        help=f"O's moves the book covers (default {O_MOVES})")
    parser.add_argument("--nodes", type=int, default=NODES,
                        help=f"expansions per check (default {NODES:,})")
    parser.add_argument("--book", type=Path, default=PATH,
                        help="the file to extend (default: the package's)")
    args = parser.parse_args(argv)
    try:
        import numba  # noqa: F401
    except ImportError:
        parser.error("the defence book is built with numba: pip install -e '.[solver]'")
    try:
        book = build(args.book, args.o_moves, args.nodes, sys.stdout)
    except KeyboardInterrupt:
        print("stopped; the entries so far are in the book", flush=True)
        return 130
    print(f"{len(book)} entries in {args.book}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
