"""Speed and strength of the machine's levels, printed as Markdown tables.

    pip install -e . && python benchmarks/bench.py   # everything (about five minutes here)
    python benchmarks/bench.py --games 2       # a quicker round robin
    python benchmarks/bench.py --only speed tactics

Sections: milliseconds per move for each level over a fixed set of positions; the threat
search's positions per second; tactics (forced wins by threats found, forced wins stopped);
a round robin between levels, each pairing played from both colours.
Everything is seeded, so two runs play the same games (timings aside).
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

from qubic.core.board import Board, Mark
from qubic.players.base import Player
from qubic.players.easy import EasyPlayer
from qubic.players.levels import LEVELS, make_player
from qubic.search import defence
from qubic.search.threats import ThreatSearch

SEED = 2026
RANKED = ["easy", "normal", "hard", "expert"]  # weakest first: each should beat the one before


def positions(count: int, seed: int = SEED) -> list[Board]:
    """Unfinished middle-game positions from seeded games between easy players."""
    rng = random.Random(seed)
    boards: list[Board] = []
    game = 0
    while len(boards) < count:
        game += 1
        players = EasyPlayer(seed + game), EasyPlayer(seed - game)
        board = Board()
        stop = rng.randrange(4, 28)
        while len(board.moves) < stop and not board.is_over():
            board.push(players[len(board.moves) % 2].choose(board).cell)
        if not board.is_over():
            boards.append(board)
    return boards


def game_positions(games: int) -> list[Board]:
    """Every unfinished position of seeded games between normal and hard, from both sides:
    the positions a level meets in play."""
    boards = []
    for game in range(games):
        players = [make_player("normal", SEED + game), make_player("hard", SEED + game)]
        if game % 2:
            players.reverse()
        board = Board()
        while not board.is_over():
            boards.append(board.copy())
            board.push(players[len(board.moves) % 2].choose(board).cell)
    return boards


def table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def installed_qubic() -> str:
    """The installed console script: beside this Python first, else on PATH."""
    beside = Path(sys.executable).parent / "qubic"
    found = str(beside) if beside.exists() else shutil.which("qubic")
    if found is None:
        sys.exit("the qubic command is not installed: pip install -e .")
    return found


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def speed(levels: list[str], games: int) -> str:
    boards = game_positions(games)
    rows = []
    for level in levels:
        player = make_player(level, SEED)
        times = []
        for board in boards:
            start = time.perf_counter()
            player.choose(board.copy())
            times.append((time.perf_counter() - start) * 1000)
        rows.append(
            [
                level,
                len(times),
                f"{statistics.median(times):.1f}",
                f"{percentile(times, 0.95):.1f}",
                f"{max(times):.1f}",
            ]
        )
    return (
        f"### Milliseconds per move\n\nEvery position of {games} games between normal and hard.\n\n"
    ) + table(["level", "positions", "median", "p95", "max"], rows)


def search_rate(games: int) -> str:
    boards = game_positions(games)
    nodes = 0
    start = time.perf_counter()
    for board in boards:
        search = ThreatSearch()
        me, you = board.pair()
        search.forced_win(me, you)
        search.forced_win(you, me)
        nodes += search.nodes
    seconds = time.perf_counter() - start
    return (
        "### Threat search\n\nThe shortest forced win by threats for each side, in every "
        f"position of {games} games between normal and hard.\n\n"
    ) + table(
        ["positions", "searches", "nodes", "seconds", "nodes per second"],
        [[len(boards), 2 * len(boards), nodes, f"{seconds:.2f}", f"{nodes / seconds:,.0f}"]],
    )


def forced_wins(count: int, max_threats: int = 12) -> Iterator[tuple[Board, int]]:
    """Positions where the side to move wins by threats in 2..max_threats own moves."""
    for board in positions(count, SEED + 1):
        me, you = board.pair()
        if board.winning_cells(board.turn) or board.winning_cells(board.turn.other):
            continue
        line = ThreatSearch().forced_win(me, you, max_threats)
        if line is not None and len(line) > 1:
            yield board, (len(line) + 1) // 2


def defences(count: int) -> Iterator[tuple[Board, set[int]]]:
    """Positions where the opponent has a forced win by threats and some moves stop it (by
    `qubic.search.defence`'s rule: a three that only delays the win is no stop)."""
    for board in positions(count, SEED + 2):
        me, you = board.pair()
        search = ThreatSearch()
        if board.winning_cells(board.turn.other) or search.forced_win(me, you) is not None:
            continue
        line = search.forced_win(you, me)
        if line is None:
            continue
        found = defence.defences(search, me, you, line)
        stopping = {cell for cell, kind in found.items() if kind is defence.Defence.STOPS}
        if stopping:
            yield board, stopping


def tactics(levels: list[str], count: int) -> str:
    wins = list(forced_wins(count))
    saves = list(defences(count))
    rows = []
    for level in levels:
        player = make_player(level, SEED)
        found = 0
        for board, _ in wins:
            board = board.copy()
            board.push(player.choose(board.copy()).cell)
            you, me = board.pair()
            # Still winning: the opponent to move cannot escape (we win by threats next).
            escaped = ThreatSearch().forced_win(you, me) is not None or any(
                ThreatSearch().forced_win(me, you | 1 << reply, shortest=False) is None
                for reply in board.legal_moves()
            )
            found += board.winner is not None or not escaped
        stopped = sum(player.choose(board.copy()).cell in stopping for board, stopping in saves)
        rows.append([level, f"{found}/{len(wins)}", f"{stopped}/{len(saves)}"])
    depths = sorted(depth for _, depth in wins)
    header = (
        f"### Tactics\n\n{len(wins)} positions with a forced win by threats "
        f"({depths[0]}..{depths[-1]} own moves, median {statistics.median(depths)}); "
        f"{len(saves)} positions where the opponent has one and some moves stop it.\n\n"
    )
    return header + table(["level", "forced wins kept", "forced wins stopped"], rows)


def play(x: Player, o: Player) -> Mark | None:
    board = Board()
    while not board.is_over():
        board.push((x if board.turn is Mark.X else o).choose(board).cell)
    return board.winner


def round_robin(levels: list[str], games: int) -> str:
    rows = []
    for i, first in enumerate(levels):
        for second in levels[i + 1 :]:
            score = {first: [0, 0, 0], second: [0, 0, 0]}  # wins as X, wins as O, draws
            for game in range(games):
                for x_level, o_level in ((first, second), (second, first)):
                    winner = play(
                        make_player(x_level, SEED + game), make_player(o_level, SEED + 1000 + game)
                    )
                    if winner is Mark.X:
                        score[x_level][0] += 1
                    elif winner is Mark.O:
                        score[o_level][1] += 1
                    else:
                        score[first][2] += 1
            a, b = score[first], score[second]
            rows.append(
                [
                    f"{first} v {second}",
                    2 * games,
                    f"{a[0]}/{games}",
                    f"{a[1]}/{games}",
                    f"{b[0]}/{games}",
                    f"{b[1]}/{games}",
                    a[2],
                ]
            )
    return (
        f"### Round robin\n\n{games} games per pairing and colour; "
        "A is the first-named level.\n\n"
        + table(
            [
                "pairing",
                "games",
                "A wins as X",
                "A wins as O",
                "B wins as X",
                "B wins as O",
                "draws",
            ],
            rows,
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sample-games", type=int, default=4, help="games whose positions are timed"
    )
    parser.add_argument(
        "--positions", type=int, default=400, help="random positions searched for tactics"
    )
    parser.add_argument("--games", type=int, default=4, help="games per pairing and colour")
    parser.add_argument("--levels", nargs="+", default=RANKED, choices=list(LEVELS))
    parser.add_argument(
        "--only",
        nargs="+",
        default=["speed", "search", "tactics", "games"],
        choices=["speed", "search", "tactics", "games"],
    )
    args = parser.parse_args()
    sections = {
        "speed": lambda: speed(args.levels, args.sample_games),
        "search": lambda: search_rate(args.sample_games),
        "tactics": lambda: tactics(args.levels, args.positions),
        "games": lambda: round_robin(args.levels, args.games),
    }
    for name in args.only:
        print(sections[name](), end="\n\n", flush=True)


if __name__ == "__main__":
    main()
