"""X's moves that join a position another entry of the book already plays into, as choices lines.

    pip install -e '.[solver]'
    python research/joins.py DIR/strategy.txt --stones 4

Two entries' subtrees are one where X's moves lead them into the same position (under the
cube's 192 symmetries). For each entry of `--stones` stones, every move of X's into the
position that another such entry's move makes is listed with what it would save: the entries
below the entry's own move that no other entry of those stones reaches (walked as the verifier
walks the strategy, under `--leaf`). The move joins a position the book already holds, so it
wins and adds nothing below. The output is choices lines (`qubic/proof/choices.txt`'s format),
each on a line the strategy plays: a join for each entry saving `--least` or more (its joins
all save the same), most first, none into an entry that moves itself or from an entry joined,
then the book's move at each entry joined, which must be kept too, or the solver may move it.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from subtree_sizes import entries_of, format_line, line_to, strategy_lines, subtrees

from qubic.core.board import Board, iter_bits
from qubic.core.geometry import CUBE
from qubic.proof.leaf import LEAVES
from qubic.search import strategy

Key = tuple[int, int]


def joins(book: strategy.Entries, stones: int) -> list[tuple[Key, int, Key]]:
    """(entry, X's move, the entry whose move leads to the same position) for each entry of
    `stones` stones and each move of X's there other than the book's that joins one."""
    entries = entries_of(book, stones)
    played: dict[Key, Key] = {}
    for x, o in entries:
        played.setdefault(CUBE.canonical(x | 1 << book[x, o], o), (x, o))
    found = []
    for x, o in entries:
        own = CUBE.canonical(x | 1 << book[x, o], o)
        for cell in iter_bits(CUBE.full_mask & ~(x | o)):
            after = CUBE.canonical(x | 1 << cell, o)
            if after != own and after in played:
                found.append(((x, o), cell, played[after]))
    return found


def own_entries(book: strategy.Entries, stones: int, leaf: str) -> dict[Key, int]:
    """For each entry of `stones` stones, the entries below it that no other such entry
    reaches (its own not counted)."""
    below = {key: found - {key} for key, found in subtrees(book, stones, leaf).items()}
    met = Counter(position for found in below.values() for position in found)
    met.update(below.keys())
    return {key: sum(met[position] == 1 for position in found) for key, found in below.items()}


def on_line(line: list[int], cell: int) -> int:
    """`cell`, given in the canonical image of `line`'s position, on `line`'s board."""
    symmetry = CUBE.orient(*Board.from_moves(line).bits)[1]
    return symmetry.index(cell)


def choice_line(lines: dict[Key, list[int]], key: Key, cell: int) -> str:
    """The choices line for X's `cell` (in the canonical image) at the entry `key`, on the
    strategy's line to it in `lines`, else on its stones."""
    line = lines.get(key) or line_to(*key)
    return format_line([*line, on_line(line, cell)])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("book", type=Path, help="a strategy file (strategy.txt's format)")
    parser.add_argument("--stones", type=int, required=True, help="the entries' stones")
    parser.add_argument("--leaf", choices=LEAVES, default="patashnik", help="the leaf rule")
    parser.add_argument("--least", type=int, default=1, help="the fewest entries saved listed")
    args = parser.parse_args(argv)
    book = strategy.load(args.book)
    found = joins(book, args.stones)
    saved = own_entries(book, args.stones, args.leaf) if found else {}
    chosen: dict[Key, tuple[int, Key]] = {}
    kept: dict[Key, None] = {}  # the entries joined, which keep their moves
    for key in sorted({key for key, _, _ in found}, key=lambda key: (-saved[key], key)):
        options = [(c, j) for k, c, j in found if k == key and j not in chosen]
        if saved[key] >= args.least and key not in kept and options:
            chosen[key] = options[0]
            kept[options[0][1]] = None
    lines = strategy_lines(book, [], args.stones, args.leaf) if chosen else {}
    for key, (cell, joined) in chosen.items():
        joining = choice_line(lines, joined, book[joined])
        print(
            f"{choice_line(lines, key, cell)}  # saves {saved[key]}, into the position of {joining}"
        )
    for joined in kept:
        print(f"{choice_line(lines, joined, book[joined])}  # the book's move, joined")


if __name__ == "__main__":
    main(sys.argv[1:])
