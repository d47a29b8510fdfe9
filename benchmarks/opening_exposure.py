"""How exposed the opening book's moves leave the second player, beside the least exposed.

    .venv/bin/python benchmarks/opening_exposure.py               # the shipped book (minutes)
    .venv/bin/python benchmarks/opening_exposure.py --book FILE   # another book file

The book (`qubic/players/opening.txt`) answers each position by the replies the prover finds
hardest to show lost (`qubic.proof.opening_build`); the second player's search ranks its moves
by exposure (`qubic.search.exposure`): the first player's quiet replies after which its short
forced win by threats cannot be stopped (lost), and those after which it has one (setups).
For every entry where the second player has a choice, this measures the book's move and every
alternative the same way: the moves that stop the first player's forced win where it has one,
else every empty cell. A row shows the book's move and the least exposed, each as lost/setups
(`?` where `--nodes` threat-search positions did not finish the measure), and how many more
replies the book's move leaves lost. Entries where the position calls for one move (a win, a
block, a forced win) or where no move stops the first player's forced win are counted apart.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bench import table

from qubic.core.board import Board, iter_bits
from qubic.core.notation import format_cell
from qubic.players.opening import BOOK_FILE, parse_lines
from qubic.search.defence import forced_move, stopping
from qubic.search.exposure import Exposure, exposure
from qubic.search.threats import OutOfBudget, ThreatSearch

BOOK = Path(__file__).resolve().parent.parent / "qubic" / "players" / BOOK_FILE
NODES = 200_000  # threat-search positions for one move's measure
CHOICE_NODES = 400_000  # for telling what the position calls for and finding its stops


def measure(board: Board, cell: int, nodes: int) -> Exposure | None:
    """The exposure of the side to move playing `cell`, or None past `nodes` positions."""
    me, you = board.pair()
    try:
        return exposure(ThreatSearch(nodes, None, board.geometry), me, you, cell)
    except OutOfBudget:
        return None


def choices(board: Board) -> tuple[str, list[int]]:
    """What the position calls for and the moves to measure: `stops` and the moves that stop
    the opponent's forced win, `quiet` and every empty cell, or `forced` or `lost` and none."""
    me, you = board.pair()
    search = ThreatSearch(CHOICE_NODES, None, board.geometry)
    move, threat = forced_move(search, me, you)
    if move is not None:
        return "forced", []
    empty = list(iter_bits(board.geometry.full_mask & ~(me | you)))
    if threat is None:
        return "quiet", empty
    stops, _ = stopping(search, me, you, empty, threat)
    return ("stops", stops) if stops else ("lost", [])


def shown(found: Exposure | None) -> str:
    return "?" if found is None else f"{found.lost}/{found.setups}"


def row(moves: list[int], reply: int, nodes: int) -> tuple[str, list[object]]:
    """What the entry's position calls for, and its table row (empty where none is due)."""
    board = Board.from_moves(moves)
    kind, cells = choices(board)
    if not cells:
        return kind, []
    measured = {cell: measure(board, cell, nodes) for cell in {*cells, reply}}
    known = {cell: found for cell, found in measured.items() if found is not None}
    best = min(known, key=lambda c: (known[c], c)) if known else reply
    ours = measured[reply]
    more = "?" if ours is None or best not in known else ours.lost - known[best].lost
    line = " ".join(format_cell(cell) for cell in moves)
    cells_row = [line, kind, format_cell(reply), shown(ours)]
    return kind, [*cells_row, format_cell(best), shown(measured.get(best)), more]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--book", type=Path, default=BOOK, help="an opening book file")
    parser.add_argument("--nodes", type=int, default=NODES, help="positions for one measure")
    args = parser.parse_args(argv)
    rows: list[list[object]] = []
    apart: dict[str, int] = {}
    for moves, reply in parse_lines(args.book.read_text(encoding="utf-8")):
        if len(moves) % 2 == 0:
            continue  # the first player's move: exposure is the second player's measure
        kind, cells = row(moves, reply, args.nodes)
        if cells:
            rows.append(cells)
            print(" ".join(str(cell) for cell in cells), file=sys.stderr, flush=True)
        else:
            apart[kind] = apart.get(kind, 0) + 1
    header = ["entry", "calls for", "book", "lost/setups", "least exposed", "lost/setups", "more"]
    print(table(header, rows))
    if apart:
        print("\nnot measured: " + ", ".join(f"{n} {kind}" for kind, n in sorted(apart.items())))


if __name__ == "__main__":
    main(sys.argv[1:])
