"""The rated ladder: every level that plays QUBIC, weakest first, with its measured rating.

The ratings are read from `ladder.txt`, which `benchmarks/ladder.py` writes from a round
robin against outside players (the guide's one-move greedy player at 1000). Neighbouring
steps are at most 150 Elo apart: the stronger scores at most 70% against the weaker.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import resources

from qubic.players.base import Player
from qubic.players.levels import LEVELS

RATINGS_FILE = "ladder.txt"


@dataclass(frozen=True)
class Step:
    """A step of the ladder: a level's name, its rating, and how to make one (given a seed)."""

    name: str
    rating: int
    make: Callable[[int | None], Player]


@dataclass(frozen=True)
class Rated:
    """A line of the result file: a step's rating and its 95% interval (None: not measured)."""

    name: str
    rating: int
    low: int | None
    high: int | None


def parse_ratings(text: str) -> list[Rated]:
    """The result file's lines, `name rating low high` ('-' for no interval); '#' comments."""
    found = []
    for line in text.splitlines():
        words = line.split("#")[0].split()
        if words:
            name, rating, low, high = words
            found.append(
                Rated(name, int(rating), *(None if w == "-" else int(w) for w in (low, high)))
            )
    return found


@cache
def ratings() -> tuple[Rated, ...]:
    """The shipped result file's ratings, weakest first."""
    text = resources.files("qubic.players").joinpath(RATINGS_FILE).read_text(encoding="utf-8")
    return tuple(sorted(parse_ratings(text), key=lambda rated: rated.rating))


STEPS: tuple[Step, ...] = tuple(
    Step(rated.name, rated.rating, LEVELS[rated.name].make) for rated in ratings()
)


def nearest(rating: float) -> Step:
    """The step whose rating is nearest `rating` (the weaker of two as near; of two at one
    rating, the one the result file lists first)."""
    return min(STEPS, key=lambda step: (abs(step.rating - rating), step.rating))


def step_named(name: str) -> Step | None:
    """The step called `name` (any case), or None."""
    return next((step for step in STEPS if step.name == name.lower()), None)
