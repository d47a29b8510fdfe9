"""Where a strategy book's entries lie: the entries below each entry of some stones.

    pip install -e '.[solver]'
    python research/subtree_sizes.py DIR/strategy.txt --stones 4 --leaf patashnik

Each entry of `--stones` stones is walked as the verifier walks the strategy (X's moves by the
book, O trying every reply) under the `--leaf` rule, and its subtree counted: the entries X
plays at and below it, its own included, an entry met along two lines once. A table gives the
entries by their subtree's size, and the entries whose subtree holds `--heavy` or more are
listed heaviest first, each as the moves to it (X's stones and O's, alternating), the
positions `subtree_choice.py` may choose X's move at (docs/proof-log.md, "Choosing X's moves
by the subtree built below them").
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from qubic.core.board import iter_bits
from qubic.core.notation import format_cell
from qubic.proof.leaf import LEAVES, StrategyMover
from qubic.proof.unit import fast_prover_available
from qubic.proof.walk import walk
from qubic.search import strategy

BUCKETS = [(1, 1), (2, 4), (5, 19), (20, 39), (40, None)]  # subtree sizes, a table row each


def line_to(x: int, o: int) -> list[int]:
    """Moves that reach `(x, o)`, X to move: X's and O's stones, alternating."""
    return [cell for pair in zip(iter_bits(x), iter_bits(o), strict=True) for cell in pair]


def sizes(book: strategy.Entries, stones: int, leaf: str) -> dict[tuple[int, int], int]:
    """The entries at and below each entry of `book` with `stones` stones, walked under `leaf`."""
    mover = StrategyMover(fast_prover_available(), leaf)
    found = {}
    for x, o in sorted(key for key in book if (key[0] | key[1]).bit_count() == stones):
        walked = walk(line_to(x, o), book, mover=mover)
        if walked.failures:
            raise SystemExit(f"the strategy fails below {format_line(line_to(x, o))}")
        found[x, o] = len(walked.quiet)
    return found


def format_line(moves: list[int]) -> str:
    return " ".join(format_cell(cell) for cell in moves)


def report(found: dict[tuple[int, int], int], heavy: int) -> list[str]:
    """The table of entries by subtree size, then the heavy entries' sizes and lines."""
    rows = ["| entries below | entries | summed |", "|---|---|---|"]
    for least, most in BUCKETS:
        within = [n for n in found.values() if n >= least and (most is None or n <= most)]
        span = (
            str(least)
            if least == most
            else f"{least} or more"
            if most is None
            else f"{least}-{most}"
        )
        rows.append(f"| {span} | {len(within):,} | {sum(within):,} |")
    rows.append(f"| all | {len(found):,} | {sum(found.values()):,} |")
    ranked = sorted(found.items(), key=lambda item: (-item[1], item[0]))
    rows += [f"{n} {format_line(line_to(*key))}" for key, n in ranked if n >= heavy]
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("book", type=Path, help="a strategy file (strategy.txt's format)")
    parser.add_argument("--stones", type=int, required=True, help="the entries' stones")
    parser.add_argument("--leaf", choices=LEAVES, default="ours", help="the leaf rule walked")
    parser.add_argument("--heavy", type=int, default=40, help="list entries this heavy")
    args = parser.parse_args(argv)
    found = sizes(strategy.load(args.book), args.stones, args.leaf)
    print("\n".join(report(found, args.heavy)), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
