"""The opening book: expert's first moves, chosen offline by many more playouts than a move's
time allows.

`qubic/book.txt` lists positions (the moves from the start) and the reply for the side to move.
A position is found up to symmetry, so one entry serves all its rotations and reflections.
`python -m qubic.book` rebuilds the file: for each position it plays every kind of reply out
many times, hard against hard, and keeps the reply that scores best for the side to move.
"""

from __future__ import annotations

import argparse
import multiprocessing
from collections.abc import Iterable
from functools import cache
from importlib import resources
from pathlib import Path

from qubic import hard
from qubic.board import Board, Mark
from qubic.geometry import CUBE
from qubic.heuristic import NormalPlayer
from qubic.notation import format_cell, parse_cell
from qubic.threats import ThreatSearch

BOOK_FILE = "book.txt"
ROUNDS = (8, 16, 32)  # games per surviving candidate in each round of the build
KEEP = 3  # a round keeps the best third of the candidates (at least two, until the last)
OPPONENT_SEEDS = 20  # seeds whose replies (normal's) the book answers, with hard's and key cells


def book_move(board: Board) -> int | None:
    """The book's move for the side to move, or None when the position is not in it."""
    if board.geometry is not CUBE or board.occupied.bit_count() > _deepest():
        return None
    key, symmetry = CUBE.orient(board.bits[board.turn], board.bits[board.turn.other])
    cell = _entries().get(key)
    return None if cell is None else symmetry.index(cell)


@cache
def _entries() -> dict[tuple[int, int], int]:
    """Canonical position (the mover's and the opponent's bitboards) -> canonical reply."""
    text = resources.files("qubic").joinpath(BOOK_FILE).read_text(encoding="utf-8")
    entries = {}
    for moves, reply in parse(text):
        board = Board.from_moves(moves)
        key, symmetry = CUBE.orient(board.bits[board.turn], board.bits[board.turn.other])
        entries[key] = symmetry[reply]
    return entries


@cache
def _deepest() -> int:
    return max((key[0] | key[1]).bit_count() for key in _entries()) if _entries() else -1


def parse(text: str) -> Iterable[tuple[list[int], int]]:
    """The (moves, reply) of each entry line, `111 114 -> 222`; '#' starts a comment."""
    for line in text.splitlines():
        line = line.split("#")[0].strip()
        if line:
            moves, reply = line.split("->")
            yield [parse_cell(m) for m in moves.split()], parse_cell(reply.strip())


# Building the book.

def play_out(moves: list[int], seed: int) -> Mark | None:
    """The winner when hard plays on for both sides after `moves`."""
    return hard.playout(Board.from_moves(moves), ThreatSearch(), seed)


def kinds(board: Board, cells: Iterable[int]) -> list[int]:
    """One cell of each symmetric kind among `cells`, as moves in `board`."""
    found: dict[tuple[int, int], int] = {}
    for cell in cells:
        board.push(cell)
        found.setdefault(CUBE.canonical(*board.bits), cell)
        board.pop()
    return list(found.values())


def best_reply(moves: list[int], pool: multiprocessing.pool.Pool) -> tuple[int, list[int]]:
    """The reply with the best score after `moves` (successive halving over every kind of
    reply), and its wins, draws and losses for the side to move."""
    board = Board.from_moves(moves)
    mover = board.turn
    candidates = kinds(board, board.legal_moves())
    results = {cell: [0, 0, 0] for cell in candidates}
    seed = 0
    for games in ROUNDS:
        tasks = [([*moves, cell], seed + game) for cell in candidates for game in range(games)]
        for (line, _), winner in zip(tasks, pool.starmap(play_out, tasks)):
            results[line[-1]][0 if winner is mover else 1 if winner is None else 2] += 1
        seed += games
        candidates.sort(key=lambda c: -(results[c][0] - results[c][2]) / sum(results[c]))
        candidates = candidates[:max(1, len(candidates) // KEEP) if games == ROUNDS[-1]
                                else max(2, len(candidates) // KEEP)]
    return candidates[0], results[candidates[0]]


def likely_replies(moves: list[int]) -> list[int]:
    """The moves hard or normal might play after `moves`, and the key cells; one of each
    kind."""
    board = Board.from_moves(moves)
    cells = set(hard.choices(board, ThreatSearch(hard.NODES)))
    cells |= {NormalPlayer(seed).choose(board).cell for seed in range(OPPONENT_SEEDS)}
    cells |= set(hard.KEY_CELLS) & set(board.legal_moves())
    return kinds(board, sorted(cells))


def build(path: Path, workers: int) -> None:
    """Write the book: X's first move, O's reply to each kind of first move, and O's second
    move after each first exchange and each likely second move of X's."""
    lines = ["# QUBIC opening book, written by `python -m qubic.book`.",
             "# moves from the start -> the reply  # its playouts: wins draws losses"]

    def decide(moves: list[int]) -> int:
        reply, (wins, draws, losses) = best_reply(moves, pool)
        text = " ".join(format_cell(m) for m in moves)
        lines.append(f"{text} -> {format_cell(reply)}  # {wins} {draws} {losses}".lstrip())
        print(lines[-1], flush=True)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return reply

    with multiprocessing.Pool(workers) as pool:
        decide([])
        for first in kinds(Board(), Board().legal_moves()):
            reply = decide([first])
            for second in likely_replies([first, reply]):
                decide([first, reply, second])


def main() -> None:
    parser = argparse.ArgumentParser(description="Rebuild expert's opening book.")
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name(BOOK_FILE))
    parser.add_argument("--workers", type=int, default=multiprocessing.cpu_count())
    args = parser.parse_args()
    build(args.out, args.workers)


if __name__ == "__main__":
    main()
