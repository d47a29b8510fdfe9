"""Building expert's opening book (`python -m qubic.proof opening`).

For each position it plays every kind of reply out many times, hard against hard, and keeps the
reply that scores best for the side to move. `--deepen` then chooses the second player's later
moves wherever hard, moving first, can lead, by whole games of expert against hard, among the
replies that level perfect would not reject.
"""

from __future__ import annotations

import argparse
import multiprocessing
import multiprocessing.pool
from collections.abc import Callable, Iterable
from pathlib import Path

from qubic.core.board import Board, Mark
from qubic.core.geometry import CUBE
from qubic.core.notation import format_cell
from qubic.players import hard
from qubic.players.levels import make_player
from qubic.players.normal import NormalPlayer
from qubic.players.opening import BOOK_FILE, LOST, entries, orientation
from qubic.search.prover import Prover, shown_lost
from qubic.search.threats import ThreatSearch

ROUNDS = (8, 16, 32)  # games per surviving candidate in each round of the build
KEEP = 3  # a round keeps the best third of the candidates (at least two)
OPPONENT_SEEDS = 20  # seeds whose replies (normal's) the book answers, with hard's and key cells
DEEPEN_ROUNDS = (4, 8)  # games against hard per surviving candidate, in each round of --deepen
DEEPEST = 15  # --deepen answers the second player's positions up to this many moves
IMAGE_STEP = 12  # --deepen looks for hard's choices in every this-many-th image of a position

# A game played on after some moves, by seed: its winner.
Game = Callable[[list[int], int], Mark | None]


def play_out(moves: list[int], seed: int) -> Mark | None:
    """The winner when hard plays on for both sides after `moves`."""
    return hard.playout(Board.from_moves(moves), ThreatSearch(), seed)


def against_hard(moves: list[int], seed: int, level: str = "expert") -> Mark | None:
    """The winner when hard (moving first) and `level` play on after `moves`, in the image of
    the position that `seed` picks: hard breaks ties by cell order, so images play apart."""
    symmetry = CUBE.symmetries[seed * 7919 % len(CUBE.symmetries)]
    board = Board.from_moves([symmetry[cell] for cell in moves])
    players = {Mark.X: hard.HardPlayer(seed), Mark.O: make_player(level, seed)}
    while not board.is_over():
        board.push(players[board.turn].choose(board.copy()).cell)
    return board.winner


def kinds(board: Board, cells: Iterable[int]) -> list[int]:
    """One cell of each symmetric kind among `cells`, as moves in `board`."""
    found: dict[tuple[int, int], int] = {}
    for cell in cells:
        board.push(cell)
        found.setdefault(CUBE.canonical(*board.bits), cell)
        board.pop()
    return list(found.values())


def every_kind(board: Board) -> list[int]:
    """One reply of each kind (the build's candidates)."""
    return kinds(board, board.legal_moves())


def not_shown_lost(board: Board) -> list[int]:
    """One reply of each kind that level perfect, moving second, would not reject (every
    kind, when it shows all lost). Perfect plays expert's move (the book's) only when its
    prover does not show it lost, so an entry the prover rejects would never be played."""
    replies = every_kind(board)
    first, second, prover = board.bits[board.first], board.bits[board.turn], Prover()
    held = [cell for cell in replies if not shown_lost(first, second | 1 << cell, prover)]
    return held or replies


