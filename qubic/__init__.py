"""QUBIC: 3-D tic-tac-toe on a 4x4x4 cube, and other cubes, with a machine opponent."""

__version__ = "0.1.0"  # the one place: pyproject reads it, and so does `qubic --version`

from qubic.core.board import Board, IllegalMoveError, Mark, Outcome
from qubic.core.geometry import CUBE, Geometry, Line
from qubic.core.notation import NotationError, format_cell, parse_cell
from qubic.core.variant import VARIANTS, Variant, VariantError, find_variant

__all__ = [
    "CUBE",
    "VARIANTS",
    "Board",
    "Geometry",
    "IllegalMoveError",
    "Line",
    "Mark",
    "NotationError",
    "Outcome",
    "Variant",
    "VariantError",
    "find_variant",
    "format_cell",
    "parse_cell",
]
