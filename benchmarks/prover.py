"""The proof's unit of work: df-pn expansions per second on fixed positions, as a Markdown table.

    PYTHONPATH=. pypy3 benchmarks/prover.py            # the Python prover, under PyPy
    PYTHONPATH=. python3 benchmarks/prover.py --prover fast --nodes 200000   # numba

The positions are four-stone units the solver met (X to move); each is searched by a fresh
prover for `--nodes` expansions after one warm-up search, as in a warm worker process. The
fast prover does not merge symmetric moves, so its numbers differ where a position has
symmetries.
"""

from __future__ import annotations

import argparse
import statistics

from bench import table

from qubic.core.board import Board
from qubic.core.notation import parse_moves
from qubic.search.prover import Prover

POSITIONS = [
    "112 114 121 131",
    "114 222 122 431",
    "141 144 212 234",
    "144 344 211 411",
    "144 111 211 214",
    "111 144 112 342",
]


def bits(moves: str) -> tuple[int, int]:
    board = Board.from_moves(parse_moves(moves))
    return board.bits[0], board.bits[1]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--nodes", type=int, default=4000, help="expansions per position")
    parser.add_argument(
        "--prover",
        choices=["python", "fast"],
        default="python",
        help="the Python prover (default) or the one compiled with numba",
    )
    args = parser.parse_args()
    if args.prover == "fast":
        from qubic.proof.fast_prover import FastProver

        def new() -> Prover | FastProver:
            return FastProver(tt_bits=20)
    else:
        new = Prover
    new().prove(*bits(POSITIONS[0]), 500)  # warm up (PyPy's JIT, numba's compiler)
    results = [new().prove(*bits(moves), args.nodes) for moves in POSITIONS]
    rates = [result.expanded / result.seconds for result in results]
    rows: list[list[object]] = [
        [
            moves,
            result.status,
            result.pn,
            result.dn,
            result.expanded,
            f"{result.seconds:.2f}",
            f"{rate:,.0f}",
        ]
        for moves, result, rate in zip(POSITIONS, results, rates, strict=True)
    ]
    expanded = sum(result.expanded for result in results)
    total = expanded / sum(result.seconds for result in results)
    rows.append(["all", "", "", "", expanded, "", f"{total:,.0f}"])
    print(table(["position", "status", "pn", "dn", "expanded", "seconds", "nodes/s"], rows))
    print(f"\nmedian {statistics.median(rates):,.0f} nodes/s")


if __name__ == "__main__":
    main()
