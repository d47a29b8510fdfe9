"""The machine's levels by name: what each is, what it can play, and how to make one."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from qubic.core.variant import Variant
from qubic.players.base import Player
from qubic.players.classic import ClassicPlayer
from qubic.players.easy import EasyPlayer
from qubic.players.expert import ExpertPlayer
from qubic.players.hard import HardPlayer
from qubic.players.normal import NormalPlayer
from qubic.players.perfect import PerfectPlayer
from qubic.players.shrewd import ShrewdPlayer


def every(variant: Variant) -> bool:
    return True


def threat_theory(variant: Variant) -> bool:
    return variant.threat_theory


def is_qubic(variant: Variant) -> bool:
    return variant.is_qubic


@dataclass(frozen=True)
class Level:
    name: str
    summary: str
    make: Callable[[int | None], Player]
    supports: Callable[[Variant], bool] = every
    plays: str = "every variant"  # what `supports` allows, in words

    def refusal(self, variant: Variant) -> str | None:
        """Why this level cannot play `variant`, in one line; None if it can."""
        if self.supports(variant):
            return None
        return f"level {self.name} plays {self.plays} only"


LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level(
            "easy",
            "a beginner's opponent: sometimes misses a win or a block, plays loosely",
            EasyPlayer,
        ),
        Level(
            "normal", "the guide's player: wins, blocks, else the most promising cell", NormalPlayer
        ),
        Level("shrewd", "looks a round of moves ahead on the score, for every side", ShrewdPlayer),
        Level(
            "hard",
            "finds forced wins by chains of threats and stops yours",
            HardPlayer,
            threat_theory,
            "two-sided games where the first line wins",
        ),
        Level(
            "expert",
            "hard, plus wins built from quiet moves that threaten such chains",
            ExpertPlayer,
            threat_theory,
            "two-sided games where the first line wins",
        ),
        Level(
            "perfect",
            "moving first, the proof's strategy: it never loses; "
            "second, expert's resistance with every move weighed",
            PerfectPlayer,
            is_qubic,
            "QUBIC (4x4x4, two sides, the first line wins)",
        ),
        Level(
            "classic",
            "the 1970s BASIC QUBIC machine, move for move and in its own words",
            ClassicPlayer,
            is_qubic,
            "QUBIC (4x4x4, two sides, the first line wins)",
        ),
    )
}
DEFAULT_LEVEL = "normal"
HINT_LEVELS = ("hard", "shrewd")  # HINT asks the first that plays the variant


def hint_level(variant: Variant) -> str:
    """The level HINT asks: the strongest that plays `variant` and answers within a second
    or so."""
    return next(name for name in HINT_LEVELS if LEVELS[name].supports(variant))


def make_player(name: str, seed: int | None = None) -> Player:
    """A fresh player of level `name` (KeyError for an unknown name)."""
    return LEVELS[name].make(seed)
