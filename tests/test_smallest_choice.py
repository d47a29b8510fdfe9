"""X's moves ranked by the quiet replies they leave (research/smallest_choice.py)."""

from __future__ import annotations

import pytest

from qubic.core.board import Board
from qubic.core.geometry import CUBE
from qubic.core.notation import format_cell, parse_moves
from qubic.core.symmetry import lookup
from qubic.proof.choices import parse_choices
from qubic.search.strategy import shipped
from tests.scripts import load_script

choice = load_script("research", "smallest_choice")

# X to move; its 222 leaves O no reply after which X lacks a forced win by threats alone.
SETUP = "111 131 114 214 121 411"


@pytest.mark.slow  # some 2 s: sixty moves ranked, the threat search compiled first
def test_a_move_that_leaves_no_quiet_reply_ranks_first() -> None:
    x, o = Board.from_moves(parse_moves(SETUP)).bits[:2]
    ranks = choice.ranking(x, o, choice.leaf_search("patashnik"))
    assert format_cell(ranks[0].cell) == "222" and ranks[0].quiet == 0
    assert all(rank.quiet >= 1 for rank in ranks[1:])
    assert ranks == sorted(ranks)


@pytest.mark.slow  # some 4 s: the strategy's threat search is compiled first
def test_below_rank_from_the_shipped_books_moves_are_kept_as_choices(tmp_path) -> None:
    out = tmp_path / "choices.txt"
    chooser = choice.Chooser(out, "patashnik", 1_000, 1, rank_from=4)
    chooser.down(list(parse_moves("111 224")), 1)
    x, o = Board.from_moves(parse_moves("111 224")).bits[:2]
    book = lookup(shipped(), x, o)
    assert book is not None
    assert out.read_text(encoding="utf-8").splitlines() == [
        f"111 224 {format_cell(book)}  # the shipped book's move"
    ]
    assert parse_choices(out.read_text(encoding="utf-8")) == {
        CUBE.canonical(x, o): CUBE.orient(x, o)[1][book]
    }
