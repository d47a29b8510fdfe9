"""The choices a game is played with: who plays, the machine's levels and the house rules."""

from __future__ import annotations

import math
from dataclasses import dataclass

from qubic.core.variant import QUBIC, SIDES, Variant
from qubic.play.seats import Seats
from qubic.players.levels import DEFAULT_LEVEL

PLAYERS = range(0, SIDES[-1] + 1)  # people at the keyboard: they take the first sides


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
    """A positive (with `zero`, or zero), finite number of seconds; ValueError otherwise."""
    seconds = float(text)
    if not (math.isfinite(seconds) and (seconds > 0 or (zero and seconds == 0))):
        raise ValueError(f"{text!r} is not a positive number of seconds")
    return seconds
