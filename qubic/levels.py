"""The machine's levels by name: what each is, and how to make one."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from qubic.heuristic import NormalPlayer
from qubic.player import Player


@dataclass(frozen=True)
class Level:
    name: str
    summary: str
    make: Callable[[int | None], Player]


LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level("normal", "the guide's player: wins, blocks, else the most promising cell",
              NormalPlayer),
    )
}
DEFAULT_LEVEL = "normal"
HINT_LEVEL = "normal"  # the level HINT asks: the strongest search that answers promptly


def make_player(name: str, seed: int | None = None) -> Player:
    """A fresh player of level `name` (KeyError for an unknown name)."""
    return LEVELS[name].make(seed)
