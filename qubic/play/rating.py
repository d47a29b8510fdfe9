"""The player's rating: Glicko-2 (Glickman, "Example of the Glicko-2 system"), one game a
rating period.

A rating is a number on the ladder's scale (the guide's greedy player at 1000), a deviation
(how uncertain it is: about a 95% chance the true strength lies within two deviations) and a
volatility (how much the strength is expected to swing). A new player starts at 1000 with a
deviation of 350. Each rated game against a ladder step is its own period: the rating moves
towards the result, by more when the deviation is large, and the deviation shrinks. The
deviation never grows with idle time: periods are games, not weeks.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import pairwise
from typing import NamedTuple

from qubic.core.inputs import NumberError, whole
from qubic.play.record import Rating
from qubic.players.ladder import STEPS, Step, nearest

SCALE = 173.7178  # Glicko-2's internal units: (rating - CENTRE) / SCALE
CENTRE = 1500.0  # Glicko-2's reference rating; only differences matter
TAU = 0.5  # how fast the volatility may change (Glickman suggests 0.3 to 1.2)
EPSILON = 0.000001  # the volatility's iteration stops within this
STEP_DEVIATION = 40.0  # a ladder step's rating, measured to about ±75 (95%)
AUTO = "auto"  # the level that plays the step nearest the player's rating
CHANGES = 5  # the rating's last changes that qubic stats shows
RATING_LIMIT = 10_000  # a rating typed to choose a step lies within ± this


class Game(NamedTuple):
    """One game's result against an opponent: score 1 won, 0.5 drawn, 0 lost."""

    rating: float
    deviation: float
    score: float


START = Rating(1000.0, 350.0, 0.06)  # a new player


def g(phi: float) -> float:
    """How much an opponent's result counts, less the less certain its rating (phi)."""
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def expected(mu: float, mu_j: float, phi_j: float) -> float:
    """The expected score against opponent j, in Glicko-2's units."""
    return 1 / (1 + math.exp(-g(phi_j) * (mu - mu_j)))


def new_volatility(sigma: float, phi: float, v: float, delta: float) -> float:
    """The volatility after a period (step 5): the root of Glickman's f, found by the
    Illinois method."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        spread = phi * phi + v + ex
        return ex * (delta * delta - spread) / (2 * spread * spread) - (x - a) / (TAU * TAU)

    low = a
    if delta * delta > phi * phi + v:
        high = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * TAU) < 0:
            k += 1
        high = a - k * TAU
    f_low, f_high = f(low), f(high)
    while abs(high - low) > EPSILON:
        middle = low + (low - high) * f_low / (f_high - f_low)
        f_middle = f(middle)
        if f_middle * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2
        high, f_high = middle, f_middle
    return math.exp(low / 2)


def update(player: Rating, games: Sequence[Game]) -> Rating:
    """The rating after one period of `games` (at least one): the opponents' ratings are
    taken as they were at the start of the period."""
    mu = (player.rating - CENTRE) / SCALE
    phi = player.deviation / SCALE
    weighted = []  # (g(phi_j), E_j, s_j) per game
    for game in games:
        phi_j = game.deviation / SCALE
        e = expected(mu, (game.rating - CENTRE) / SCALE, phi_j)
        weighted.append((g(phi_j), e, game.score))
    v = 1 / sum(gj * gj * e * (1 - e) for gj, e, _ in weighted)
    improvement = sum(gj * (s - e) for gj, e, s in weighted)
    sigma = new_volatility(player.volatility, phi, v, v * improvement)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi_new = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    mu_new = mu + phi_new * phi_new * improvement
    return Rating(SCALE * mu_new + CENTRE, SCALE * phi_new, sigma)


def after_game(player: Rating | None, step_rating: float, score: float) -> Rating:
    """The player's rating (None: a new player) after one game against a ladder step rated
    `step_rating` at the game's start; `score` 1 won, 0.5 drawn, 0 lost."""
    return update(player or START, [Game(step_rating, STEP_DEVIATION, score)])


def typed_rating(text: str) -> int | None:
    """A rating typed to choose a step (`--level 1400`, `LEVEL 1400`, `go elo 1400`): a whole
    number within ± RATING_LIMIT; None for anything else."""
    try:
        return whole(text, -RATING_LIMIT, RATING_LIMIT)
    except NumberError:
        return None


def step_words(step: Step) -> str:
    """A step as the game names it: `1367 (SHREWD)`."""
    return f"{step.rating} ({step.name.upper()})"


def nearest_words(rating: int) -> tuple[Step, str]:
    """The step nearest `rating`, and the line that says so."""
    step = nearest(rating)
    return step, f"LEVEL {rating} IS THE NEAREST STEP: {step_words(step)}."


def steps_line() -> str:
    """The ladder's steps with their ratings, weakest first, in one line."""
    return "THE STEPS: " + ", ".join(f"{s.name.upper()} {s.rating}" for s in STEPS) + "."


def rating_lines(ratings: Sequence[Rating]) -> list[str]:
    """`qubic stats`'s lines on the rating, from the ratings after the last rated games,
    newest first (one more than the changes to show, or all of them)."""
    if not ratings:
        return [
            f"YOUR RATING: NONE YET. YOUR FIRST RATED GAME STARTS IT FROM "
            f"{START.rating:.0f} ± {START.deviation:.0f}."
        ]
    shown = [round(rating.rating) for rating in ratings]
    if len(ratings) <= CHANGES:
        shown.append(round(START.rating))  # the first game moved it from a new player's
    changes = [f"{after - before:+d}" for after, before in pairwise(shown)]
    latest = ratings[0]
    return [
        f"YOUR RATING: {shown[0]} ± {round(latest.deviation)}.",
        f"ITS LAST {len(changes)} CHANGES, NEWEST FIRST: {', '.join(changes)}."
        if len(changes) > 1
        else f"ITS ONE CHANGE: {changes[0]}.",
    ]
