"""What the OpenSpiel game and the PettingZoo environment share: the variant from their
parameters, each side's return, and the board as planes of 0s and 1s.

Everything here reads a `Board`; no rule is written again. Needs numpy, which both extras
bring.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from qubic.core.board import Board, Mark
from qubic.core.geometry import Geometry
from qubic.core.variant import Variant, find_variant

WIN = 1.0
LOSS = -1.0
DRAW = 0.0


def make_variant(
    name: str = "qubic",
    size: int | None = None,
    dims: int | None = None,
    sides: int | None = None,
    target: int | None = None,
    no_centre: bool | None = None,
) -> Variant:
    """The variant `name` (qubic, cube3, tesseract or an alias) with the settings given
    changed; VariantError (a ValueError) saying why when they make no game."""
    return find_variant(name).with_options(
        size=size, dims=dims, target=target, sides=sides, no_centre=no_centre
    )


def returns(board: Board) -> list[float]:
    """Each side's return, in playing order X, O, Y, Z: while the game goes on, 0 for all;
    at its end +1 for the winner and -1 for every other side, or 0 for all in a draw (a full
    board where no side has a line or, in the scoring games, where the top score is tied).
    With two sides that is +1, -1 or 0 and sums to 0; with three or four it does not."""
    outcome = board.outcome()
    if outcome is None or outcome.winner is None:
        return [DRAW] * len(board.sides)
    return [WIN if side is outcome.winner else LOSS for side in board.sides]


def plane_names(sides: int) -> list[str]:
    """The planes' names in absolute order: a plane per mark, then empty, then disabled."""
    return [Mark(side).name for side in range(sides)] + ["empty", "disabled"]


def planes(board: Board, order: Sequence[Mark], dtype: npt.DTypeLike) -> np.ndarray:
    """The board as `len(order) + 2` planes over the cells (shape: planes, cells): one per
    mark in `order` (1 where that side has played), then the empty playable cells, then the
    disabled ones (the tesseract's centre). Every cell is 1 in exactly one plane."""
    geometry = board.geometry
    rows = [board.bits[mark] for mark in order]
    rows.append(board.empty)
    rows.append(disabled_bits(geometry))
    return np.stack([bit_array(bits, len(geometry.cells)) for bits in rows]).astype(dtype)


def disabled_bits(geometry: Geometry) -> int:
    return sum(1 << cell for cell in geometry.disabled)


def bit_array(bits: int, cells: int) -> np.ndarray:
    """A bitboard as an array of 0s and 1s, cell 0 first."""
    raw = np.frombuffer(bits.to_bytes((cells + 7) // 8, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little")[:cells]
