"""Each kind of reply for the second player at a position, scored by seeded games against
hard: how a book entry was chosen, measured with more games or with level perfect.

    pip install -e . && python benchmarks/replies.py "111 114 441"
    python benchmarks/replies.py "111 114 144 441 411" --games 8 --replies "223 232" --level perfect

Each reply is played out in `--games` whole games, hard as X against `--level` as O, each game
in another rotation of the position (hard breaks ties by cell order, so rotations play apart),
the same seeds for every reply. Prints a Markdown table, best score (wins less losses) first,
with the replies level perfect would reject (its prover shows them lost, so it plays another
move there, and `--deepen` leaves them out unless it shows every reply lost).
"""

from __future__ import annotations

import argparse
import multiprocessing
import time
from functools import partial

from bench import table

from qubic.core.board import Board, Mark
from qubic.core.notation import format_cell, parse_cell
from qubic.players.levels import LEVELS
from qubic.proof.opening_build import against_hard, every_kind
from qubic.search.prover import shown_lost


def cells(text: str) -> list[int]:
    """Cells typed as `111 114` (or `1,1,1 1,1,4`), for argparse."""
    return [parse_cell(cell) for cell in text.split()]


def rejected(moves: list[int], reply: int) -> bool:
    """Whether level perfect would reject `reply` after `moves` (its prover shows it lost)."""
    board = Board.from_moves(moves)
    return shown_lost(board.bits[board.first], board.bits[board.turn] | 1 << reply)


def main() -> None:
    parser = argparse.ArgumentParser(
        description="Score each kind of reply for the second player at a position by seeded "
        "games against hard (X), each in another rotation of the position."
    )
    parser.add_argument(
        "moves", type=cells, help="the moves from the start, second player to move: '111 114 441'"
    )
    parser.add_argument("--games", type=int, default=4, help="games a reply (default: 4)")
    parser.add_argument(
        "--replies",
        type=cells,
        metavar="CELLS",
        help="the replies to score (default: one of each kind)",
    )
    parser.add_argument(
        "--level",
        default="expert",
        choices=sorted(LEVELS),
        help="the second player (default: expert)",
    )
    parser.add_argument(
        "--seed", type=int, default=0, help="the first game's seed (default: 0, as --deepen)"
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=multiprocessing.cpu_count(),
        help="processes playing the games (default: %(default)s, the cores)",
    )
    args = parser.parse_args()
    moves, board = args.moves, Board()
    for cell in moves:
        if cell not in board.legal_moves():
            parser.error(f"{format_cell(cell)} is not a legal move after the ones before it")
        board.push(cell)
    if board.turn is not Mark.O or board.is_over():
        parser.error("the moves must leave the second player to move in an unfinished game")
    replies = args.replies or every_kind(board)
    if not set(replies) <= set(board.legal_moves()):
        parser.error("every reply must be an empty cell")
    tasks = [([*moves, reply], args.seed + game) for reply in replies for game in range(args.games)]
    start = time.perf_counter()
    with multiprocessing.Pool(args.workers) as pool:
        winners = pool.starmap(partial(against_hard, level=args.level), tasks)
        lost = dict(zip(replies, pool.starmap(rejected, [(moves, reply) for reply in replies])))
    results = {reply: [0, 0, 0] for reply in replies}
    for (line, _), winner in zip(tasks, winners):
        results[line[-1]][[Mark.O, None, Mark.X].index(winner)] += 1
    ranked = sorted(replies, key=lambda reply: results[reply][2] - results[reply][0])
    print(
        table(
            ["reply", "won", "drawn", "lost", "perfect rejects"],
            [
                [format_cell(reply), *results[reply], "yes" if lost[reply] else ""]
                for reply in ranked
            ],
        )
    )
    print(
        f"\n{len(tasks)} games of {args.level} (O) against hard (X) in "
        f"{time.perf_counter() - start:.0f} s"
    )


if __name__ == "__main__":
    main()
