"""Where a strategy book's entries lie: the entries below each entry of some stones.

    pip install -e '.[solver]'
    python research/subtree_sizes.py DIR/strategy.txt --stones 4 --leaf patashnik

Each entry of `--stones` stones is walked as the verifier walks the strategy (X's moves by the
book, O trying every reply) under the `--leaf` rule, and its subtree counted: the entries X
plays at and below it, its own included, an entry met along two lines once. A table gives the
entries by their subtree's size, then the entries below them all, each once: two entries'
subtrees can share positions (an order of moves or a symmetry that joins two lines), so the
book can hold fewer than the sizes summed. The entries whose subtree holds `--heavy` or more are
listed heaviest first, each as a line the strategy plays to it from the empty cube (or from
`--start`, for a book built below a position; else as its stones, alternating): the
positions `subtree_choice.py` may choose X's move at. A choice deeper than 4 stones takes
effect only with X's moves above it on the line chosen too, as the solver proves the
positions of 4 stones or more it has no choice at by units of their own (docs/proof-log.md,
"Choosing X's moves by the subtree built below them").
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from qubic.core.board import Board, iter_bits, winning_mask
from qubic.core.geometry import CUBE
from qubic.core.notation import format_cell, parse_moves
from qubic.core.symmetry import orbits, stabilizer
from qubic.proof.leaf import LEAVES, StrategyMover
from qubic.proof.unit import fast_prover_available
from qubic.proof.walk import walk
from qubic.search import strategy
from qubic.search.threats import lowest

Key = tuple[int, int]

BUCKETS = [(1, 1), (2, 4), (5, 19), (20, 39), (40, None)]  # subtree sizes, a table row each


def line_to(x: int, o: int) -> list[int]:
    """Moves that reach `(x, o)`, X to move: X's and O's stones, alternating."""
    return [cell for pair in zip(iter_bits(x), iter_bits(o), strict=True) for cell in pair]


def strategy_lines(
    book: strategy.Entries, start: list[int], stones: int, leaf: str
) -> dict[Key, list[int]]:
    """A line the strategy plays from `start` (X to move) to each position of `stones` stones
    it meets with X to move, by the position's canonical image: X's moves the strategy's, O's
    every reply (one per class)."""
    mover = StrategyMover(fast_prover_available(), leaf)
    lines = {CUBE.canonical(*Board.from_moves(start).bits): start}
    for _ in range((stones - len(start)) // 2):
        after: dict[Key, list[int]] = {}
        for line in lines.values():
            x, o = Board.from_moves(line).bits
            if winning_mask(x, o):
                continue  # X wins at once: nothing below
            cell = strategy_cell(x, o, book, mover)
            if cell is None:
                continue  # the book does not start here
            mine = x | 1 << cell
            for reply in orbits(CUBE.full_mask & ~(mine | o), stabilizer(CUBE, mine, o)):
                after.setdefault(CUBE.canonical(mine, o | 1 << reply), [*line, cell, reply])
        lines = after
    return lines


def strategy_cell(x: int, o: int, book: strategy.Entries, mover: StrategyMover) -> int | None:
    """X's move by the strategy where X cannot win at once: a block, else the mover's."""
    theirs = winning_mask(o, x)
    if theirs:
        return lowest(theirs)
    move = mover(x, o, book)
    return None if move is None else move.cell


def entries_of(book: strategy.Entries, stones: int) -> list[Key]:
    """The entries of `book` with `stones` stones, in order."""
    return sorted(key for key in book if (key[0] | key[1]).bit_count() == stones)


def subtrees(book: strategy.Entries, stones: int, leaf: str) -> dict[Key, set[Key]]:
    """The entries at and below each entry of `book` with `stones` stones, walked under `leaf`."""
    mover = StrategyMover(fast_prover_available(), leaf)
    found = {}
    for x, o in entries_of(book, stones):
        walked = walk(line_to(x, o), book, mover=mover)
        if walked.failures:
            raise SystemExit(f"the strategy fails below {format_line(line_to(x, o))}")
        found[x, o] = set(walked.quiet)
    return found


def sizes(book: strategy.Entries, stones: int, leaf: str) -> tuple[dict[Key, int], int]:
    """How many entries lie at and below each entry of `book` with `stones` stones, walked
    under `leaf`, and at and below them all, each once."""
    found = subtrees(book, stones, leaf)
    every = set().union(*found.values())
    return {key: len(below) for key, below in found.items()}, len(every)


def format_line(moves: list[int]) -> str:
    return " ".join(format_cell(cell) for cell in moves)


def report(
    found: dict[Key, int], distinct: int, heavy: int, lines: dict[Key, list[int]]
) -> list[str]:
    """The table of entries by subtree size, the `distinct` entries below them all, then the
    heavy entries' sizes and their `lines` (their stones, where `lines` has none)."""
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
    rows.append(f"each once: {distinct:,} entries at and below them")
    ranked = sorted(found.items(), key=lambda item: (-item[1], item[0]))
    rows += [
        f"{n} {format_line(lines.get(key) or line_to(*key))}" for key, n in ranked if n >= heavy
    ]
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("book", type=Path, help="a strategy file (strategy.txt's format)")
    parser.add_argument("--stones", type=int, required=True, help="the entries' stones")
    parser.add_argument("--leaf", choices=LEAVES, default="ours", help="the leaf rule walked")
    parser.add_argument("--heavy", type=int, default=40, help="list entries this heavy")
    parser.add_argument("--start", default="", help="where the book starts (quoted moves)")
    args = parser.parse_args(argv)
    book = strategy.load(args.book)
    found, distinct = sizes(book, args.stones, args.leaf)
    listed = any(n >= args.heavy for n in found.values())  # the lines' search grows with depth
    lines = strategy_lines(book, parse_moves(args.start), args.stones, args.leaf) if listed else {}
    print("\n".join(report(found, distinct, args.heavy, lines)), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
