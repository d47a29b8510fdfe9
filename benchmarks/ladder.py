"""The ladder's calibration: a round robin of its steps and outside players, rated.

    nice .venv/bin/python benchmarks/ladder.py --jobs 2 --games 48    # the published run
    nice .venv/bin/python benchmarks/ladder.py --only novice easy greedy --games 2 \\
        --record /tmp/games.txt --out /tmp/ladder.txt                   # a quick try

Players: every step of `qubic.players.ladder` (in this process, by `make_player`) and four
outside players from `gauntlet.py`, which share no code with the levels: `greedy` (the guide's
one-move player: win, block, else the cell whose open lines hold most of its stones, 3 to the
power of their count; gauntlet's greedy-weighted), `greedy-mixed` (the same, counting the
opponent's lines too), `random` (wins and blocks, else any cell) and `threats` (wins and
blocks, else its own forced win by threats, else any cell). Players are ordered by their last
published rating (the outside ones by `OUTSIDE`); each plays its next neighbour above `--games`
games, the one after half as many, and every other player within WINDOW a quarter as many, half
of each as X. Game `i` is seeded from `i`, so a game replays, and every finished game is one
line of `--record`: a cut-off run goes on where it stopped. Ratings are Bradley-Terry (a draw
half a win for each), greedy at 1000, fitted with one virtual draw in every pair played so that
a clean sweep stays finite; the 95% intervals come from the Fisher information (relative to
greedy; without greedy, in a run with `--only`, the weakest player keeps its published rating).
It prints the cross table, the ratings, each step's move times (median, 90th percentile and
slowest, in processor time, and the slowest by the clock) and the ladder's table for
docs/levels.md, and writes the steps' ratings to `--out`, the file the game reads.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass
from itertools import combinations, islice, pairwise
from pathlib import Path
from typing import Protocol, TypedDict

import gauntlet
from bench import percentile, table

from qubic.core.board import Board
from qubic.players.ladder import RATINGS_FILE, ratings
from qubic.players.levels import LEVELS, make_player

# The outside players and their ratings in the published run (to order the round robin).
OUTSIDE = {"greedy": 1000, "greedy-mixed": 1307, "random": 567, "threats": 1082}
ANCHOR = "greedy"  # rated 1000 (OUTSIDE)
OUT = Path(__file__).resolve().parent.parent / "qubic" / "players" / RATINGS_FILE
PRIOR = 0.5  # virtual wins for each side of every pair played: one draw
WINDOW = 400  # players this close in rating (or neighbours) meet


class Mover(Protocol):
    """A player in the round robin: the cell it plays on `board`."""

    def move(self, board: Board) -> int: ...


class Step:
    """A step of the ladder, asked in this process."""

    def __init__(self, name: str, seed: int) -> None:
        self.player = make_player(name, seed)

    def move(self, board: Board) -> int:
        return self.player.choose(board).cell


class Outside:
    """An outside player of `gauntlet.py`, which plays X: as O it is shown the board with
    the two sides' stones swapped."""

    def __init__(self, name: str, seed: int) -> None:
        self.player = gauntlet.make_x("greedy-weighted" if name == "greedy" else name, seed)

    def move(self, board: Board) -> int:
        mine, theirs = board.pair()
        return self.player.choose(gauntlet.Position(list(board.moves), mine, theirs))


class Record(TypedDict):
    """A finished game, one line of `--record`: the winner 'X', 'O' or '-' for a draw, and
    each side's move times in seconds (X's, then O's): of the clock, and of processor time
    (what the move takes on an idle machine, whatever else shares the cores)."""

    index: int
    x: str
    o: str
    winner: str
    times: list[list[float]]
    cpu: list[list[float]]  # absent from records made before it was kept


@dataclass(frozen=True)
class Game:
    """One game of the schedule: its index (which seeds it), X's name and O's."""

    index: int
    x: str
    o: str


def mover(name: str, seed: int) -> Mover:
    return Outside(name, seed) if name in OUTSIDE else Step(name, seed)


def play(game: Game) -> Record:
    """Play `game`; its record."""
    seed = 1_000_003 * game.index
    sides = (mover(game.x, seed), mover(game.o, seed + 1))
    board = Board()
    times: list[list[float]] = [[], []]
    cpu: list[list[float]] = [[], []]
    while not board.is_over():
        side = len(board.moves) % 2
        start, used = time.perf_counter(), time.process_time()
        cell = sides[side].move(board.copy())
        times[side].append(round(time.perf_counter() - start, 5))
        cpu[side].append(round(time.process_time() - used, 5))
        board.push(cell)
    winner = "-" if board.winner is None else board.winner.name
    return {
        "index": game.index,
        "x": game.x,
        "o": game.o,
        "winner": winner,
        "times": times,
        "cpu": cpu,
    }


def published() -> dict[str, int]:
    """Every player's last published rating: the steps' from the result file, and OUTSIDE."""
    return {rated.name: rated.rating for rated in ratings()} | OUTSIDE


def order(only: Sequence[str] | None) -> list[str]:
    """The players, weakest first by their last published rating; only `only` if given."""
    known = published()
    names = [name for name in known if only is None or name in only]
    return sorted(names, key=lambda name: known[name])


