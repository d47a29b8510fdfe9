"""What every machine player offers: given a position, the move it makes and how it says so."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol

from qubic.core.board import Board

PLAIN_ANNOUNCEMENT = "MACHINE MOVES TO"


@dataclass(frozen=True)
class Reply:
    """A machine's move and the words it announces it with (the move's notation follows them)."""

    cell: int
    announcement: str = PLAIN_ANNOUNCEMENT


class Player(Protocol):
    """A machine strategy. `choose` is only called while the game is not over."""

    def choose(self, board: Board, seconds: float | None = None) -> Reply:
        """The move for the side to move; `seconds` caps the thinking time where that matters."""
        ...


def new_seed(seed: int | None) -> int:
    """A player's seed: the one given, else a fresh random one."""
    return random.randrange(2**32) if seed is None else seed


def position_rng(seed: int, board: Board) -> random.Random:
    """Randomness that depends only on the seed and the position, so replies are reproducible."""
    return random.Random(":".join(map(str, [seed, *board.bits])))
