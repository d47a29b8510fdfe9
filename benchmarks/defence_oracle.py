"""The defence rule (`qubic.search.defence`) against a plain oracle, on mined positions.

    .venv/bin/python benchmarks/defence_oracle.py               # the kept positions, all
    .venv/bin/python benchmarks/defence_oracle.py --limit 30    # the first 30
    .venv/bin/python benchmarks/defence_oracle.py --only speed  # ANALYZE and HINT timed
    .venv/bin/python benchmarks/defence_oracle.py --mine 300    # mine them again (minutes)

Positions come from seeded machine games at mixed levels (`puzzles.machine_game`): every ply
at which the opponent of the side to move has a forced win by threats, not a line it completes
at once, and the side to move has none of its own. They are kept in
`tests/data/defence_positions.txt`, one position a line, its moves from the start.

In each, every legal move is classified twice: by `analyze` (its stops and delays; every
other move fails), with an unbounded budget, and by `tests/oracle.py`'s `DefenceOracle`, which
plays every legal move on a plain Board at every turn and shares no code with the search. The
first table counts positions, moves, agreements and disagreements, with the time each took
(one line a position goes to stderr as it is done, each disagreement after them);
the second times `analyze` and HINT as a player meets them (their own budgets): median, 90th
percentile and slowest, and how often the analysis ran out of its budget.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from bench import percentile, table

from qubic.core.board import Board, winning_mask
from qubic.core.notation import format_cell, parse_moves
from qubic.play.analysis import Unanswered, analyze
from qubic.play.puzzles import machine_game
from qubic.players.levels import make_player
from qubic.search.threats import ThreatSearch

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the oracle lives with the tests

from tests.oracle import DefenceOracle  # noqa: E402

POSITIONS = ROOT / "tests" / "data" / "defence_positions.txt"
SEED = 54
DEPTH = 16  # the oracle's reach in the attacker's own moves: the search's MAX_THREATS


def defended(board: Board) -> bool:
    """Whether the opponent of the side to move has a forced win by threats that does not
    start by completing a line, and the side to move has no forced win of its own."""
    if board.is_over():
        return False
    me, you = board.pair()
    search = ThreatSearch()
    return (
        not winning_mask(you, me)
        and search.forced_win(me, you, shortest=False) is None
        and search.forced_win(you, me, shortest=False) is not None
    )


def mine(count: int) -> list[str]:
    """At least `count` positions, each as its moves, from seeded machine games."""
    rng = random.Random(SEED)
    found: dict[str, None] = {}
    while len(found) < count:
        moves = machine_game(rng)
        for ply in range(len(moves)):
            if defended(Board.from_moves(moves[:ply])):
                found[" ".join(format_cell(c) for c in moves[:ply])] = None
    return list(found)


def load(limit: int | None = None) -> list[Board]:
    """The kept positions (the first `limit`)."""
    lines = POSITIONS.read_text().split("\n")
    texts = [line for line in lines if line and not line.startswith("#")][:limit]
    return [Board.from_moves(parse_moves(text)) for text in texts]


def by_rule(board: Board) -> dict[int, str]:
    """Every legal move's defence by `analyze`, with no budget."""
    analysis = analyze(board, ThreatSearch(geometry=board.geometry))
    found = dict.fromkeys(board.legal_moves(), "fails")
    found.update(dict.fromkeys(analysis.stops, "stops"))
    found.update(dict.fromkeys(analysis.delays, "delays"))
    return found


def by_oracle(board: Board, oracle: DefenceOracle) -> dict[int, str]:
    """Every legal move's defence by the plain oracle."""
    return {cell: oracle.classify(board, cell) for cell in board.legal_moves()}


def disagreements(boards: list[Board]) -> tuple[list[str], list[object]]:
    """The comparison's table row, and one line per disagreement."""
    oracle = DefenceOracle(DEPTH)
    rule_seconds = oracle_seconds = 0.0
    moves = agree = 0
    wrong: list[str] = []
    for board in boards:
        start = time.perf_counter()
        rule = by_rule(board)
        middle = time.perf_counter()
        plain = by_oracle(board, oracle)
        rule_seconds += middle - start
        oracle_seconds += time.perf_counter() - middle
        moves += len(plain)
        print(
            f"{len(board.moves)} stones: rule {middle - start:.2f} s, "
            f"oracle {time.perf_counter() - middle:.2f} s",
            file=sys.stderr,
            flush=True,
        )
        for cell, kind in plain.items():
            if rule[cell] == kind:
                agree += 1
            else:
                names = " ".join(format_cell(c) for c in board.moves)
                wrong.append(f"{names}: {format_cell(cell)} rule {rule[cell]}, oracle {kind}")
    row = [len(boards), moves, agree, len(wrong), f"{rule_seconds:.1f}", f"{oracle_seconds:.1f}"]
    return wrong, row


def timed(boards: list[Board], answer: Callable[[Board], object]) -> tuple[list[float], int]:
    """Seconds `answer` took on each board, and how many times it was Unanswered."""
    seconds, unanswered = [], 0
    for board in boards:
        start = time.perf_counter()
        try:
            answer(board.copy())
        except Unanswered:
            unanswered += 1
        seconds.append(time.perf_counter() - start)
    return seconds, unanswered


def speed_rows(boards: list[Board]) -> list[list[object]]:
    hint = make_player("hard", SEED)
    rows: list[list[object]] = []
    for name, answer in (("analyze", analyze), ("HINT (hard)", hint.choose)):
        seconds, unanswered = timed(boards, answer)
        rows.append(
            [
                name,
                f"{statistics.median(seconds):.3f}",
                f"{percentile(seconds, 0.9):.3f}",
                f"{max(seconds):.3f}",
                unanswered,
            ]
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", type=int, help="only the first LIMIT kept positions")
    parser.add_argument("--mine", type=int, metavar="COUNT", help="mine COUNT positions again")
    parser.add_argument("--only", choices=["oracle", "speed"], help="one of the two tables")
    args = parser.parse_args()
    if args.mine:
        texts = mine(args.mine)
        title = f"# {len(texts)} positions mined by benchmarks/defence_oracle.py (seed {SEED})"
        POSITIONS.write_text("\n".join([title, *texts]) + "\n")
    boards = load(args.limit)
    if args.only != "speed":
        wrong, row = disagreements(boards)
        names = ["positions", "moves", "agreements", "disagreements", "rule s", "oracle s"]
        print(table(names, [row]))
        for line in wrong:
            print(line, file=sys.stderr)
    if args.only != "oracle":
        print()
        print(table(["answer", "median s", "p90 s", "max s", "unanswered"], speed_rows(boards)))


if __name__ == "__main__":
    main()
