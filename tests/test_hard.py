"""Level hard's building blocks that expert and the opening book lean on: its choices and its
playouts."""

import pytest

from qubic.core.board import Board
from qubic.players import hard
from qubic.search.threats import ThreatSearch
from tests.positions import POSITIONS


@pytest.mark.slow
def test_hard_plays_one_of_its_choices_and_its_seed_picks_among_them():
    for board in POSITIONS[:60]:
        choices = hard.choices(board, ThreatSearch())
        assert choices and set(choices) <= set(board.legal_moves())
        for seed in range(3):
            assert hard.decide(board, ThreatSearch(), seed) in choices
    opening = hard.choices(Board(), ThreatSearch())
    assert len(opening) > 1  # the start is full of equally good moves
    assert {hard.decide(Board(), ThreatSearch(), seed) for seed in range(30)} == set(opening)


@pytest.mark.slow
def test_a_playout_is_the_game_hard_would_play_and_leaves_the_board_as_it_was():
    for board in POSITIONS[:8]:
        before = list(board.moves)
        search = ThreatSearch()  # shared by the playouts, as expert shares it
        for seed in range(2):
            winner = hard.playout(board, search, seed)
            assert board.moves == before
            game = board.copy()
            while not game.is_over():
                game.push(hard.decide(game, ThreatSearch(hard.NODES), seed))
            assert winner == game.winner
