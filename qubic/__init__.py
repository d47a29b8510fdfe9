"""QUBIC: 3-D tic-tac-toe on a 4x4x4 cube, with a machine opponent."""

from qubic.board import Board, IllegalMoveError, Mark
from qubic.geometry import CUBE, Geometry, Line
from qubic.notation import NotationError, format_cell, parse_cell

__all__ = [
    "CUBE",
    "Board",
    "Geometry",
    "IllegalMoveError",
    "Line",
    "Mark",
    "NotationError",
    "format_cell",
    "parse_cell",
]
