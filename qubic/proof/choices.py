"""X's moves chosen for a smaller strategy, which the solver proves instead of its own.

The solver takes, at each position of its upper tree, X's move that its ranking puts first
(or that df-pn proves first, inside a unit); that is the move with the easiest proof, not the
one whose strategy needs the fewest entries. `choices.txt` can name others: each line is
the moves from the empty cube, the last of them X's chosen move, and a comment with what it
was measured to save (`python -m qubic.proof all --start MOVES --dir EMPTY` for each
candidate: the verify's last line counts the entries below it; then the whole book, as
subtrees share positions). The solver expands a position it has a choice for in its upper
tree, with that move alone, and the positions one reply of O before it, so the checkpoint
records it and the book plays it. `research/smallest_choice.py` writes such a file.
"""

from __future__ import annotations

from pathlib import Path

from qubic.core.board import Board
from qubic.core.geometry import CUBE
from qubic.core.notation import parse_moves
from qubic.search.prover import x_to_move
from qubic.search.strategy import Entries

CHOICES = Path(__file__).with_name("choices.txt")  # the package's


class ChoicesError(ValueError):
    """A line of a choices file that names no legal choice of X."""


def parse_choices(text: str) -> Entries:
    """The choices of a file's text, keyed by the canonical image of the position X chooses
    in, with the move in that image; '#' starts a comment. Raises ChoicesError."""
    choices: Entries = {}
    for number, line in enumerate(text.splitlines(), 1):
        text = line.split("#")[0]
        if not text.strip():
            continue
        try:
            cells = parse_moves(text)
            board = Board.from_moves(cells[:-1])
        except ValueError as error:
            raise ChoicesError(f"line {number}: {error}") from None
        x, o = board.bits[0], board.bits[1]
        if not x_to_move(x, o) or board.is_over() or (x | o) >> cells[-1] & 1:
            raise ChoicesError(f"line {number}: the last move is not a move of X here")
        canon, symmetry = CUBE.orient(x, o)
        choices[canon] = symmetry[cells[-1]]
    return choices


def load_choices(path: Path = CHOICES) -> Entries:
    """The choices in `path`; none if it does not exist."""
    return parse_choices(path.read_text(encoding="utf-8")) if path.exists() else {}
