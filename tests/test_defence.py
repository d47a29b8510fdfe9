"""The defence book: level perfect's opening moves as O, chosen offline by deep checks."""

import io
import random

import pytest

from qubic import defence
from qubic.board import Board
from qubic.geometry import CUBE
from qubic.perfect import PerfectPlayer
from qubic.prover import PROVED, Prover
from tests.test_perfect import image


def board_of(x: int, o: int) -> Board:
    """A board holding exactly the stones of `x` and `o` (X has one more: O to move)."""
    xs = [c for c in range(64) if x >> c & 1]
    os = [c for c in range(64) if o >> c & 1]
    return Board.from_moves([c for pair in zip(xs, [*os, None]) for c in pair if c is not None])


def test_the_shipped_book_covers_o_opening_moves_with_legal_moves():
    book = defence.shipped()
    assert len(book) >= 10
    for (x, o), cell in book.items():
        assert x.bit_count() == o.bit_count() + 1 <= defence.O_MOVES
        assert not (x | o) >> cell & 1
        assert CUBE.canonical(x, o) == (x, o)


def test_perfect_as_o_plays_the_book_move_under_every_symmetry():
    book = defence.shipped()
    rng = random.Random(5)
    for (x, o), cell in rng.sample(sorted(book.items()), 4):
        symmetry = rng.choice(CUBE.symmetries)
        board = board_of(image(x, symmetry), image(o, symmetry))
        played = PerfectPlayer(seed=1).choose(board).cell
        # The book's move or one equivalent to it where the position has symmetries.
        after = board.bits[0], board.bits[1] | 1 << played
        assert CUBE.canonical(*after) == CUBE.canonical(x, o | 1 << cell)


def test_the_book_moves_are_not_shown_lost_by_a_short_search():
    # The book's checks were 150 times deeper than this one.
    rng = random.Random(3)
    for (x, o), cell in rng.sample(sorted(defence.shipped().items()), 3):
        assert Prover().prove(x, o | 1 << cell, 1_000).status != PROVED


def test_a_build_writes_its_entries_and_a_second_run_resumes_from_them(tmp_path):
    pytest.importorskip("numba")
    path = tmp_path / "defence.txt"
    out = io.StringIO()
    book = defence.build(path, o_moves=1, nodes=500, out=out)
    assert len(book) == 1  # hard and expert open in one class of cell: one position
    assert defence.strategy.load(path) == book
    assert "entries" in out.getvalue()
    again = io.StringIO()
    assert defence.build(path, o_moves=1, nodes=500, out=again) == book
    assert again.getvalue() == ""  # nothing searched again
