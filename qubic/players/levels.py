"""The machine's levels by name: what each is, what it can play, and how to make one."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from qubic.core.variant import Variant
from qubic.players.base import Player
from qubic.players.classic import ClassicPlayer
from qubic.players.easy import EasyPlayer
from qubic.players.expert import Effort, ExpertPlayer, Vetting
from qubic.players.hard import HardPlayer
from qubic.players.human import Habits, HumanPlayer
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


QUBIC_ONLY = "QUBIC (4x4x4, two sides, the first line wins)"


def human(name: str, summary: str, habits: Habits) -> Level:
    """A step of the ladder played by `HumanPlayer` with `habits` (QUBIC only)."""
    return Level(name, summary, lambda seed: HumanPlayer(habits, seed), is_qubic, QUBIC_ONLY)


def thinker(name: str, summary: str, effort: Effort, known: int = 0) -> Level:
    """A step of the ladder between hard and perfect: expert's play with `effort`, knowing
    the proof's strategy up to `known` stones (QUBIC only)."""
    return Level(
        name, summary, lambda seed: PerfectPlayer(seed, None, effort, known), is_qubic, QUBIC_ONLY
    )


# The ladder's steps besides the named levels, weakest first (`qubic.players.ladder` rates
# them). Their habits were chosen to fall between their neighbours; the benchmark says where.
STEPS = (
    Level(
        "starter",
        "a first-timer's opponent: often misses a win or a block, plays loosely",
        lambda seed: EasyPlayer(seed, overlook=0.5, choices=8),
        is_qubic,
        QUBIC_ONLY,
    ),
    human(
        "novice",
        "a first game: blocks your threes, misses most lines off a level's rows",
        Habits((0.5, 0.25, 0.1), choices=10),
    ),
    human(
        "learner",
        "blocks your threes, sees a level's lines, rarely the rest, plays loosely",
        Habits((0.65, 0.35, 0.2), choices=7),
    ),
    human(
        "rookie",
        "blocks your threes, sees a level's lines, pillars now and then, plays loosely",
        Habits((0.75, 0.45, 0.25), choices=5),
    ),
    human(
        "casual",
        "blocks your threes, sees most lines but often misses the space diagonals",
        Habits((0.85, 0.6, 0.4), choices=3),
    ),
    human(
        "steady",
        "blocks your threes, sees most lines, picks among its two best squares",
        Habits((0.9, 0.7, 0.5), choices=2),
    ),
    human(
        "alert",
        "blocks your threes, sees most lines, plays the best square it sees",
        Habits((0.85, 0.65, 0.45)),
    ),
    human(
        "solid",
        "the guide's player, but now and then misses a line off the levels",
        Habits((0.95, 0.8, 0.6)),
    ),
    human(
        "keen",
        "the guide's player that also finds its own chains of up to three threats",
        Habits((1.0, 0.9, 0.8), threats=3, nodes=5_000),
    ),
    human(
        "sharp",
        "finds and stops chains of up to three threats; misses lines off the levels",
        Habits((0.8, 0.6, 0.4), threats=3, defends=True, nodes=20_000),
    ),
    human(
        "savvy",
        "finds and stops chains of up to three threats, takes a corner or the centre at first",
        Habits((0.8, 0.6, 0.4), threats=3, defends=True, nodes=20_000, corners=8),
    ),
    human(
        "canny",
        "finds and stops chains of up to three threats, opens in the corners and centre",
        Habits((0.8, 0.6, 0.4), threats=3, defends=True, nodes=20_000, corners=12),
    ),
    human(
        "crafty",
        "finds and stops chains of up to four threats, opens in the corners and centre",
        Habits((0.95, 0.8, 0.6), threats=4, defends=True, nodes=30_000, corners=12),
    ),
    thinker(
        "cunning",
        "expert's way with a quarter of its thought: wins from one setup, few playouts",
        Effort(40_000, 1, 60_000, 30_000, 40_000, 30_000, Vetting(6, 1, 200)),
    ),
    thinker(
        "master",
        "expert's way with half its thought: wins from two setups, fewer playouts",
        Effort(80_000, 2, 150_000, 60_000, 100_000, 80_000, Vetting(10, 2, 800)),
    ),
    thinker(
        "sage",
        "expert that knows the proof's winning strategy for its first four moves",
        Effort(),
        8,
    ),
    thinker(
        "oracle",
        "expert that knows the proof's winning strategy for its first eight moves",
        Effort(),
        16,
    ),
)

LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level(
            "easy",
            "a beginner's opponent: sometimes misses a win or a block, plays loosely",
            EasyPlayer,
        ),
        Level(
            "normal",
            "the guide's player: wins, blocks, else the most promising square",
            NormalPlayer,
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
            QUBIC_ONLY,
        ),
        Level(
            "classic",
            "the 1970s BASIC QUBIC machine, move for move and in its own words",
            ClassicPlayer,
            is_qubic,
            QUBIC_ONLY,
        ),
        *STEPS,
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
