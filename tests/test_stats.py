"""Your record: finished games counted per level and side under XDG_DATA_HOME, printed by
`qubic stats`; --no-record plays without counting. Through pipes."""

from __future__ import annotations

import pytest

from qubic.core.board import Board, Mark
from qubic.core.notation import format_cell
from qubic.play import savefile
from qubic.play.settings import Settings
from qubic.players.normal import NormalPlayer
from tests.conftest import run_piped
from tests.scripted import find_game

SEED = 5


def win_one(data: str, *options: str) -> None:
    """Resume a game one move before X's win, and win it."""
    game = find_game(Mark.X, NormalPlayer(SEED))
    line = savefile.export(Settings(seed=SEED), Board.from_moves(game.moves[:-1]))
    result = run_piped(
        "--load", line, *options, stdin=f"{format_cell(game.moves[-1])}\nno\n", XDG_DATA_HOME=data
    )
    assert "YOU WIN!" in result.stdout and result.returncode == 0


@pytest.mark.slow
def test_stats_counts_finished_games_per_level_and_side(tmp_path):
    data = str(tmp_path / "data")
    result = run_piped("stats", XDG_DATA_HOME=data)
    assert result.returncode == 0 and "NO GAMES RECORDED YET." in result.stdout
    win_one(data)
    win_one(data)
    result = run_piped("stats", XDG_DATA_HOME=data)
    lines = result.stdout.splitlines()
    assert lines[0] == f"YOUR RECORD ({tmp_path}/data/qubic/record.sqlite3):"
    assert lines[1].split() == ["VARIANT", "LEVEL", "YOU", "MOVED", "WON", "LOST", "DRAWN", "GAMES"]
    assert lines[2].split() == ["QUBIC", "NORMAL", "FIRST", "2", "0", "0", "2"]


@pytest.mark.slow
def test_no_record_plays_without_counting(tmp_path):
    data = str(tmp_path / "data")
    win_one(data, "--no-record")
    assert "NO GAMES RECORDED YET." in run_piped("stats", XDG_DATA_HOME=data).stdout
    assert not (tmp_path / "data").exists()


def test_stats_takes_no_option():
    result = run_piped("stats", "--level", "hard")
    assert result.returncode == 2 and "qubic stats takes no option" in result.stderr
