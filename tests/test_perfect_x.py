"""The perfect first players of benchmarks/perfect_x.py: each wins every sampled game."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from qubic.core.board import Board

pytest.importorskip("numba")  # their prover is the compiled one (the `solver` extra)

PATH = Path(__file__).resolve().parent.parent / "benchmarks" / "perfect_x.py"


def _load() -> ModuleType:
    sys.path.insert(0, str(PATH.parent))  # it imports its neighbour `bench`
    spec = importlib.util.spec_from_file_location("perfect_x", PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["perfect_x"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


p = _load()


@pytest.mark.slow
@pytest.mark.parametrize("x", ["seeded", "quickest"])
@pytest.mark.parametrize("o", ["random", "easy"])
def test_each_perfect_x_wins_against_the_defenders(x: str, o: str) -> None:
    game = p.play(x, o, 5)
    assert game.winner == "X", game.moves
    board = Board.from_moves(game.moves)
    assert board.winner is not None and board.winner.name == "X"
