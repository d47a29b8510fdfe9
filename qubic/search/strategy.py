"""The strategy book: X's quiet moves of the proof that X wins, one per class of positions.

`qubic/search/strategy.txt` holds a line per entry: X's and O's bitboards (hex) of the position's
canonical image under the cube's symmetries, and X's move in that image. Everywhere else on
the proof X wins, blocks, or has a forced win by threats, which the threat search finds again.
`python -m qubic.proof book` rebuilds the file from the solver's checkpoint.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Literal, NamedTuple

from qubic.core.board import iter_bits, winning_mask
from qubic.core.geometry import CUBE, Orientation
from qubic.core.symmetry import lookup
from qubic.search.threats import OutOfBudget, ThreatSearch, lowest

STRATEGY_FILE = "strategy.txt"
ESCAPED = 1_000  # a loss_length: X left its strategy, or did not win
THREAT_NODES = 200_000  # the threat search's reach for X's forced wins (the solver's is less)
SHIPPED = Path(__file__).with_name(STRATEGY_FILE)  # where the book builds write it

Entries = dict[tuple[int, int], int]
# Why X plays a move: it completes a line, blocks O's, is the book's, starts a forced win by
# threats, or (in the book's build) starts a win from setups, or, in a build for Patashnik's
# rule, a forced win whose chain needs O's blocks to make threes.
Reason = Literal["win", "block", "book", "threats", "setup"]


class XMove(NamedTuple):
    """X's move by a strategy, and why."""

    cell: int
    reason: Reason


def parse_entries(text: str) -> Entries:
    """The entries of a strategy file's text; '#' starts a comment."""
    entries = {}
    for line in text.splitlines():
        words = line.split("#")[0].split()
        if words:
            entries[int(words[0], 16), int(words[1], 16)] = int(words[2])
    return entries


def format_entries(entries: Iterable[tuple[tuple[int, int], int]]) -> str:
    lines = [
        "# QUBIC strategy book, written by `python -m qubic.proof book`.",
        "# X (hex)  O (hex)  X's move, in the position's canonical image",
    ]
    lines += [f"{x:x} {o:x} {cell}" for (x, o), cell in sorted(entries)]
    return "\n".join(lines) + "\n"


@cache
def shipped() -> Entries:
    """The package's strategy book."""
    source = resources.files("qubic.search").joinpath(STRATEGY_FILE)
    return parse_entries(source.read_text(encoding="ascii")) if source.is_file() else {}


def load(path: Path) -> Entries:
    return parse_entries(path.read_text(encoding="ascii"))


def x_move(
    x: int,
    o: int,
    book: Entries,
    orientation: Orientation | None = None,
    search: ThreatSearch | None = None,
) -> XMove | None:
    """X's move by the strategy and why: 'win', 'block', 'book' or 'threats'; None when the
    strategy has no move here. `orientation`: `CUBE.orient(x, o)`, if the caller has it;
    `search`: the threat search to find X's forced wins with (default: a fresh one)."""
    wins = winning_mask(x, o)
    if wins:
        return XMove(lowest(wins), "win")
    theirs = winning_mask(o, x)
    if theirs:
        return XMove(lowest(theirs), "block")
    return quiet_move(x, o, book, orientation, search)


def quiet_move(
    x: int,
    o: int,
    book: Entries,
    orientation: Orientation | None = None,
    search: ThreatSearch | None = None,
) -> XMove | None:
    """`x_move` where X has no line to complete and O none to block: the book's move ('book'),
    else X's forced win by threats ('threats'), else None."""
    cell = lookup(book, x, o, orientation)
    if cell is not None:
        return XMove(cell, "book")
    try:
        line = (search or ThreatSearch(THREAT_NODES)).forced_win(x, o, shortest=False)
    except OutOfBudget:
        return None
    return XMove(line[0], "threats") if line else None


def loss_length(x: int, o: int, book: Entries, search: ThreatSearch) -> int:
    """How many more plies X takes to win from `(x, o)`, X to move, playing the strategy,
    while O wins or blocks when it can and otherwise takes the cell on the most lines X has
    not entered. ESCAPED when X leaves the strategy (or O wins). Raises OutOfBudget."""
    geometry = CUBE
    plies = 0
    while True:
        move = x_move(x, o, book, search=search)
        if search.out_of_budget():
            raise OutOfBudget
        if move is None:
            return ESCAPED
        x |= 1 << move.cell
        plies += 1
        if move.reason == "win":
            return plies
        empty = geometry.full_mask & ~(x | o)
        if not empty:
            return ESCAPED
        if winning_mask(o, x):
            return ESCAPED  # O completes a line: the strategy failed here
        blocks = winning_mask(x, o)
        if blocks:
            cell = lowest(blocks)
        else:
            cell = max(
                iter_bits(empty),
                key=lambda c: sum(1 for mask in geometry.cell_line_masks[c] if not x & mask),
            )
        o |= 1 << cell
        plies += 1
