"""The machine's levels by name: what each is, and how to make one."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from qubic.classic import ClassicPlayer
from qubic.expert import ExpertPlayer
from qubic.hard import HardPlayer
from qubic.heuristic import EasyPlayer, NormalPlayer
from qubic.perfect import PerfectPlayer
from qubic.player import Player


@dataclass(frozen=True)
class Level:
    name: str
    summary: str
    make: Callable[[int | None], Player]


LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level("easy", "a beginner's opponent: sometimes misses a win or a block, plays loosely",
              EasyPlayer),
        Level("normal", "the guide's player: wins, blocks, else the most promising cell",
              NormalPlayer),
        Level("hard", "finds forced wins by chains of threats and stops yours", HardPlayer),
        Level("expert", "hard, plus wins built from quiet moves that threaten such chains",
              ExpertPlayer),
        Level("perfect", "moving first, the proof's strategy (expert where it has none yet); "
              "second, expert checked by the prover", PerfectPlayer),
        Level("classic", "the 1970s BASIC QUBIC machine, move for move and in its own words",
              ClassicPlayer),
    )
}
DEFAULT_LEVEL = "normal"
HINT_LEVEL = "hard"  # the level HINT asks: the strongest that answers within a second or so


def make_player(name: str, seed: int | None = None) -> Player:
    """A fresh player of level `name` (KeyError for an unknown name)."""
    return LEVELS[name].make(seed)
