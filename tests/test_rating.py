"""The player's rating: Glicko-2's rule (checked against Glickman's worked example and a game
worked by hand from the formulas), and rated games through the real program."""

from __future__ import annotations

import math

import pytest

from qubic.play.rating import START, STEP_DEVIATION, Game, Rating, after_game, update

SCALE = 173.7178  # Glicko-2's factor between ratings and its internal units


def test_glickmans_worked_example():
    """Glickman's "Example of the Glicko-2 system": 1500 ± 200 beats 1400 ± 30 and loses to
    1550 ± 100 and 1700 ± 300, tau 0.5: 1464.06 ± 151.52, volatility 0.05999."""
    player = Rating(1500, 200, 0.06)
    games = [Game(1400, 30, 1), Game(1550, 100, 0), Game(1700, 300, 0)]
    rating, deviation, volatility = update(player, games)
    assert rating == pytest.approx(1464.06, abs=0.01)
    assert deviation == pytest.approx(151.52, abs=0.01)
    assert volatility == pytest.approx(0.05999, abs=0.00001)


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


@pytest.mark.parametrize(("step", "score"), [(1000, 1), (1000, 0), (1392, 0), (483, 1), (1149, 0.5)])
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
