"""Perfect first players of our own, and how long O's levels resist each of them.

    .venv/bin/python benchmarks/perfect_x.py --check 4            # each X against defenders
    .venv/bin/python benchmarks/perfect_x.py --games 10 --jobs 16 # O's resistance (long)

Three perfect X players besides the strategy book's (`book`: level perfect as X), and, with
`--other FILE`, a fourth (`other`): level perfect as X playing another strategy book, FILE, as
`python -m qubic.proof book` writes it from another proof (such as the research build of
`research/proof-444.txt.xz`, whose second move is 444; docs/benchmarks.md says how):

- `seeded` proves its move at each turn: it tries its best-ranked quiet moves other than the
  book's (and the book's images), in an order drawn by its seed, each with the compiled df-pn
  (`qubic.proof.fast_prover`, the `solver` extra) within a budget of expansions, and plays the
  first proved to win;
- `quickest` tries the same moves best-ranked first and plays the one whose proof took
  the fewest expansions: the most forcing of the winning moves the prover finds;
- `fastest` tries every class of quiet moves, the book's included, each within a small
  budget, and plays the one whose proof took the fewest expansions: it takes a short win
  wherever the prover sees one, as a strong player would.

Where no other move is proved within the budget they play the book's move, and off the book
(after a move of their own) a move the prover shows to win, so they are perfect; the table
says how many of their quiet moves were not the book's choice. Early in the game no other
move is proved within a second, so there they play as the book does. A move is never left
unproved: a game in which X cannot show its move wins stops with an error.

`--check N`: each X of `--x` but the book's plays N games as X against each defender (easy,
normal, hard and a random player, seeded), and must win all. Then O's resistance: perfect and
expert as O, O's seed varied over `--games` games against each X: plies survived (median,
least) and, for every game shorter than 45 plies, the ply after which X first had a forced
win by threats, X's quiet move that made it, O's last free move before it (the moves between
are X's threes and O's blocks), and O's moves there after which X has no win with one
setup. Each game goes to stderr as it ends, and with `--record FILE` to FILE as a line
`O perfect-X seed winner: moves` (as `gauntlet.py --record` writes its games), for the opening
build (`python -m qubic.proof opening --games FILE`).
"""

from __future__ import annotations

import argparse
import functools
import random
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from bench import table

from qubic.core.board import Board, winning_mask
from qubic.core.geometry import CUBE
from qubic.core.notation import format_cell
from qubic.core.symmetry import lookup, orbits, stabilizer
from qubic.players.levels import make_player
from qubic.players.perfect import PerfectPlayer
from qubic.proof.fast_prover import FastProver
from qubic.search import strategy
from qubic.search.prover import PROVED, ranked_cells
from qubic.search.setups import SetupSearch
from qubic.search.threats import OutOfBudget, ThreatSearch, lowest, new_threats

WIDTH = 3  # quiet moves tried at a turn, besides the book's
EXPANSIONS = 100_000  # compiled df-pn expansions for each: under a second here
FASTEST_EXPANSIONS = 3_000  # for each of `fastest`'s moves: a short win proves within it
RESCUE = 100_000  # expansions to show a move wins again, off the book
SHORT = 45  # plies: a game shorter than this gets a post-mortem
SETUP_NODES = 300_000  # threat-search positions for each of O's moves in a post-mortem
DEFENDERS = ("easy", "normal", "hard", "random")


