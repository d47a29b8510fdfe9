"""Level perfect against the other levels, printed as Markdown tables.

    pip install -e . && python benchmarks/perfect.py           # 30 games a pairing (long)
    python benchmarks/perfect.py --games 6 --only o --against hard normal

Sections: perfect as X against every level (its wins and its move times: the strategy book's
targets are every game won, median under 5 ms, none over 200 ms); perfect as O against hard,
normal, easy and classic as X (the targets: two games in three won against hard, none lost
against the others). Each game is seeded, so two runs play the same games (timings aside),
unless --unseeded: then every player draws its own seed and each run plays new games.
`--level expert` puts expert in perfect's seat (the targets as O hold for both levels).
`--book FILE` gives perfect another strategy book (`python -m qubic.proof book` writes one).
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from bench import table

from qubic.core.board import Board, Mark
from qubic.players.base import Player
from qubic.players.levels import LEVELS, make_player
from qubic.players.perfect import PerfectPlayer
from qubic.search import strategy

SEED = 2026
X_OPPONENTS = ["easy", "normal", "classic", "hard", "expert"]
O_OPPONENTS = ["hard", "easy", "normal", "classic"]


def play(x: Player, o: Player, timed: Mark) -> tuple[Mark | None, list[float]]:
    """The winner of one game, and the milliseconds each move of `timed` took."""
    board = Board()
    times = []
    while not board.is_over():
        start = time.perf_counter()
        cell = (x if board.turn is Mark.X else o).choose(board.copy()).cell
        if board.turn is timed:
            times.append((time.perf_counter() - start) * 1000)
        board.push(cell)
    return board.winner, times


def seated(name: str, seed: int | None, book: strategy.Entries | None) -> Player:
    """Level `name`; perfect with `book` where one is given."""
    if book is not None and name == "perfect":
        return PerfectPlayer(seed, book)
    return make_player(name, seed)


def series(
    games: int,
    against: list[str],
    side: Mark,
    seeded: bool = True,
    player: str = "perfect",
    book: strategy.Entries | None = None,
) -> str:
    """`player` (a level) playing `side` against each level of `against` it meets from that
    side; `book`: perfect's strategy book, if not the shipped one."""
    rows = []
    opponents = X_OPPONENTS if side is Mark.X else O_OPPONENTS
    for opponent in [level for level in opponents if level in against]:
        results = {Mark.X: 0, Mark.O: 0, None: 0}
        times: list[float] = []
        for game in range(games):
            names = (player, opponent) if side is Mark.X else (opponent, player)
            x, o = (
                seated(name, SEED + 1000 * seat + game if seeded else None, book)
                for seat, name in enumerate(names)
            )
            winner, took = play(x, o, side)
            results[winner] += 1
            times += took
            print(
                f"  {names[0]} v {names[1]}, game {game + 1}: "
                f"{'draw' if winner is None else winner.name + ' wins'}",
                flush=True,
            )
        rows.append(
            [
                opponent,
                games,
                results[side],
                results[side.other],
                results[None],
                f"{statistics.median(times):.1f}",
                f"{max(times):.1f}",
            ]
        )
    title = f"### {player.capitalize()} as {side.name}{'' if seeded else ', unseeded'}"
    return f"{title}\n\n" + table(
        ["against", "games", f"{player} wins", f"{player} loses", "draws", "median ms", "max ms"],
        rows,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30, help="games per opponent")
    parser.add_argument("--only", nargs="+", default=["x", "o"], choices=["x", "o"])
    parser.add_argument(
        "--against",
        nargs="+",
        default=X_OPPONENTS,
        choices=X_OPPONENTS,
        help="the opponents (default all)",
    )
    parser.add_argument(
        "--level",
        default="perfect",
        choices=sorted(LEVELS),
        help="the level in perfect's seat (default: perfect; expert plays "
        "the same games, its prover checking only its own candidates)",
    )
    parser.add_argument(
        "--unseeded",
        action="store_true",
        help="let every player draw its own seed: new games each run",
    )
    parser.add_argument("--book", type=Path, help="perfect's strategy book (default: shipped)")
    args = parser.parse_args()
    book = strategy.load(args.book) if args.book else None
    for name in args.only:
        side = Mark.X if name == "x" else Mark.O
        print(
            series(args.games, args.against, side, not args.unseeded, args.level, book),
            end="\n\n",
            flush=True,
        )


if __name__ == "__main__":
    main()
