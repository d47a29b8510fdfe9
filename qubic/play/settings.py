"""The choices a game is played with: who plays, the machine's levels and the house rules."""

from __future__ import annotations

from dataclasses import dataclass

from qubic.core.inputs import decimal, whole
from qubic.core.variant import QUBIC, SIDES, Variant
from qubic.play.seats import Seats
from qubic.players.levels import DEFAULT_LEVEL

PLAYERS = range(0, SIDES[-1] + 1)  # people at the keyboard: they take the first sides
SECONDS_LIMIT = 86_400  # a turn's time limit, or a pause: a day at most
SEED_LIMIT = 2**64  # a seed is a whole number, this or less either side of 0


@dataclass
class Settings:
    """Everything a saved game keeps besides the moves."""

    players: int = 1  # people: they play the first sides, X (O, Y, Z), the machine the rest
    level: str = DEFAULT_LEVEL  # the machine's level; X's when the machine plays itself
    level_o: str = DEFAULT_LEVEL  # the other sides' level when the machine plays itself
    always_show: bool = False
    time_limit: float | None = None  # seconds for each of a person's turns
    seed: int | None = None
    variant: Variant = QUBIC

    @property
    def seats(self) -> Seats:
        """Who plays which side."""
        return Seats(self.players, self.variant.sides)


def parse_seconds(text: str, zero: bool = False) -> float:
    """A positive (with `zero`, or zero) number of seconds in ASCII digits, to the millisecond
    and at most SECONDS_LIMIT; NumberError (a ValueError) otherwise."""
    return decimal(text, 0.0 if zero else 0.001, SECONDS_LIMIT)


def parse_seed(text: str) -> int:
    """A seed: a whole number in ASCII digits, perhaps negative, within SEED_LIMIT either side
    of 0; NumberError (a ValueError) otherwise."""
    return whole(text, -SEED_LIMIT, SEED_LIMIT)
