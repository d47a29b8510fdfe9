"""How X's second moves decide the entries of 4 stones, as a Markdown table.

    pip install -e '.[solver]' && python research/second_moves.py   # under a minute

After `111` and each of O's 12 kinds of reply, X's second move leaves O some 30 classes of
second reply, each a position of 4 stones where X needs an entry. The same position is met
after O's `a` then `b` and after `b` then `a` only if X's second move is the same in both
lines, up to the symmetries that keep `111`. `444` is kept by all of them, so X playing `444`
after every reply shares every such pair. For each way of choosing X's second moves, the
table counts the classes of positions of 4 stones it leaves and, as a guide to the entries
of 6 stones below them, the fewest open replies after X's quiet third moves there (classes of
O's replies that leave X no forced win by threats, `third_moves.fewest_open`), summed.
Neither says the moves win, nor what the whole book needs: proved whole, the second row's
moves need 6,404 entries against the shipped 5,736 (docs/proof.md).
"""

from __future__ import annotations

from third_moves import fewest_open

from qubic.core.board import iter_bits
from qubic.core.geometry import CUBE
from qubic.core.notation import format_cell, parse_cell
from qubic.core.symmetry import lookup, orbits, stabilizer
from qubic.proof.leaf import strategy_threats
from qubic.proof.unit import fast_prover_available
from qubic.search.strategy import THREAT_NODES, shipped
from qubic.search.threats import ThreatSearch

FIRST = parse_cell("111")
OPPOSITE = parse_cell("444")
# Where X's second move is not 444 in the choices measured in docs/proof.md: O took the
# diagonal (222), 444 itself, or 444 was not proved within minutes (223).
KEPT = ("222", "223", "444")


def second_moves() -> dict[int, int]:
    """X's second move in the shipped book after each class of O's first reply."""
    book = shipped()
    x = 1 << FIRST
    moves: dict[int, int] = {}
    for reply in orbits(CUBE.full_mask & ~x, stabilizer(CUBE, x)):
        move = lookup(book, x, 1 << reply)
        assert move is not None, "the shipped book answers every first reply"
        moves[reply] = move
    return moves


def positions(moves: dict[int, int]) -> set[tuple[int, int]]:
    """The classes of positions of 4 stones that X's second moves `moves` leave."""
    found = set()
    for reply, move in moves.items():
        x, o = 1 << FIRST | 1 << move, 1 << reply
        for second in iter_bits(CUBE.full_mask & ~(x | o)):
            found.add(CUBE.canonical(x, o | 1 << second))
    return found


def main() -> None:
    search = strategy_threats(fast_prover_available()) or ThreatSearch(THREAT_NODES)
    book = second_moves()
    opposite = {
        reply: move if format_cell(reply) in KEPT else OPPOSITE for reply, move in book.items()
    }
    choices = [
        ("the shipped book's", book),
        (f"444, but the book's after {', '.join(KEPT)}", opposite),
    ]
    print("| X's second moves | positions of 4 stones | fewest open replies after them |")
    print("|---|---|---|")
    for name, moves in choices:
        found = positions(moves)
        fewest = 0
        for x, o in sorted(found):
            least = fewest_open(x, o, search)
            assert least is not None, "X has a quiet move at 4 stones"
            fewest += least
        print(f"| {name} | {len(found):,} | {fewest:,} |")
    listed = ", ".join(f"{format_cell(r)} {format_cell(m)}" for r, m in book.items())
    print(f"\nThe book's second moves, after each reply: {listed}")
    print("Each alone changed to 444 (the rest the book's): positions of 4 stones")
    for reply in book:
        if format_cell(reply) not in KEPT:
            print(f"  after {format_cell(reply)}: {len(positions({**book, reply: OPPOSITE})):,}")


if __name__ == "__main__":
    main()
