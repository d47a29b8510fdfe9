"""ANALYZE and puzzles on 4x4x4: the targets measured, printed as Markdown tables.

    pip install -e . && python benchmarks/analysis.py   # everything (a few minutes here)
    python benchmarks/analysis.py --games 10 --puzzles 3

Sections: the analysis of every position of seeded machine games at mixed levels (time and
threat-search positions per answer, the verdicts, each checked: a claimed win replays as a
chain of threats and forced blocks; where none is claimed, a search twice as deep finds none
up to 12 own moves); the time to produce a puzzle of each length, 1 to 12 own moves, each
checked again with a fresh search. Everything is seeded, so two runs see the same positions
and puzzles (timings aside).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter

from bench import table

from qubic.core.board import Board
from qubic.play.analysis import Verdict, analyze, own_moves
from qubic.play.puzzles import LENGTHS, WINNING, judge, machine_game, sitting_puzzle
from qubic.search.threats import MAX_THREATS, ThreatSearch

SEED = 2026
DEEPER = 2 * MAX_THREATS  # the reach of the search that checks there is no win
WITHIN = 12  # own moves the targets speak of


def replays(board: Board, line: tuple[int, ...]) -> bool:
    """Whether `line` replays on a copy of `board` as single threats (each answering any
    threat of the defender's) met by the one block, ending in a line or two threats."""
    board = board.copy()
    me = board.turn
    for index, cell in enumerate(line):
        if index % 2:
            if board.winning_cells(me) != [cell]:
                return False
            board.push(cell)
            continue
        counters = board.winning_cells(me.other)
        board.push(cell)
        last = index == len(line) - 1
        if board.winner is me:
            return last
        threats = len(board.winning_cells(me))
        if not set(counters) <= {cell} or not (threats > 1 if last else threats == 1):
            return False
    return True


def analysis_table(games: int) -> str:
    rng = random.Random(SEED)
    seconds: list[float] = []
    nodes: list[int] = []
    verdicts: Counter[str] = Counter()
    wrong = longest = 0
    for _ in range(games):
        moves = machine_game(rng)
        for ply in range(len(moves)):
            board = Board.from_moves(moves[:ply])
            search = ThreatSearch()
            start = time.perf_counter()
            result = analyze(board, search)
            seconds.append(time.perf_counter() - start)
            nodes.append(search.nodes)
            verdicts[result.verdict.value] += 1
            me, you = board.pair()
            if result.verdict is Verdict.WIN:
                longest = max(longest, own_moves(result.line))
                wrong += not replays(board, result.line)
            else:
                deeper = ThreatSearch().forced_win(me, you, DEEPER, shortest=False)
                wrong += deeper is not None and own_moves(deeper) <= WITHIN
    rows = [
        [
            games,
            len(seconds),
            f"{statistics.median(seconds) * 1000:.1f}",
            f"{max(seconds) * 1000:.0f}",
            f"{statistics.median(nodes):.0f}",
            max(nodes),
            " ".join(f"{v.value} {verdicts[v.value]}" for v in Verdict),
            longest,
            wrong,
        ]
    ]
    return "### ANALYZE on positions from machine games\n\n" + table(
        [
            "games",
            "positions",
            "median ms",
            "max ms",
            "median nodes",
            "max nodes",
            "verdicts",
            "longest win",
            "wrong",
        ],
        rows,
    )


def puzzle_ok(moves: tuple[int, ...], solution: tuple[int, ...], length: int) -> bool:
    """The puzzle checked again from scratch: the shortest win is `length` own moves and
    replays, and some first move of the attacker's does not win."""
    board = Board.from_moves(moves)
    search = ThreatSearch()
    line = search.forced_win(*board.pair())
    if line is None or own_moves(line) != length or not replays(board, solution):
        return False
    return any(judge(board, cell, search).outcome not in WINNING for cell in board.legal_moves())


def puzzle_table(count: int) -> str:
    rows = []
    for length in LENGTHS:
        seconds = []
        checked = 0
        for seed in range(count):
            start = time.perf_counter()
            puzzle = sitting_puzzle(SEED + seed, 1, length)
            seconds.append(time.perf_counter() - start)
            checked += puzzle_ok(puzzle.moves, puzzle.solution, length)
        rows.append(
            [
                length,
                count,
                f"{statistics.median(seconds):.2f}",
                f"{max(seconds):.2f}",
                f"{checked}/{count}",
            ]
        )
    return "### Producing a puzzle (seconds)\n\n" + table(
        ["own moves", "puzzles", "median s", "max s", "checked"], rows
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games whose positions are analysed")
    parser.add_argument("--puzzles", type=int, default=10, help="puzzles produced per length")
    parser.add_argument(
        "--only", nargs="+", default=["analysis", "puzzles"], choices=["analysis", "puzzles"]
    )
    args = parser.parse_args()
    sections = {
        "analysis": lambda: analysis_table(args.games),
        "puzzles": lambda: puzzle_table(args.puzzles),
    }
    for name in args.only:
        print(sections[name](), end="\n\n", flush=True)


if __name__ == "__main__":
    main()
