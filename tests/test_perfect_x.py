"""The perfect first players of benchmarks/perfect_x.py: each wins every sampled game."""

from __future__ import annotations

import pytest

from qubic.core.board import Board
from tests.scripts import load_script

pytest.importorskip("numba")  # their prover is the compiled one (the `solver` extra)


p = load_script("benchmarks", "perfect_x")


@pytest.mark.slow
@pytest.mark.parametrize("x", ["seeded", "quickest", "fastest"])
@pytest.mark.parametrize("o", ["random", "easy"])
def test_each_perfect_x_wins_against_the_defenders(x: str, o: str) -> None:
    game = p.play(x, o, 5)
    assert game.winner == "X", game.moves
    board = Board.from_moves(game.moves)
    assert board.winner is not None and board.winner.name == "X"