@dataclass
class ProvingX:
    """A perfect X that proves its quiet moves with the compiled df-pn; `quickest` and
    `fastest` pick by proof size, `seeded` the first proved in an order drawn by its seed."""

    seed: int
    style: str
    book: strategy.Entries = field(default_factory=strategy.shipped)
    prover: FastProver = field(default_factory=FastProver)  # warm across the game
    quiet: int = 0  # quiet moves played
    own: int = 0  # of which not the book's choice

    def choose(self, board: Board) -> int:
        x, o = board.pair()
        urgent = winning_mask(x, o) or winning_mask(o, x)
        if urgent:
            return lowest(urgent)
        line = ThreatSearch(strategy.THREAT_NODES).forced_win(x, o, shortest=False)
        if line:
            return line[0]
        self.quiet += 1
        booked = lookup(self.book, x, o)
        proved: list[tuple[int, int]] = []  # (expansions, cell)
        budget = FASTEST_EXPANSIONS if self.style == "fastest" else EXPANSIONS
        for cell in self.tried(x, o, booked):
            result = self.prover.prove(x | 1 << cell, o, budget)
            if result.status == PROVED:
                proved.append((result.expanded, cell))
                if self.style == "seeded":
                    break
        if proved:
            cell = min(proved)[1]
            self.own += cell != booked
            return cell
        if booked is not None:
            return booked
        return self.rescue(x, o)

    def tried(self, x: int, o: int, booked: int | None) -> list[int]:
        """The quiet moves to try: for `fastest` all, else none the book's move or an image
        of it."""
        empty = CUBE.full_mask & ~(x | o)
        cells = list(orbits(empty, stabilizer(CUBE, x, o)))
        if self.style == "fastest":
            return ranked_cells(x, o, cells)
        if booked is not None:
            book_image = CUBE.orient(x | 1 << booked, o)[0]
            cells = [c for c in cells if CUBE.orient(x | 1 << c, o)[0] != book_image]
        cells = ranked_cells(x, o, cells)[: 3 * WIDTH]
        if self.style == "seeded":
            random.Random(self.seed * 1_000_003 + x * 7 + o).shuffle(cells)
        return cells[:WIDTH]

    def rescue(self, x: int, o: int) -> int:
        """Off the book (after a move of its own): a move the prover shows to win, which its
        earlier proof holds, so its warm table answers at once."""
        empty = CUBE.full_mask & ~(x | o)
        for cell in ranked_cells(x, o, list(orbits(empty, stabilizer(CUBE, x, o)))):
            if self.prover.prove(x | 1 << cell, o, RESCUE).status == PROVED:
                return cell
        raise RuntimeError(f"X cannot show a winning move: {x:x} {o:x}")


class BookX:
    """Level perfect as X: the strategy book, the shipped one or `book`."""

    def __init__(self, seed: int, book: strategy.Entries | None = None) -> None:
        self.player = PerfectPlayer(seed, book)

    def choose(self, board: Board) -> int:
        return self.player.choose(board.copy()).cell


def make_x(name: str, seed: int, other: str | None = None) -> BookX | ProvingX:
    """The X player `name`; `other`: the strategy file of X `other`."""
    if name == "book":
        return BookX(seed)
    if name == "other":
        if other is None:
            raise ValueError("X 'other' plays the strategy book given with --other FILE")
        return BookX(seed, other_book(other))
    return ProvingX(seed, name)


@functools.cache
def other_book(path: str) -> strategy.Entries:
    """The strategy book of X `other`, read once a process."""
    return strategy.load(Path(path))


X_NAMES = ("book", "seeded", "quickest", "fastest", "other")


def make_o(name: str, seed: int) -> Callable[[Board], int]:
    if name == "random":
        rng = random.Random(seed)

        def random_o(board: Board) -> int:
            me, you = board.pair()
            urgent = winning_mask(me, you) or winning_mask(you, me)
            return lowest(urgent) if urgent else rng.choice(board.legal_moves())

        return random_o
    player = make_player(name, seed)
    return lambda board: player.choose(board.copy()).cell


@dataclass
class Game:
    x: str
    o: str
    seed: int
    moves: list[int]
    winner: str
    quiet: int = 0
    own: int = 0
    o_seconds: list[float] = field(default_factory=list)


