"""research/joins.py: X's moves at a book's entries whose subtrees the book already holds."""

from __future__ import annotations

from qubic.core.board import Board
from qubic.core.geometry import CUBE
from qubic.core.notation import parse_cell, parse_moves
from qubic.proof.book import setup_first
from qubic.proof.leaf import StrategyMover
from qubic.proof.unit import fast_prover_available
from qubic.proof.walk import walk
from qubic.search import strategy
from tests.scripts import load_script

joins = load_script("research", "joins")

# Two entries of the shipped book (built for our leaf rule). X's 141 at either leads to one
# position: the symmetry that swaps the last two digits of every cell trades 114 for 141 and
# 124 for 142. The book plays 141 at the first and 414 at the second.
JOINED = "111 222 114 142"
JOINING = "111 222 114 124"
LEAF = "ours"


def key_and_cell(moves: str, cell: str) -> tuple[tuple[int, int], int]:
    """The canonical image of the position after `moves`, and `cell` in it."""
    key, symmetry = CUBE.orient(*Board.from_moves(parse_moves(moves)).bits)
    return key, symmetry[parse_cell(cell)]


def entries_below(book: strategy.Entries, moves: str) -> set[tuple[int, int]]:
    """The entries the strategy meets from the position after `moves`, its own included."""
    return set(walk(parse_moves(moves), book, mover=StrategyMover(False, LEAF)).quiet)


def test_a_move_into_another_entrys_position_meets_that_entrys_subtree_alone() -> None:
    book = strategy.load(strategy.SHIPPED)
    joined, _ = key_and_cell(JOINED, "141")
    joining, cell = key_and_cell(JOINING, "141")
    met, gaps = joins.walked(book, joining, cell, LEAF, answer_gaps=False)
    assert gaps == []
    assert met - {joining} == entries_below(book, JOINED) - {joined}
    own = entries_below(book, JOINING) - {joining}
    assert joins.saved(book, joining, own, met, 0) == len(own - met) > 0


def test_the_entrys_own_move_saves_nothing() -> None:
    book = strategy.load(strategy.SHIPPED)
    joining, _ = key_and_cell(JOINING, "141")
    own = entries_below(book, JOINING) - {joining}
    met, gaps = joins.walked(book, joining, book[joining], LEAF, answer_gaps=False)
    assert gaps == []
    assert joins.saved(book, joining, own, met, 0) == 0
    assert all(book[joining] != cell for cell in joins.other_moves(book, joining))


def test_a_gap_is_answered_as_the_books_walk_answers_it_and_costs_an_entry() -> None:
    book = strategy.load(strategy.SHIPPED)
    joined, _ = key_and_cell(JOINED, "141")
    joining, cell = key_and_cell(JOINING, "141")
    fast = fast_prover_available()
    below = sorted(entries_below(book, JOINED) - {joined})
    gap = next(key for key in below if setup_first(*key, {}, fast=fast, leaf=LEAF) is not None)
    trial = {key: move for key, move in book.items() if key != gap}
    met, gaps = joins.walked(trial, joining, cell, LEAF, answer_gaps=False)
    assert gaps and all(CUBE.canonical(*Board.from_moves(line).bits) == gap for line in gaps)
    met, gaps = joins.walked(trial, joining, cell, LEAF, answer_gaps=True)
    assert gaps == [] and gap in met
    own = entries_below(book, JOINING) - {joining}
    assert joins.saved(trial, joining, own, met, 0) == len(own - met) - 1
