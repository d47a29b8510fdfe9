"""The player's rating: Glicko-2's rule (checked against Glickman's worked example and a game
worked by hand from the formulas), and rated games through the real program."""

from __future__ import annotations

import math
import re

import pytest

from qubic.core.board import Board, Mark
from qubic.core.notation import format_cell
from qubic.core.variant import find_variant
from qubic.play import savefile
from qubic.play.rating import START, STEP_DEVIATION, Game, after_game, update
from qubic.play.record import Rating
from qubic.play.settings import Settings
from qubic.players.ladder import step_named
from qubic.players.normal import NormalPlayer
from tests.conftest import run_piped
from tests.scripted import find_game, human_moves

SCALE = 173.7178  # Glicko-2's factor between ratings and its internal units


def test_glickmans_worked_example():
    """Glickman's "Example of the Glicko-2 system": 1500 ± 200 beats 1400 ± 30 and loses to
    1550 ± 100 and 1700 ± 300, tau 0.5: 1464.06 ± 151.52, volatility 0.05999."""
    player = Rating(1500, 200, 0.06)
    games = [Game(1400, 30, 1), Game(1550, 100, 0), Game(1700, 300, 0)]
    after = update(player, games)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def by_hand(rating: float, deviation: float, step: float, score: float) -> tuple[float, float]:
    """One game by Glicko-2's steps 2-8, with the volatility taken as unchanged (it moves by
    less than 0.0001 in one game): the new rating and deviation."""
    mu, phi = (rating - 1500) / SCALE, deviation / SCALE
    phi_j = STEP_DEVIATION / SCALE
    g = 1 / math.sqrt(1 + 3 * phi_j**2 / math.pi**2)
    e = 1 / (1 + math.exp(-g * (mu - (step - 1500) / SCALE)))
    v = 1 / (g * g * e * (1 - e))
    phi_star = math.sqrt(phi**2 + 0.06**2)
    phi_new = 1 / math.sqrt(1 / phi_star**2 + 1 / v)
    return SCALE * (mu + phi_new**2 * g * (score - e)) + 1500, SCALE * phi_new


@pytest.mark.parametrize(
    ("step", "score"), [(1000, 1), (1000, 0), (1392, 0), (483, 1), (1149, 0.5)]
)
def test_a_new_players_first_game_follows_the_rule(step, score):
    rating, deviation = by_hand(1000, 350, step, score)
    after = after_game(None, step, score)
    assert after.rating == pytest.approx(rating, abs=0.05)
    assert after.deviation == pytest.approx(deviation, abs=0.05)
    assert after.deviation < START.deviation


def test_a_win_raises_the_rating_and_a_loss_lowers_it():
    player = Rating(1200, 120, 0.06)
    won, lost = after_game(player, 1250, 1), after_game(player, 1250, 0)
    assert lost.rating < player.rating < won.rating
    hand_won, hand_lost = by_hand(1200, 120, 1250, 1), by_hand(1200, 120, 1250, 0)
    assert won.rating == pytest.approx(hand_won[0], abs=0.05)
    assert lost.rating == pytest.approx(hand_lost[0], abs=0.05)
    # Beating a weaker step gains less than beating a stronger one.
    assert after_game(player, 900, 1).rating - 1200 < won.rating - 1200


# --- Rated games, through the real program --------------------------------------------------

SEED = 5
RATED = re.compile(r"YOUR RATING: (\d+) \(([+-]\d+)\), ± (\d+)\.")


def scripted(winner: Mark) -> str:
    """The person's moves, one a line, in a game at level normal (seeded) that `winner`
    wins, the person moving first."""
    game = find_game(winner, NormalPlayer(SEED))
    return "".join(f"{format_cell(cell)}\n" for cell in human_moves(game))


def rating_said(output: str) -> tuple[int, int, int]:
    found = RATED.findall(output)
    assert len(found) == 1, output
    return tuple(int(number) for number in found[0])  # type: ignore[return-value]


