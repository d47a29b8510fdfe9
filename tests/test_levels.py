"""Duties every level shares: legal moves only, wins taken, wins blocked, reproducible replies."""

import pytest

from qubic.core.board import Board
from qubic.players.levels import LEVELS, make_player
from tests.conftest import BEGINNERS
from tests.positions import POSITIONS
from tests.scripted import play_out, thinks

CAREFUL = [name for name in LEVELS if name not in BEGINNERS]


@pytest.mark.slow
@pytest.mark.parametrize("level", CAREFUL)
def test_always_takes_an_immediate_win(level):
    player = make_player(level, seed=3)
    checked = 0
    for board in POSITIONS:
        wins = board.winning_cells(board.turn)
        if wins:
            assert player.choose(board).cell in wins
            checked += 1
    assert checked >= 20


@pytest.mark.slow
@pytest.mark.parametrize("level", CAREFUL)
def test_always_blocks_when_it_cannot_win(level):
    player = make_player(level, seed=3)
    checked = 0
    for board in POSITIONS:
        threats = board.winning_cells(board.turn.other)
        if len(threats) == 1 and not board.winning_cells(board.turn):
            assert player.choose(board).cell == threats[0]
            checked += 1
    assert checked >= 20


@pytest.mark.slow
@pytest.mark.parametrize("level", list(LEVELS))
def test_only_legal_moves_over_many_games(level):
    games = 2 if thinks(level) else 6  # a thinker plays one game from each side
    for game in range(games):  # against easy, whose loose play varies each game
        board = play_out(
            make_player(level, seed=game),
            make_player("easy", seed=99 + game),
            human_first=game % 2 == 0,
        )
        # play_out pushes every move through Board.push, which rejects illegal ones.
        assert board.is_over()


@pytest.mark.slow
@pytest.mark.parametrize("level", list(LEVELS))
def test_same_seed_same_replies(level):
    for board in POSITIONS[: 4 if thinks(level) else 40]:
        first = make_player(level, seed=11).choose(board.copy())
        again = make_player(level, seed=11).choose(board.copy())
        assert first == again


def test_normal_uses_its_seed_for_ties():
    board = Board()
    replies = {make_player("normal", seed=s).choose(board).cell for s in range(20)}
    assert len(replies) > 1
