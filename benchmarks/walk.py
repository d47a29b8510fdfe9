"""Speed of the strategy's walk (the verifier's and the book build's), printed as a Markdown table.

    pip install -e '.[solver]' && python benchmarks/walk.py
    python benchmarks/walk.py --positions 20000   # a quicker run

Rows: microseconds per call of the symmetry and line helpers the walk leans on, over seeded
middle-game positions, and positions per second of the verifier's walk (one process, the
shipped book, the compiled threat search when numba is installed) from a few of O's first
replies. Medians of `--repeat` runs.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from qubic.core.board import winning_mask
from qubic.core.geometry import CUBE
from qubic.core.notation import parse_moves
from qubic.core.symmetry import line_profile, profile_after
from qubic.proof.leaf import StrategyMover
from qubic.proof.unit import fast_prover_available
from qubic.proof.walk import walk
from qubic.search.strategy import shipped

STARTS = ["111 222", "111 114", "111 144"]  # X's first move and O's reply: X to move


def middle_games(count: int, seed: int = 2026) -> list[tuple[int, int, int]]:
    """Seeded positions of 8 to 24 random stones, X to move, and an empty cell."""
    rng = random.Random(seed)
    found = []
    for _ in range(count):
        cells = rng.sample(range(64), rng.randrange(8, 25, 2) + 1)
        x = sum(1 << c for c in cells[:-1:2])
        o = sum(1 << c for c in cells[1:-1:2])
        found.append((x, o, cells[-1]))
    return found


def per_call(
    function: Callable[[int, int, int], object], cases: list[tuple[int, int, int]]
) -> float:
    """Microseconds per call of `function` over `cases`."""
    start = time.perf_counter()
    for x, o, cell in cases:
        function(x, o, cell)
    return (time.perf_counter() - start) / len(cases) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=60_000, help="walked from each start")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each row (the median)")
    args = parser.parse_args()
    cases = middle_games(2_000)
    CUBE.orient(0, 0)  # the symmetry tables, built once
    helpers: dict[str, Callable[[int, int, int], object]] = {
        "CUBE.orient": lambda x, o, _: CUBE.orient(x, o),
        "line_profile": lambda x, o, _: line_profile(CUBE, x, o),
        "profile_after": lambda x, o, cell: profile_after(CUBE, 0, x, o, cell),
        "winning_mask": lambda x, o, _: winning_mask(x, o),
    }
    print("| what | median |")
    print("|---|---|")
    for name, function in helpers.items():
        times = [per_call(function, cases) for _ in range(args.repeat)]
        print(f"| {name} | {statistics.median(times):.1f} µs a call |")
    book = shipped()
    mover = StrategyMover(fast=fast_prover_available())
    walk(parse_moves(STARTS[0]), book, limit=1_000, mover=mover)  # compile
    for start in STARTS:
        moves = parse_moves(start)
        rates = []
        for _ in range(args.repeat):
            began = time.perf_counter()
            found = walk(moves, book, limit=args.positions, mover=mover)
            rates.append(found.positions / (time.perf_counter() - began))
        print(f"| walk after {start} | {statistics.median(rates):,.0f} positions/s |")


if __name__ == "__main__":
    main()
