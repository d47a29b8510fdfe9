"""The opening book: expert's first moves, chosen offline with more search than a move's time
allows (games against hard in earlier builds; the compiled prover where the gauntlet beat O).

`qubic/players/opening.txt` lists positions (the moves from the start) and the reply for the
side to move. A position is found up to symmetry, so one entry serves all its rotations and
reflections. `python -m qubic.proof opening` rebuilds the file (`qubic.proof.opening_build`)."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from importlib import resources

from qubic.core.board import Board
from qubic.core.geometry import CUBE, Orientation
from qubic.core.notation import parse_cell, parse_moves
from qubic.core.symmetry import lookup

BOOK_FILE = "opening.txt"


def book_move(board: Board) -> int | None:
    """The book's move for the side to move, or None when the position is not in it."""
    if board.geometry is not CUBE or board.occupied.bit_count() > _deepest():
        return None
    return lookup(_entries(), *board.pair())


def orientation(board: Board) -> Orientation:
    """The canonical key of the position (the mover's and the opponent's bitboards) and the
    symmetry that maps the board's cells to it: how the book files and finds a position."""
    return CUBE.orient(*board.pair())


@cache
def _entries() -> dict[tuple[int, int], int]:
    """The shipped book's entries (see `entries`)."""
    return entries(resources.files("qubic.players").joinpath(BOOK_FILE).read_text(encoding="utf-8"))


def entries(text: str) -> dict[tuple[int, int], int]:
    """Canonical position (the mover's and the opponent's bitboards) -> canonical reply."""
    found = {}
    for moves, reply in parse_lines(text):
        key, symmetry = orientation(Board.from_moves(moves))
        found[key] = symmetry[reply]
    return found


@cache
def _deepest() -> int:
    return max((key[0] | key[1]).bit_count() for key in _entries()) if _entries() else -1


def parse_lines(text: str) -> Iterable[tuple[list[int], int]]:
    """The (moves, reply) of each entry line, `111 114 -> 222`; '#' starts a comment."""
    for line in text.splitlines():
        line = line.split("#")[0].strip()
        if line:
            moves, reply = (part.strip() for part in line.split("->"))
            yield parse_moves(moves), parse_cell(reply)