def play(x_name: str, o_name: str, seed: int, other: str | None = None) -> Game:
    """One game, X first; O's seed `seed`, X's seed derived from it; `other`: as `make_x`."""
    x, o = make_x(x_name, seed + 7919, other), make_o(o_name, seed)
    board = Board()
    o_seconds = []
    while not board.is_over():
        start = time.perf_counter()
        board.push(x.choose(board) if len(board.moves) % 2 == 0 else o(board))
        if len(board.moves) % 2 == 0:
            o_seconds.append(time.perf_counter() - start)
    winner = board.winner.name if board.winner is not None else "draw"
    game = Game(x_name, o_name, seed, board.moves, winner, o_seconds=o_seconds)
    if isinstance(x, ProvingX):
        game.quiet, game.own = x.quiet, x.own
    names = " ".join(format_cell(c) for c in board.moves)
    print(
        f"{x_name} v {o_name} seed {seed}: {winner} in {len(board.moves)}: {names}", file=sys.stderr
    )
    return game


def first_forced_win(moves: list[int]) -> int | None:
    """The ply (counted from 1) of the first O move after which X, to move, had a forced win
    by threats; None if none did."""
    board = Board()
    search = ThreatSearch()
    for ply, cell in enumerate(moves, start=1):
        board.push(cell)
        if ply % 2 == 0 and not board.is_over():
            x, o = board.pair()
            if search.forced_win(x, o, shortest=False) is not None:
                return ply
    return None


def decided(moves: list[int], ply: int) -> str:
    """How X's forced win by threats after O's move at `ply` came about: X's quiet move before
    it, the exchanges of threes (X's three, O's block) back to O's last free move, and, of O's
    moves there, those after which X has no win with one setup (`SetupSearch`: threats, one
    quiet move, threats; the setup may come after the threes) within SETUP_NODES each. A
    three of O's is told apart: X's block is its quiet move, so there one setup is too few."""
    quiet, free = ply - 1, ply - 2  # plies of X's last quiet move and O's last free move
    if _threes_made(moves, quiet):
        return "X's last move before it was a three"
    while free > 2 and _threes_made(moves, free - 1) == 1 << moves[free - 1]:
        free -= 2  # O's move there only blocked X's three
    x, o = Board.from_moves(moves[: free - 1]).bits[:2]
    holding: dict[bool, list[str]] = {True: [], False: []}  # by whether the move is a three
    for cell in orbits(CUBE.full_mask & ~(x | o), stabilizer(CUBE, o, x)):
        three = bool(new_threats(o | 1 << cell, x, cell))
        try:
            if SetupSearch(ThreatSearch(SETUP_NODES)).forced_win(x, o | 1 << cell, 1) is None:
                holding[three].append(format_cell(cell))
        except OutOfBudget:
            holding[three].append(format_cell(cell) + "?")
    exchanges = (quiet - free - 1) // 2
    held = holding[False] + holding[True]
    but = f" but {' '.join(held)}" if held else ""
    threes = ""
    if holding[True]:
        threes = f" ({' '.join(holding[True])}: O's threes, whose block is X's setup)"
    unknown = " (?: out of budget)" if any(cell.endswith("?") for cell in held) else ""
    return (
        f"X's quiet {format_cell(moves[quiet - 1])} at ply {quiet} decided it, {exchanges} "
        f"exchanges of threes after O's last free move, {format_cell(moves[free - 1])} at ply "
        f"{free}; there X has a win with one setup after every move of O's{but}{threes}"
        f"{unknown}"
    )


def _threes_made(moves: list[int], ply: int) -> int:
    """The cells where X's move at `ply` (odd) made X a three."""
    x, o = Board.from_moves(moves[: ply - 1]).bits[:2]
    return new_threats(x | 1 << moves[ply - 1], o, moves[ply - 1])


def run(jobs: list[tuple[str, str, int]], workers: int, other: str | None = None) -> list[Game]:
    if workers <= 1:
        return [play(*job, other) for job in jobs]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(play, *zip(*jobs, strict=True), [other] * len(jobs)))


def record(games: list[Game], path: str) -> None:
    """Append each game to `path` as `O X seed winner: moves`, a draw's winner `-`."""
    with open(path, "a", encoding="utf-8") as file:
        for g in games:
            winner = "-" if g.winner == "draw" else g.winner
            names = " ".join(format_cell(c) for c in g.moves)
            file.write(f"{g.o} perfect-{g.x} {g.seed} {winner}: {names}\n")


