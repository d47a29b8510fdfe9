"""research/joins.py: X's moves into a position another entry already plays into."""

from __future__ import annotations

from qubic.core.board import Board
from qubic.core.geometry import CUBE
from qubic.core.notation import parse_cell, parse_moves
from qubic.search.strategy import Entries
from tests.scripts import load_script

joins = load_script("research", "joins")

# Two positions of the book, but X's 141 at either leads to one position: the symmetry that
# swaps the last two digits of every cell trades 114 for 141 and 124 for 142.
JOINED = "111 222 114 142"
JOINING = "111 222 114 124"


def entry(book: Entries, moves: str, cell: str) -> tuple[int, int]:
    key, symmetry = CUBE.orient(*Board.from_moves(parse_moves(moves)).bits)
    book[key] = symmetry[parse_cell(cell)]
    return key


def test_a_move_into_the_position_another_entry_plays_into_is_a_join() -> None:
    book: Entries = {}
    joined = entry(book, JOINED, "141")
    joining = entry(book, JOINING, "444")
    found = joins.joins(book, 4)
    into = {cell for key, cell, other in found if (key, other) == (joining, joined)}
    line = parse_moves(JOINING)
    assert parse_cell("141") in {joins.on_line(line, cell) for cell in into}
    x, o = joining
    target = CUBE.canonical(joined[0] | 1 << book[joined], joined[1])
    assert all(CUBE.canonical(x | 1 << cell, o) == target for cell in into)
    assert all(cell != book[key] for key, cell, _ in found)  # never the book's own move


def test_no_join_without_a_second_entry() -> None:
    book: Entries = {}
    entry(book, JOINED, "141")
    assert joins.joins(book, 4) == []