def best_reply(
    moves: list[int],
    pool: multiprocessing.pool.Pool,
    play: Game = play_out,
    rounds: tuple[int, ...] = ROUNDS,
    candidates_of: Callable[[Board], list[int]] = every_kind,
) -> tuple[int, list[int]]:
    """The reply with the best score after `moves` in games `play`ed on from it (successive
    halving over the `candidates_of` the position), and its wins, draws and losses for the
    side to move."""
    board = Board.from_moves(moves)
    mover = board.turn
    candidates = candidates_of(board)
    results = {cell: [0, 0, 0] for cell in candidates}
    seed = 0
    for games in rounds:
        tasks = [([*moves, cell], seed + game) for cell in candidates for game in range(games)]
        for (line, _), winner in zip(tasks, pool.starmap(play, tasks)):
            results[line[-1]][0 if winner is mover else 1 if winner is None else 2] += 1
        seed += games
        candidates.sort(key=lambda c: -(results[c][0] - results[c][2]) / sum(results[c]))
        candidates = candidates[: max(2, len(candidates) // KEEP)]
    return candidates[0], results[candidates[0]]


def likely_replies(moves: list[int]) -> list[int]:
    """The moves hard or normal might play after `moves`, and the key cells; one of each
    kind."""
    board = Board.from_moves(moves)
    cells = set(hard.choices(board, ThreatSearch(hard.NODES)))
    cells |= {NormalPlayer(seed).choose(board).cell for seed in range(OPPONENT_SEEDS)}
    cells |= set(CUBE.key_cells) & set(board.legal_moves())
    return kinds(board, sorted(cells))


def build(path: Path, workers: int) -> None:
    """Write the book: X's first move, O's reply to each kind of first move, and O's second
    move after each first exchange and each likely second move of X's."""
    lines = [
        "# QUBIC opening book, written by `python -m qubic.proof opening`.",
        "# moves from the start -> the reply  # its games: wins draws losses",
    ]
    with multiprocessing.Pool(workers) as pool:
        decide = deciding(path, lines, pool, play_out, ROUNDS)
        decide([])
        for first in kinds(Board(), Board().legal_moves()):
            reply = decide([first])
            if reply is None:
                continue  # O loses whatever it plays: no line to follow
            for second in likely_replies([first, reply]):
                decide([first, reply, second])


def deepen(path: Path, workers: int, deepest: int = DEEPEST) -> None:
    """Answer every position of up to `deepest` moves, the second player to move, that hard
    (moving first) reaches against the book and the book lacks, by games against hard. The
    book is written after each answer, so a stopped run resumes where it stopped."""
    text = path.read_text(encoding="utf-8")
    book = entries(text)
    positions: list[list[int]] = [[]]
    with multiprocessing.Pool(workers) as pool:
        decide = deciding(
            path, text.splitlines(), pool, against_hard, DEEPEN_ROUNDS, not_shown_lost
        )
        for ply in range(deepest + 1):
            positions = [moves for moves in positions if not Board.from_moves(moves).is_over()]
            following = []
            if ply % 2 == 0:  # hard, moving first, to move
                for moves, cells in zip(positions, pool.map(hard_choices, positions)):
                    following += [[*moves, cell] for cell in kinds(Board.from_moves(moves), cells)]
            else:
                oriented = [(moves, *orientation(Board.from_moves(moves))) for moves in positions]
                missing = sum(key not in book for _, key, _ in oriented)
                print(
                    f"after {ply} moves: {len(positions)} positions, {missing} to answer",
                    flush=True,
                )
                for moves, key, symmetry in oriented:
                    if key not in book:
                        reply = decide(moves)
                        book[key] = None if reply is None else symmetry[reply]
                    if book[key] is not None:
                        following.append([*moves, symmetry.index(book[key])])
            positions = list(
                {CUBE.canonical(*Board.from_moves(m).bits): m for m in following}.values()
            )


def hard_choices(moves: list[int]) -> set[int]:
    """The moves hard might play after `moves`, in any of several images of the position
    (its ties are broken by cell order, so an image may bring other choices)."""
    found = set()
    for symmetry in CUBE.symmetries[::IMAGE_STEP]:
        image = Board.from_moves([symmetry[cell] for cell in moves])
        found |= {symmetry.index(cell) for cell in hard.choices(image, ThreatSearch(hard.NODES))}
    return found


def deciding(
    path: Path,
    lines: list[str],
    pool: multiprocessing.pool.Pool,
    play: Game,
    rounds: tuple[int, ...],
    candidates_of: Callable[[Board], list[int]] = every_kind,
) -> Callable[[list[int]], int | None]:
    """A function that chooses the reply after some moves by `best_reply` and adds it to
    `lines`, which it writes to `path` each time (a stopped build keeps what it decided).
    Where even the best reply lost every game, it writes `LOST` and returns None: a book move
    there would only stand in for the game's search, which resists longest."""

    def decide(moves: list[int]) -> int | None:
        reply, (wins, draws, losses) = best_reply(moves, pool, play, rounds, candidates_of)
        lost = wins == draws == 0
        text = " ".join(format_cell(m) for m in moves)
        answer = LOST if lost else format_cell(reply)
        lines.append(f"{text} -> {answer}  # {wins} {draws} {losses}".lstrip())
        print(lines[-1], flush=True)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return None if lost else reply

    return decide


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--out",
        type=Path,
        default=Path(__file__).parent.parent / "players" / BOOK_FILE,
        help="the book file to write, which --deepen also reads (default: the package's)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=multiprocessing.cpu_count(),
        help="processes playing the games (default: %(default)s, the cores)",
    )
    parser.add_argument(
        "--deepen",
        type=int,
        nargs="?",
        const=DEEPEST,
        metavar="MOVES",
        help="keep the book and answer the second player's positions of up to "
        f"MOVES moves (default: {DEEPEST}) that hard leads to and the book "
        "lacks, by games of expert against hard; a stopped run resumes",
    )


def opening(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """`opening`: rebuild expert's opening book."""
    if args.deepen is None:
        build(args.out, args.workers)
    else:
        deepen(args.out, args.workers, args.deepen)
    return 0