def schedule(players: Sequence[str], games: int, every_pair: bool = False) -> list[Game]:
    """Each player against its next neighbour `games` games, the one after half as many, and
    every other player within WINDOW of its published rating a quarter as many (with
    `every_pair`, every pair `games`), either side X in turn, in rounds (every pair's k-th game
    before any pair's next), so that a run cut short leaves every pair with about as many
    games."""
    if every_pair:
        return _rounds([((low, high), games) for low, high in combinations(players, 2)], games)
    known = published()
    pairs = [(pair, games) for pair in pairwise(players)]
    pairs += [(pair, games // 2) for pair in zip(players, players[2:])]
    pairs += [
        ((low, high), games // 4)
        for i, low in enumerate(players)
        for high in players[i + 3 :]
        if known[high] - known[low] <= WINDOW
    ]
    return _rounds(pairs, games)


def _rounds(pairs: list[tuple[tuple[str, str], int]], games: int) -> list[Game]:
    """Each pair's games, every pair's k-th before any pair's next, the weaker X first."""
    found: list[Game] = []
    for k in range(games):
        for (low, high), count in pairs:
            if k < count:
                x, o = (low, high) if k % 2 == 0 else (high, low)
                found.append(Game(len(found), x, o))
    return found


def played(path: Path, games: Sequence[Game]) -> dict[int, Record]:
    """The records in `path` of games of this schedule (the same players in the same seats);
    a line cut short by a stopped run is skipped."""
    if not path.exists():
        return {}
    wanted = {game.index: game for game in games}
    found = {}
    for line in path.read_text().splitlines():
        try:
            record: Record = json.loads(line)
        except json.JSONDecodeError:
            continue
        game = wanted.get(record["index"])
        if game is not None and (record["x"], record["o"]) == (game.x, game.o):
            found[game.index] = record
    return found


def run(games: Sequence[Game], jobs: int, deadline: float) -> Iterator[Record]:
    """Each game's record as it finishes, in `jobs` processes; no game starts after
    `deadline` (a `time.monotonic()`), and those started are finished."""
    if jobs <= 1:
        for game in games:
            if time.monotonic() > deadline:
                return
            yield play(game)
        return
    waiting = iter(games)
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        running = {pool.submit(play, game) for game in islice(waiting, 2 * jobs)}
        while running:
            done, running = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()
                if time.monotonic() < deadline:
                    running |= {pool.submit(play, game) for game in islice(waiting, 1)}


Tally = dict[tuple[str, str], list[float]]  # (a, b), a before b: [a's points, games]


def tally(records: Iterable[Record]) -> Tally:
    """Each pair's points and games, a draw half a point."""
    found: Tally = {}
    for record in records:
        x, o, winner = record["x"], record["o"], record["winner"]
        points = 1.0 if winner == "X" else 0.0 if winner == "O" else 0.5
        a, b = sorted((x, o))
        entry = found.setdefault((a, b), [0.0, 0.0])
        entry[0] += points if a == x else 1 - points
        entry[1] += 1
    return found


def fit(
    players: Sequence[str], pairs: Tally, anchor: str, base: float
) -> dict[str, tuple[float, float]]:
    """Each player's Bradley-Terry rating (Elo scale, `anchor` at `base`) and the half-width
    of its 95% interval from the Fisher information, by Newton's method. Every pair played
    counts PRIOR more points for each side."""
    free = [name for name in players if name != anchor]
    index = {name: i for i, name in enumerate(free)}
    strength = dict.fromkeys(players, 0.0)  # natural-log units; the anchor stays at 0
    for _ in range(100):
        gradient = [0.0] * len(free)
        hessian = [[0.0] * len(free) for _ in free]
        for (a, b), (points, games) in pairs.items():
            expected = 1 / (1 + math.exp(strength[b] - strength[a]))
            games += 2 * PRIOR
            push = points + PRIOR - games * expected  # d log-likelihood / d strength[a]
            weight = games * expected * (1 - expected)
            for name, sign in ((a, 1), (b, -1)):
                if name in index:
                    gradient[index[name]] += sign * push
                    hessian[index[name]][index[name]] += weight
            if a in index and b in index:
                hessian[index[a]][index[b]] -= weight
                hessian[index[b]][index[a]] -= weight
        step = solve(hessian, gradient)
        for name, i in index.items():
            strength[name] += step[i]
        if max(map(abs, step), default=0.0) < 1e-9:
            break
    scale = 400 / math.log(10)
    return {
        name: (
            base + scale * strength[name],
            1.96 * scale * math.sqrt(inverse_diagonal(hessian, index[name]))
            if name in index
            else 0.0,
        )
        for name in players
    }


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """x with matrix @ x = vector, by Gaussian elimination with partial pivoting."""
    size = len(vector)
    rows = [[*row, value] for row, value in zip(matrix, vector)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(col + 1, size):
            factor = rows[r][col] / rows[col][col]
            for c in range(col, size + 1):
                rows[r][c] -= factor * rows[col][c]
    found = [0.0] * size
    for r in reversed(range(size)):
        rest = sum(rows[r][c] * found[c] for c in range(r + 1, size))
        found[r] = (rows[r][size] - rest) / rows[r][r]
    return found


def inverse_diagonal(matrix: list[list[float]], i: int) -> float:
    """The i-th diagonal entry of the matrix's inverse."""
    unit = [0.0] * len(matrix)
    unit[i] = 1.0
    return solve(matrix, unit)[i]


def cross_table(players: Sequence[str], pairs: Tally) -> str:
    """Each row player's points against each column player, out of the games played."""
    rows = []
    for a in players:
        cells = []
        for b in players:
            key = (min(a, b), max(a, b))
            if a == b or key not in pairs:
                cells.append("")
                continue
            points, games = pairs[key]
            cells.append(f"{points if a == key[0] else games - points:g}/{games:g}")
        rows.append([a, *cells])
    return table(["", *players], rows)


def move_times(players: Sequence[str], records: Iterable[Record]) -> str:
    """Each step's move times in seconds of processor time (moves, median, 90th percentile
    and slowest), and its slowest by the clock (records from before processor time was kept
    count by the clock)."""
    steps = [name for name in players if name not in OUTSIDE]
    cpu: dict[str, list[float]] = {name: [] for name in steps}
    clock: dict[str, list[float]] = {name: [] for name in steps}
    for record in records:
        names = (record["x"], record["o"])
        for name, used, took in zip(names, record.get("cpu", record["times"]), record["times"]):
            if name in cpu:
                cpu[name].extend(used)
                clock[name].extend(took)
    rows = []
    for name, found in cpu.items():
        if found:
            spread = (statistics.median(found), percentile(found, 0.9), max(found))
            rows.append([name, len(found), *(f"{v:.4f}" for v in (*spread, max(clock[name])))])
    return table(["step", "moves", "median s", "p90 s", "max s", "max s, clock"], rows)


def ladder_table(players: Sequence[str], rated: dict[str, tuple[float, float]]) -> str:
    """The steps as docs/levels.md shows them: rating, 95% interval, how each plays."""
    steps = sorted((n for n in players if n not in OUTSIDE), key=lambda n: rated[n][0])
    rows = [
        [name, round(rated[name][0]), interval(*rated[name]), LEVELS[name].summary]
        for name in steps
    ]
    return table(["step", "rating", "95% interval", "how it plays"], rows)


def interval(rating: float, half: float) -> str:
    return f"{round(rating - half)} to {round(rating + half)}"


def result_file(players: Sequence[str], rated: dict[str, tuple[float, float]], run: str) -> str:
    """The result file the game reads: each step's rating and 95% interval, weakest first."""
    lines = [
        "# The ladder: each step's rating (Bradley-Terry, the outside greedy player at 1000)",
        "# and its 95% interval, weakest first. Written by benchmarks/ladder.py:",
        f"#   {run}",
        "# step rating low high",
    ]
    for name in sorted((n for n in players if n not in OUTSIDE), key=lambda n: rated[n][0]):
        rating, half = rated[name]
        lines.append(f"{name} {round(rating)} {round(rating - half)} {round(rating + half)}")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games a neighbouring pair")
    parser.add_argument("--jobs", type=int, default=1, help="games at once (processes)")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="these players only")
    parser.add_argument("--record", type=Path, default=Path("ladder-games.txt"))
    parser.add_argument("--out", type=Path, default=OUT, help="the result file written")
    parser.add_argument(
        "--minutes", type=float, help="start no game after this long, then rate what was played"
    )
    parser.add_argument(
        "--every-pair",
        action="store_true",
        help="every pair plays --games games, not only near ones",
    )
    args = parser.parse_args(argv)
    players = order(args.only)
    games = schedule(players, args.games, args.every_pair)
    records = played(args.record, games)
    todo = [game for game in games if game.index not in records]
    print(f"{len(games)} games, {len(records)} already played", file=sys.stderr)
    start = time.perf_counter()
    deadline = time.monotonic() + (math.inf if args.minutes is None else 60 * args.minutes)
    with args.record.open("a") as out:
        for done, record in enumerate(run(todo, args.jobs, deadline), 1):
            out.write(json.dumps(record) + "\n")
            out.flush()
            records[record["index"]] = record
            rate = done / (time.perf_counter() - start)
            print(f"{done}/{len(todo)} games, {rate:.2f} a second", file=sys.stderr)
    pairs = tally(records.values())
    # Without greedy (a run with --only), the weakest keeps its published rating.
    anchor = ANCHOR if ANCHOR in players else players[0]
    rated = fit(players, pairs, anchor, published()[anchor])
    print(cross_table(players, pairs), end="\n\n")
    rows = [[name, round(r), interval(r, h)] for name, (r, h) in rated.items()]
    print(table(["player", "rating", "95% interval"], rows), end="\n\n")
    print(move_times(players, records.values()), end="\n\n")
    print(ladder_table(players, rated))
    command = "benchmarks/ladder.py " + " ".join(sys.argv[1:] if argv is None else argv)
    args.out.write_text(result_file(players, rated, command))
    return 0


if __name__ == "__main__":
    sys.exit(main())
