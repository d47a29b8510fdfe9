"""The proof's unit of work: df-pn expansions per second on fixed positions, as a Markdown table.

    PYTHONPATH=. pypy3 benchmarks/prover.py            # as the solver runs (or python3)
    PYTHONPATH=. pypy3 benchmarks/prover.py --nodes 2000

The positions are four-stone units the solver met (X to move); each is searched by a fresh
prover for `--nodes` expansions after one warm-up search, as in a warm worker process.
"""

from __future__ import annotations

import argparse
import statistics

from bench import table

from qubic.board import Board
from qubic.notation import parse_cell
from qubic.prover import Prover

POSITIONS = [
    "112 114 121 131",
    "114 222 122 431",
    "141 144 212 234",
    "144 344 211 411",
    "144 111 211 214",
    "111 144 112 342",
]


def bits(moves: str) -> tuple[int, int]:
    board = Board.from_moves(parse_cell(move) for move in moves.split())
    return board.bits[0], board.bits[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--nodes", type=int, default=4000, help="expansions per position")
    args = parser.parse_args()
    Prover().prove(*bits(POSITIONS[0]), 500)  # warm up (PyPy's JIT)
    rows, rates = [], []
    for moves in POSITIONS:
        result = Prover().prove(*bits(moves), args.nodes)
        rate = result.expanded / result.seconds
        rates.append(rate)
        rows.append([moves, result.status, result.pn, result.dn, result.expanded,
                     f"{result.seconds:.2f}", f"{rate:,.0f}"])
    total = sum(row[4] for row in rows) / sum(float(row[5]) for row in rows)
    rows.append(["all", "", "", "", sum(row[4] for row in rows), "", f"{total:,.0f}"])
    print(table(["position", "status", "pn", "dn", "expanded", "seconds", "nodes/s"], rows))
    print(f"\nmedian {statistics.median(rates):,.0f} nodes/s")


if __name__ == "__main__":
    main()
