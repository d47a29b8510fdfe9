"""Each kind of reply for the second player at a position, with the prover's verdict on it:
how `python -m qubic.proof opening` chooses a book entry (the `solver` extra).

    pip install -e '.[solver]' && python research/replies.py "111 114 411 441 141"
    python research/replies.py "111 114 411 441 141" --nodes 1000000

Every kind of reply is screened with `--screen` df-pn expansions of the compiled prover, and
those it does not show lost are searched again with `--nodes`. Prints a Markdown table, the
hardest to show lost first (the build's choice).
"""

from __future__ import annotations

import argparse
import os
import time

from qubic.core.board import Board, Mark
from qubic.core.notation import format_cell, parse_moves
from qubic.proof.opening_build import NODES, SCREEN, Verdicts, describe, hardest_first, verdicts
from qubic.proof.pool import Journal, workers


def cells(text: str) -> list[int]:
    """Cells typed as `111 114` (or `1,1,1 1,1,4`), for argparse."""
    return parse_moves(text)


def main() -> None:
    parser = argparse.ArgumentParser(
        description="The prover's verdict on each kind of reply for the second player at a "
        "position, the hardest to show lost first (the opening book's choice)."
    )
    parser.add_argument(
        "moves", type=cells, help="the moves from the start, second player to move: '111 114 441'"
    )
    parser.add_argument(
        "--nodes", type=int, default=NODES, help=f"expansions after the screen (default {NODES})"
    )
    parser.add_argument(
        "--screen", type=int, default=SCREEN, help=f"expansions for every reply (default {SCREEN})"
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        help="processes running the prover (default: %(default)s, the cores)",
    )
    args = parser.parse_args()
    board = Board()
    for cell in args.moves:
        if cell not in board.legal_moves():
            parser.error(f"{format_cell(cell)} is not a legal move after the ones before it")
        board.push(cell)
    if board.turn is not Mark.O or board.is_over():
        parser.error("the moves must leave the second player to move in an unfinished game")
    start = time.perf_counter()
    with workers(args.workers) as pool:
        known = Verdicts(pool.executor, Journal(None))
        [found] = verdicts([args.moves], known, args.nodes, min(args.screen, args.nodes))
    ranked = sorted(sorted(found), key=lambda cell: hardest_first(found[cell]))
    print("| reply | the prover's verdict |\n|---|---|")
    for cell in ranked:
        print(f"| {format_cell(cell)} | {describe(found[cell])} |")
    print(f"\n{len(found)} kinds of reply in {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