def check_rows(games: list[Game]) -> list[list[object]]:
    rows: list[list[object]] = []
    for x_name in X_NAMES[1:]:
        mine = [g for g in games if g.x == x_name]
        if not mine:
            continue
        rows.append(
            [
                x_name,
                len(mine),
                sum(g.winner == "X" for g in mine),
                "-"
                if x_name == "other"
                else f"{sum(g.own for g in mine)} of {sum(g.quiet for g in mine)}",
            ]
        )
    return rows


def resistance_rows(games: list[Game]) -> tuple[list[list[object]], list[str]]:
    """The table's rows, and a post-mortem line for each different game under SHORT plies."""
    rows: list[list[object]] = []
    short: dict[tuple[str, str, tuple[int, ...]], list[int]] = {}  # the seeds of each game
    for x_name in X_NAMES:
        for o_name in ("perfect", "expert"):
            mine = [g for g in games if g.x == x_name and g.o == o_name]
            if not mine:
                continue
            plies = [len(g.moves) for g in mine]
            seconds = [s for g in mine for s in g.o_seconds]
            rows.append(
                [
                    x_name,
                    o_name,
                    len(mine),
                    "-".join(str(sum(g.winner == w for g in mine)) for w in ("X", "draw", "O")),
                    f"{statistics.median(plies):g}",
                    min(plies),
                    f"{statistics.median(seconds):.3f}",
                    f"{max(seconds):.2f}",
                ]
            )
            for g in mine:
                if len(g.moves) < SHORT:
                    short.setdefault((x_name, o_name, tuple(g.moves)), []).append(g.seed)
    notes = [note(x, o, list(moves), seeds) for (x, o, moves), seeds in short.items()]
    return rows, notes


def note(x: str, o: str, moves: list[int], seeds: list[int]) -> str:
    """The post-mortem of one game under SHORT plies."""
    ply = first_forced_win(moves)
    why = "" if ply is None else f" ({decided(moves, ply)})"
    return (
        f"{x} v {o}, seeds {', '.join(map(str, seeds))}: {len(moves)} plies, X's forced win "
        f"by threats after ply {ply}{why}: " + " ".join(format_cell(c) for c in moves)
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", type=int, default=0, help="games against each defender")
    parser.add_argument("--games", type=int, default=0, help="games against each perfect X")
    parser.add_argument(
        "--x", nargs="+", choices=X_NAMES, help="the X players (default: all, `other` with --other)"
    )
    parser.add_argument(
        "--other", metavar="FILE", help="X `other`'s strategy book (python -m qubic.proof book)"
    )
    parser.add_argument("--o", nargs="+", default=["perfect", "expert"])
    parser.add_argument("--jobs", type=int, default=1, help="games played at once")
    parser.add_argument(
        "--record", metavar="FILE", help="append O's games against the perfect Xs to FILE"
    )
    args = parser.parse_args()
    if args.x is None:
        args.x = [x for x in X_NAMES if x != "other" or args.other]
    if "other" in args.x and not args.other:
        parser.error("X other plays the strategy book given with --other FILE")
    if args.check:
        checked = [x for x in args.x if x != "book"]
        jobs = [(x, o, seed) for x in checked for o in DEFENDERS for seed in range(args.check)]
        games = run(jobs, args.jobs, args.other)
        print(table(["X", "games", "X won", "quiet moves not the book's"], check_rows(games)))
        for g in games:
            if g.winner != "X":
                print(f"LOST: {g.x} v {g.o} seed {g.seed}: {g.winner}", file=sys.stderr)
    if args.games:
        jobs = [(x, o, seed) for x in args.x for o in args.o for seed in range(args.games)]
        games = run(jobs, args.jobs, args.other)
        if args.record:
            record(games, args.record)
        rows, notes = resistance_rows(games)
        header = ["X", "O", "games", "X-draw-O", "median plies", "least", "O median s", "O max s"]
        print()
        print(table(header, rows))
        for note in notes:
            print(f"- {note}")


if __name__ == "__main__":
    main()