@pytest.mark.slow
def test_a_won_game_raises_the_rating_and_a_lost_one_lowers_it(tmp_path):
    data = str(tmp_path / "data")
    normal = step_named("normal")
    assert normal is not None
    won = run_piped(
        "--level",
        "normal",
        "--seed",
        str(SEED),
        stdin=f"no\nyes\n{scripted(Mark.X)}no\n",
        XDG_DATA_HOME=data,
    )
    assert "YOU WIN!" in won.stdout
    rating, deviation = by_hand(1000, 350, normal.rating, 1)
    shown, change, shown_deviation = rating_said(won.stdout)
    assert shown == pytest.approx(rating, abs=1) and shown > 1000
    assert change == shown - 1000
    assert shown_deviation == pytest.approx(deviation, abs=1)
    lost = run_piped(
        "--level",
        "normal",
        "--seed",
        str(SEED),
        stdin=f"no\nyes\n{scripted(Mark.O)}no\n",
        XDG_DATA_HOME=data,
    )
    assert "MACHINE WINS." in lost.stdout
    after, after_deviation = by_hand(rating, deviation, normal.rating, 0)
    lower, change, _ = rating_said(lost.stdout)
    assert lower == pytest.approx(after, abs=1) and lower < shown
    assert change == lower - shown
    stats = run_piped("stats", XDG_DATA_HOME=data)
    assert stats.returncode == 0
    assert f"YOUR RATING: {lower} ± {round(after_deviation)}." in stats.stdout
    assert f"ITS LAST 2 CHANGES, NEWEST FIRST: {lower - shown:+d}, +{shown - 1000}." in (
        stats.stdout
    )


@pytest.mark.parametrize(
    ("taken", "reason"),
    [
        ("HINT\n", "YOU USED HINT"),
        ("UNDO\n{first}", "YOU USED UNDO"),
        ("ANALYZE\nHINT\n", "YOU USED HINT AND ANALYZE"),
        ("LEVEL EASY\nLEVEL NORMAL\n", "YOU CHANGED THE LEVEL"),
    ],
)
def test_a_game_with_help_is_counted_but_not_rated(taken, reason, tmp_path):
    data = str(tmp_path / "data")
    first, *rest = scripted(Mark.X).splitlines(keepends=True)
    typed = f"no\nyes\n{first}{taken.format(first=first)}{''.join(rest)}no\n"
    result = run_piped("--level", "normal", "--seed", str(SEED), stdin=typed, XDG_DATA_HOME=data)
    assert "YOU WIN!" in result.stdout
    assert f"THIS GAME IS NOT RATED: {reason}." in result.stdout
    assert RATED.search(result.stdout) is None
    stats = run_piped("stats", XDG_DATA_HOME=data).stdout
    assert stats.splitlines()[2].split() == ["QUBIC", "NORMAL", "FIRST", "1", "0", "0", "1"]
    assert "YOUR RATING: NONE YET." in stats


def test_a_resumed_game_is_counted_but_not_rated(tmp_path):
    data = str(tmp_path / "data")
    game = find_game(Mark.X, NormalPlayer(SEED))
    line = savefile.export(Settings(seed=SEED), Board.from_moves(game.moves[:-1]))
    result = run_piped(
        "--load", line, stdin=f"{format_cell(game.moves[-1])}\nno\n", XDG_DATA_HOME=data
    )
    assert "YOU WIN!" in result.stdout
    assert "THIS GAME IS NOT RATED: IT WAS RESUMED FROM A SAVE." in result.stdout
    assert "YOUR RATING: NONE YET." in run_piped("stats", XDG_DATA_HOME=data).stdout


def cube3_game() -> str:
    """The person's moves, one a line, in a finished game of cube3 against level normal
    (seeded), the person (another seeded normal player) moving first."""
    machine, person = NormalPlayer(SEED), NormalPlayer(SEED + 1)
    board = Board(find_variant("cube3"))
    while not board.is_over():
        board.push((person if board.turn is Mark.X else machine).choose(board).cell)
    return "".join(f"{format_cell(cell, board.geometry)}\n" for cell in board.moves[::2])


@pytest.mark.slow
def test_two_people_and_other_variants_are_not_rated(tmp_path):
    data = str(tmp_path / "data")
    game = find_game(Mark.X, NormalPlayer(SEED))
    both = "".join(f"{format_cell(cell)}\n" for cell in game.moves)
    two = run_piped("--players", "2", stdin=f"no\n{both}no\n", XDG_DATA_HOME=data)
    assert "X WINS!" in two.stdout and "RATED" not in two.stdout
    cube3 = run_piped(
        "--variant",
        "cube3",
        "--seed",
        str(SEED),
        stdin=f"no\nyes\n{cube3_game()}no\n",
        XDG_DATA_HOME=data,
    )
    assert "PLAY ANOTHER GAME?" in cube3.stdout
    assert "RATING" not in cube3.stdout and "RATED" not in cube3.stdout
    stats = run_piped("stats", XDG_DATA_HOME=data).stdout
    assert "CUBE3" in stats and "YOUR RATING: NONE YET." in stats
