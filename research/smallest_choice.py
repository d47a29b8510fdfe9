"""X's quiet moves chosen by the quiet replies they leave, proved, as lines of a choices file.

    pip install -e '.[solver]'
    python research/smallest_choice.py 111 222 144 223 --out choices.txt --depth 2

At a position where the strategy needs a quiet move of X (no win, no block, no forced win by
threats), each class of X's moves that leaves O no forced win by threats is ranked by O's
*quiet replies* after it: the classes of replies after which X neither wins at once nor has
a forced win by threats under the leaf rule counted (`--leaf`: Patashnik's, threats alone,
by default; a reply that makes a three of O's counts as quiet, X's block not being a win; a
move of X's that makes a three is ranked through O's block, `ranking`). Each quiet reply
needs an entry, so fewest first; among equals, the fewest of X's moves in the forced wins the
other replies leave (the walk plays them), then the lowest cell. The best ranked are proved
in turn by one unit (`--nodes`, at most `--tries` of them; the compiled prover when numba is
installed) and the first proved is taken. With `--depth 2`, the same is done at each quiet
reply after the chosen move where the book would not play a win with setups anyway
(`book.fewest_setups`), and so on down. After moves that leave O to move, it starts after
each of O's replies.

Each choice is appended to `--out` as a line of `qubic/proof/choices.txt`'s format (the
moves from the empty cube, X's choice last) as soon as it is proved, and a position where
none proved or the book plays a setup as a comment, so a run stopped part way resumes from
its own file. `python -m qubic.proof all --start MOVES --dir EMPTY --choices FILE` then
proves them and counts the entries below (docs/proof-log.md, "Choosing X's moves by quiet
replies").
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import NamedTuple

from qubic.core.board import Board, winning_mask
from qubic.core.geometry import CUBE
from qubic.core.notation import format_cell, parse_moves
from qubic.core.symmetry import lookup, orbits, stabilizer
from qubic.proof.book import SETUPS, fewest_setups
from qubic.proof.choices import parse_choices
from qubic.proof.leaf import LEAVES, strategy_threats
from qubic.proof.unit import UNIT_WIDTH, fast_prover_available, unit
from qubic.proof.walk import x_lines
from qubic.search.prover import PROVED
from qubic.search.strategy import THREAT_NODES, Entries, shipped
from qubic.search.threats import OutOfBudget, ThreatSearch, new_threats

NODES = 1_200_000  # a candidate's proof: a unit's second run in the solver
TRIES = 5  # the best ranked candidates proved, in turn
SKIPPED = "# no choice: "  # a comment line: a position where no choice is made, and why


class Rank(NamedTuple):
    """X's move at a position: O's quiet replies after it (classes), X's moves in the forced
    wins the other replies leave (summed), the cell."""

    quiet: int
    moves: int
    cell: int


def leaf_search(leaf: str) -> ThreatSearch:
    """The search that decides whether a reply is quiet under the `leaf` rule: threats alone
    for Patashnik's, else the strategy's own (either compiled when numba is installed). One search
    serves every question: what it remembers holds for any position."""
    pure = leaf == "patashnik"
    return strategy_threats(fast_prover_available(), pure) or ThreatSearch(THREAT_NODES)


def strategy_search() -> ThreatSearch:
    """The strategy's own threat search, which the book's walk plays before any choice."""
    return leaf_search("ours")


def win_length(x: int, o: int, search: ThreatSearch) -> int | None:
    """X's moves to a win from `(x, o)`, X to move: 1 with a line to complete, else those of
    its forced win by threats; None if it has none (the reply is quiet)."""
    if winning_mask(x, o):
        return 1
    if winning_mask(o, x):
        return None  # X must block: no win yet
    search.set_budget(THREAT_NODES)
    try:
        line = search.forced_win(x, o, shortest=False)
    except OutOfBudget:
        return None
    return None if line is None else (len(line) + 1) // 2


def ranking(x: int, o: int, search: ThreatSearch, through: int = 1) -> list[Rank]:
    """X's moves at `(x, o)`, one per class, that leave O no forced win by threats, best
    first: the fewest quiet replies, then the fewest moves of X's forced wins. A move that
    makes a three leaves O one reply, the block; where that leaves X no win, the position
    after it needs an entry and a move of its own: it counts as 1 plus the best ranked move's
    quiet replies there, looked through `through` threes deep (deeper, not ranked)."""
    theirs = strategy_search()
    ranks = []
    for cell in orbits(CUBE.full_mask & ~(x | o), stabilizer(CUBE, x, o)):
        mine = x | 1 << cell
        theirs.set_budget(THREAT_NODES)
        try:
            if theirs.forced_win(o, mine, shortest=False) is not None:
                continue
        except OutOfBudget:
            continue
        three = new_threats(mine, o, cell)
        if three:
            rank = _through_block(mine, o | three, search, through)
            if rank is not None:
                ranks.append(rank._replace(cell=cell))
            continue
        quiet = moves = 0
        for reply in orbits(CUBE.full_mask & ~(mine | o), stabilizer(CUBE, mine, o)):
            length = win_length(mine, o | 1 << reply, search)
            quiet, moves = (quiet + 1, moves) if length is None else (quiet, moves + length)
        ranks.append(Rank(quiet, moves, cell))
    return sorted(ranks)


def _through_block(x: int, o: int, search: ThreatSearch, through: int) -> Rank | None:
    """A three's rank, O having blocked it at `(x, o)` (its cell left for the caller); None
    if it is not ranked."""
    length = win_length(x, o, search)
    if length is not None:
        return Rank(0, length, -1)
    if not through:
        return None
    best = ranking(x, o, search, through - 1)
    return Rank(1 + best[0].quiet, best[0].moves, -1) if best else None


def choose(
    x: int, o: int, ranks: list[Rank], nodes: int = NODES, tries: int = TRIES
) -> tuple[Rank, int] | None:
    """The best of `ranks`' first `tries` that a unit of `nodes` proves, with the nodes it
    took; None if none does."""
    prover = "fast" if fast_prover_available() else "python"
    for rank in ranks[:tries]:
        answer = unit(x | 1 << rank.cell, o, nodes, UNIT_WIDTH[prover], prover)
        print(
            f"  {format_cell(rank.cell)} ({rank.quiet} quiet): {answer.result.status} in "
            f"{answer.cpu_seconds:.1f} s",
            file=sys.stderr,
            flush=True,
        )
        if answer.result.status == PROVED:
            return rank, answer.result.expanded
    return None


def quiet_replies(x: int, o: int, search: ThreatSearch) -> list[int]:
    """O's replies at `(x, o)` (O to move, one per class) after which X needs a quiet move:
    no win, no block, no forced win by threats (`search`'s)."""
    empty = CUBE.full_mask & ~(x | o)
    return [
        reply
        for reply in orbits(empty, stabilizer(CUBE, x, o))
        if not winning_mask(o | 1 << reply, x) and win_length(x, o | 1 << reply, search) is None
    ]


class Chooser:
    """Choices made down from a position, appended to `out` (and read back from it)."""

    def __init__(self, out: Path, leaf: str, nodes: int, tries: int, rank_from: int = 0) -> None:
        self.out, self.nodes, self.tries, self.rank_from = out, nodes, tries, rank_from
        self.search = leaf_search(leaf)
        text = out.read_text(encoding="utf-8") if out.exists() else ""
        self.chosen: Entries = parse_choices(text)
        self.skipped = {
            CUBE.canonical(*Board.from_moves(parse_moves(line[len(SKIPPED) :].split("(")[0])).bits)
            for line in text.splitlines()
            if line.startswith(SKIPPED)
        }
        self.book = shipped()

    def down(self, moves: list[int], depth: int) -> None:
        """Choose at the position after `moves` (X to move, needing a quiet move), then at
        the quiet replies below, `depth` choices deep in all."""
        x, o = Board.from_moves(moves).bits
        cell = self.at(moves, x, o)
        if cell is None or depth <= 1:
            return
        # Where the strategy's own search finds a forced win, the book plays it: no choice.
        for reply in quiet_replies(x | 1 << cell, o, strategy_search()):
            self.down([*moves, cell, reply], depth - 1)

    def at(self, moves: list[int], x: int, o: int) -> int | None:
        """X's choice at `(x, o)`, made now or read from the file; None where none is."""
        key = CUBE.canonical(x, o)
        if key in self.skipped or winning_mask(o, x) or win_length(x, o, strategy_search()):
            return None  # (X blocks, wins or plays its forced win: no quiet move)
        known = lookup(self.chosen, x, o)
        if known is not None:
            return known
        line = " ".join(format_cell(cell) for cell in moves)
        (image_x, image_o), symmetry = CUBE.orient(x, o)
        if fewest_setups(image_x, image_o, SETUPS, fast_prover_available()) is not None:
            self.skip(key, f"{SKIPPED}{line} (the book plays a win with setups)")
            return None
        if (x | o).bit_count() < self.rank_from:
            return self.keep_book(line, key, symmetry, x, o)
        ranks = ranking(x, o, self.search)
        found = choose(x, o, ranks, self.nodes, self.tries)
        if found is None:
            self.skip(key, f"{SKIPPED}{line} (none of the best {self.tries} proved)")
            return None
        rank, expanded = found
        book = lookup(self.book, x, o)
        theirs = next((r for r in ranks if r.cell == book), None)
        note = ""
        if theirs is not None:
            note = f"; the shipped book's {format_cell(theirs.cell)}: {theirs.quiet}"
        why = (
            f"{rank.quiet} quiet replies, {rank.moves} forced moves; ranked "
            f"{ranks.index(rank) + 1} of {len(ranks)}, proved in {expanded:,} nodes{note}"
        )
        return self.take(line, key, symmetry, rank.cell, why)

    def keep_book(
        self, line: str, key: tuple[int, int], symmetry: tuple[int, ...], x: int, o: int
    ) -> int | None:
        """The shipped book's move at `(x, o)`, written as a choice; None where it has none."""
        cell = lookup(self.book, x, o)
        if cell is None:
            self.skip(key, f"{SKIPPED}{line} (the shipped book has no move here)")
            return None
        return self.take(line, key, symmetry, cell, "the shipped book's move")

    def take(
        self, line: str, key: tuple[int, int], symmetry: tuple[int, ...], cell: int, why: str
    ) -> int:
        """X's `cell` after `line`, written as a choice with `why` and kept under `key` (the
        position's canonical form, which `symmetry` maps the board's cells to)."""
        self.write(f"{line} {format_cell(cell)}  # {why}")
        self.chosen[key] = symmetry[cell]
        return cell

    def skip(self, key: tuple[int, int], comment: str) -> None:
        self.skipped.add(key)
        self.write(comment)

    def write(self, text: str) -> None:
        print(text, flush=True)
        with self.out.open("a", encoding="utf-8") as file:
            file.write(text + "\n")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("moves", nargs="+", help="the start (O to move: from each reply)")
    parser.add_argument("--out", type=Path, required=True, help="the choices file to append to")
    parser.add_argument("--depth", type=int, default=1, help="X's quiet moves chosen down a line")
    parser.add_argument("--leaf", choices=LEAVES, default="patashnik")
    parser.add_argument("--nodes", type=int, default=NODES, help="a candidate proof's budget")
    parser.add_argument("--tries", type=int, default=TRIES, help="candidates proved at most")
    parser.add_argument(
        "--rank-from",
        type=int,
        default=0,
        metavar="STONES",
        help="with fewer stones, keep the shipped book's move (written as a choice)",
    )
    args = parser.parse_args(argv)
    chooser = Chooser(args.out, args.leaf, args.nodes, args.tries, args.rank_from)
    for line in x_lines(parse_moves(" ".join(args.moves))):
        chooser.down(line, args.depth)


if __name__ == "__main__":
    main(sys.argv[1:])
