"""X's moves at a book's entries whose subtrees the book already holds, as choices lines.

    pip install -e '.[solver]'
    python research/joins.py DIR/strategy.txt --stones 6

An entry's subtree costs the book only the entries below it that no other entry of its stones
reaches: its own entries. For each entry of `--stones` stones with `--least` or more own
entries, each of X's other moves there (one per class) is walked in the book as the verifier
walks the strategy under `--leaf`, the entry's move replaced by it. The entries that walk
meets which the book holds cost nothing, but for the entry's own, and each position it meets
without a move (a gap) counts as one. The `--tries` best by that count are walked again
with every gap answered as the book's walk answers one outside the proof (`setup_first`: a
win with at most two setups), until none is left; a move with a gap so left, or one where O
could win or draw, is dropped. What a move saves is the entry's own entries, less those its
walk meets and the new entries it needs. A move into the position another entry's move makes
(a join) saves them all.

The output is a choices line (`qubic/proof/choices.txt`'s format) on a line the strategy plays
for each entry where a move saves `--least` or more, most first. Each is measured against the
book as it stands, alone: two of them can rely on one entry's subtree, or one on an entry
another moves, so the book built from the solver's checkpoint with them in the choices file
(`book --choices`) is the measure of them together.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from subtree_sizes import format_line, line_to, strategy_lines, subtrees

from qubic.core.board import Board
from qubic.core.geometry import CUBE
from qubic.core.symmetry import orbits, stabilizer
from qubic.proof.book import setup_first
from qubic.proof.leaf import LEAVES, StrategyMover
from qubic.proof.unit import fast_prover_available
from qubic.proof.walk import walk
from qubic.search import strategy

Key = tuple[int, int]

GAPS = 2  # the most gaps a move's first walk may meet and still be walked again
ROUNDS = 4  # the walks that answer gaps, each answering those the one before met


def own_entries(book: strategy.Entries, stones: int, leaf: str) -> dict[Key, set[Key]]:
    """For each entry of `stones` stones, the entries below it that no other such entry
    reaches (its own not among them)."""
    below = {key: found - {key} for key, found in subtrees(book, stones, leaf).items()}
    met = Counter(position for found in below.values() for position in found)
    met.update(below.keys())
    return {key: {p for p in found if met[p] == 1} for key, found in below.items()}


def other_moves(book: strategy.Entries, key: Key) -> list[int]:
    """X's moves at the entry `key`, one per class, but the book's and any into the same
    position as it."""
    x, o = key
    own = CUBE.canonical(x | 1 << book[key], o)
    cells = orbits(CUBE.full_mask & ~(x | o), stabilizer(CUBE, x, o))
    return [cell for cell in cells if CUBE.canonical(x | 1 << cell, o) != own]


def walked(
    book: strategy.Entries, key: Key, cell: int, leaf: str, answer_gaps: bool
) -> tuple[set[Key], list[list[int]]]:
    """The entries the strategy meets from `key` with X's `cell` played there, and the lines
    to the positions where X has no move. `answer_gaps`: each gap answered as the book's walk
    answers one outside the proof, until none is left or one has no such answer."""
    trial = dict(book)
    trial[key] = cell
    fast = fast_prover_available()
    mover = StrategyMover(fast, leaf)
    for _ in range(ROUNDS if answer_gaps else 1):
        found = walk(line_to(*key), trial, mover=mover)
        if not (answer_gaps and found.failures) or any(len(f) % 2 for f in found.failures):
            break
        for line in found.failures:
            gap = CUBE.canonical(*Board.from_moves(line).bits)
            move = setup_first(*gap, {}, fast=fast, leaf=leaf)
            if move is None:
                return set(found.quiet), found.failures
            trial[gap] = move.cell
    return set(found.quiet), found.failures


def saved(book: strategy.Entries, key: Key, own: set[Key], met: set[Key], gaps: int) -> int:
    """The entries saved at the entry `key` with `own` entries by a move whose walk `met`
    those entries and `gaps` gaps, each counted as one."""
    new = sum(position not in book for position in met)
    return len(own) - len(own & (met - {key})) - new - gaps


def best_move(
    book: strategy.Entries, key: Key, own: set[Key], leaf: str, tries: int
) -> tuple[int, int] | None:
    """The move at the entry `key` that saves the most and what it saves, measured with its
    gaps answered, of the `tries` best counted without; None if none saves any."""
    counted = []
    for cell in other_moves(book, key):
        met, gaps = walked(book, key, cell, leaf, answer_gaps=False)
        if len(gaps) <= GAPS and not any(len(line) % 2 for line in gaps):
            counted.append((saved(book, key, own, met, len(gaps)), cell))
    measured = []
    for count, cell in sorted(counted, reverse=True)[:tries]:
        if count > 0:
            met, gaps = walked(book, key, cell, leaf, answer_gaps=True)
            if not gaps:
                measured.append((saved(book, key, own, met, 0), cell))
    best = max(measured, default=None)
    return best if best is not None and best[0] > 0 else None


def on_line(line: list[int], cell: int) -> int:
    """`cell`, given in the canonical image of `line`'s position, on `line`'s board."""
    symmetry = CUBE.orient(*Board.from_moves(line).bits)[1]
    return symmetry.index(cell)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("book", type=Path, help="a strategy file (strategy.txt's format)")
    parser.add_argument("--stones", type=int, required=True, help="the entries' stones")
    parser.add_argument("--leaf", choices=LEAVES, default="patashnik", help="the leaf rule")
    parser.add_argument("--least", type=int, default=1, help="the fewest entries saved listed")
    parser.add_argument("--tries", type=int, default=6, help="moves walked with gaps answered")
    args = parser.parse_args(argv)
    book = strategy.load(args.book)
    own = own_entries(book, args.stones, args.leaf)
    asked = sorted(
        (key for key in own if len(own[key]) >= args.least), key=lambda key: (-len(own[key]), key)
    )
    found = {}
    for number, key in enumerate(asked, 1):
        best = best_move(book, key, own[key], args.leaf, args.tries)
        if best is not None and best[0] >= args.least:
            found[key] = best
        print(
            f"\r{number}/{len(asked)} entries asked, {len(found)} with a move",
            end="",
            file=sys.stderr,
        )
    print(file=sys.stderr)
    lines = strategy_lines(book, [], args.stones, args.leaf) if found else {}
    for key, (count, cell) in sorted(found.items(), key=lambda item: -item[1][0]):
        line = lines.get(key) or line_to(*key)
        moved = format_line([*line, on_line(line, cell)])
        print(
            f"{moved}  # saves {count}, the book's move {format_line([on_line(line, book[key])])}"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
