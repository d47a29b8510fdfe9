"""The machine as O against a gauntlet of X players written for measurement only.

    .venv/bin/python benchmarks/gauntlet.py                      # 20 games a pairing (long)
    .venv/bin/python benchmarks/gauntlet.py --games 2 --o expert --opponents greedy-open random

O is a level of the game (`--o perfect expert`), asked through the engine protocol in a
subprocess (`python -m qubic engine --seed N`), one engine per game, so a game's seed replays
it. The X players below share no code and no evaluation with the game: the cube's cells and
lines, the greedy players, the random player and the threat-search attacker are all defined
here. The game's own levels also play X (classic, hard, expert, perfect), each in its own
engine. Every game O loses gets a post-mortem from this file's threat search: the first O
move after which X had a forced win by threats. The table goes to stdout (Markdown), one
line per finished game to stderr.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from itertools import product
from typing import Protocol

# --- Geometry: 64 cells, 76 lines ----------------------------------------------------------

SIZE = 4
COORDS: tuple[tuple[int, int, int], ...] = tuple(
    (level, column, row) for level, column, row in product(range(SIZE), repeat=3)
)
CELL_OF: dict[tuple[int, int, int], int] = {coords: cell for cell, coords in enumerate(COORDS)}
ALL_CELLS = range(len(COORDS))


def cell_name(cell: int) -> str:
    """The game's notation for `cell`: level, column, row, each 1..4 (e.g. '234')."""
    return "".join(str(c + 1) for c in COORDS[cell])


def parse_name(text: str) -> int:
    """The cell that three digits (level, column, row) name."""
    level, column, row = (int(d) - 1 for d in text)
    return CELL_OF[(level, column, row)]


def _directions() -> list[tuple[int, int, int]]:
    """The 13 directions of a line: nonzero vectors in {-1,0,1}^3, first nonzero part > 0."""
    result = []
    for vector in product((-1, 0, 1), repeat=3):
        nonzero = [v for v in vector if v]
        if nonzero and nonzero[0] > 0:
            result.append((vector[0], vector[1], vector[2]))
    return result


def _lines() -> tuple[tuple[int, ...], ...]:
    """Every line of four: a start cell and a direction that stay on the cube for 4 cells."""
    found = []
    for start in COORDS:
        for d in _directions():
            points = [tuple(start[i] + k * d[i] for i in range(3)) for k in range(SIZE)]
            if all(0 <= p < SIZE for point in points for p in point):
                found.append(tuple(CELL_OF[(p[0], p[1], p[2])] for p in points))
    return tuple(found)


LINES: tuple[tuple[int, ...], ...] = _lines()
LINE_MASKS: tuple[int, ...] = tuple(sum(1 << c for c in line) for line in LINES)
LINES_THROUGH: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i, line in enumerate(LINES) if cell in line) for cell in ALL_CELLS
)
FULL = (1 << len(COORDS)) - 1


def bit(cell: int) -> int:
    """The bitboard with only `cell` set."""
    return 1 << cell


def cells_of(mask: int) -> list[int]:
    """The cells set in bitboard `mask`, lowest first."""
    return [c for c in ALL_CELLS if mask >> c & 1]


def wins(mine: int, cell: int) -> bool:
    """Whether `mine` (a bitboard holding `cell`) has a full line through `cell`."""
    return any(LINE_MASKS[i] & mine == LINE_MASKS[i] for i in LINES_THROUGH[cell])


def threes(mine: int, theirs: int) -> set[int]:
    """The empty cells that complete a line for `mine` (three of its stones, none of theirs)."""
    empty = FULL & ~(mine | theirs)
    result = set()
    for mask in LINE_MASKS:
        if not mask & theirs and (mask & mine).bit_count() == 3 and mask & empty:
            result.add((mask & empty).bit_length() - 1)
    return result


def threats_made(mine: int, theirs: int, cell: int) -> set[int]:
    """The cells where `mine` would complete a line after playing the empty `cell`."""
    after = mine | bit(cell)
    empty = FULL & ~(after | theirs)
    result = set()
    for i in LINES_THROUGH[cell]:
        mask = LINE_MASKS[i]
        if not mask & theirs and (mask & after).bit_count() == 3 and mask & empty:
            result.add((mask & empty).bit_length() - 1)
    return result


@dataclass
class Position:
    """A game in progress: the moves so far and each side's stones as bitboards."""

    moves: list[int] = field(default_factory=list)
    x: int = 0
    o: int = 0

    @property
    def x_to_move(self) -> bool:
        """Whether X moves next (X moves first)."""
        return len(self.moves) % 2 == 0

    def empty(self) -> list[int]:
        """The empty cells, lowest first."""
        return cells_of(FULL & ~(self.x | self.o))

    def push(self, cell: int) -> bool:
        """Play `cell` for the side to move; whether it completes a line."""
        if (self.x | self.o) >> cell & 1:
            raise ValueError(f"{cell_name(cell)} is taken")
        if self.x_to_move:
            self.x |= bit(cell)
            won = wins(self.x, cell)
        else:
            self.o |= bit(cell)
            won = wins(self.o, cell)
        self.moves.append(cell)
        return won

    def copy(self) -> Position:
        """An independent copy."""
        return Position(list(self.moves), self.x, self.o)


def position_of(moves: Sequence[int]) -> Position:
    """The position after `moves` from the empty cube."""
    position = Position()
    for cell in moves:
        position.push(cell)
    return position


# --- The threat search ---------------------------------------------------------------------

MAX_DEPTH = 16  # X moves in a chain


@dataclass
class ThreatSearch:
    """Forced wins by threats for the side `mine` against `theirs`: every move of `mine` makes
    a three, the other side's reply is the forced block, until `mine` makes two threes at once
    (or completes a line). Their threes made while blocking must be blocked in turn, by a move
    that threatens again. Bounded by `budget` moves tried."""

    budget: int = 20_000
    max_depth: int = MAX_DEPTH
    nodes: int = 0
    _failed: dict[tuple[int, int], int] = field(default_factory=dict)

    def find(self, mine: int, theirs: int) -> list[int] | None:
        """The chain (own move, forced reply, own move, ..., winning move) for `mine` to move,
        or None when none is found within the budget and depth."""
        self.nodes = 0
        self._failed = {}
        own = threes(mine, theirs)
        if own:
            return [min(own)]
        return self._search(mine, theirs, threes(theirs, mine), self.max_depth)

    def _search(
        self, mine: int, theirs: int, their_threes: set[int], depth: int
    ) -> list[int] | None:
        if depth == 0 or self.nodes >= self.budget or len(their_threes) > 1:
            return None
        if self._failed.get((mine, theirs), -1) >= depth:
            return None
        for cell, made in self._candidates(mine, theirs, their_threes):
            self.nodes += 1
            if len(made) >= 2:
                return [cell]
            (reply,) = made
            after_mine, after_theirs = mine | bit(cell), theirs | bit(reply)
            rest = self._search(
                after_mine, after_theirs, threats_made(after_theirs, after_mine, reply), depth - 1
            )
            if rest is not None:
                return [cell, reply, *rest]
            if self.nodes >= self.budget:
                return None
        self._failed[(mine, theirs)] = depth
        return None

    def _candidates(
        self, mine: int, theirs: int, their_threes: set[int]
    ) -> list[tuple[int, set[int]]]:
        """Moves that make at least one three (only the block, when they have a three), with
        the cells they threaten; double threats first, then the most lines of two."""
        if their_threes:
            cells = set(their_threes)
        else:
            empty = FULL & ~(mine | theirs)
            cells = set()
            for mask in LINE_MASKS:
                if not mask & theirs and (mask & mine).bit_count() == 2:
                    cells.update(cells_of(mask & empty))
        found = [(cell, threats_made(mine, theirs, cell)) for cell in sorted(cells)]
        found = [(cell, made) for cell, made in found if made]
        return sorted(found, key=lambda item: (-len(item[1]), -_twos(mine, theirs, item[0])))


def _twos(mine: int, theirs: int, cell: int) -> int:
    """Lines through `cell` open to `mine` holding two of its stones."""
    return sum(
        1
        for i in LINES_THROUGH[cell]
        if not LINE_MASKS[i] & theirs and (LINE_MASKS[i] & mine).bit_count() == 2
    )


def chain_text(moves: Sequence[int], chain: Sequence[int]) -> str:
    """X's chain after `moves` as text: '223 (O 213) 114 (O 332) 124 (two threats)'."""
    position = position_of(moves)
    parts, won = [], False
    for index, cell in enumerate(chain):
        parts.append(cell_name(cell) if index % 2 == 0 else f"(O {cell_name(cell)})")
        won = position.push(cell)
    return " ".join(parts) + (" (wins)" if won else " (two threats)")


# --- The X players -------------------------------------------------------------------------


class XPlayer(Protocol):
    """A player of X: the cell to play in `position` (X to move)."""

    name: str

    def choose(self, position: Position) -> int: ...

    def close(self) -> None: ...


def win_or_block(position: Position) -> int | None:
    """X's winning cell, else the cell blocking O's three (the lowest, when several)."""
    own = threes(position.x, position.o)
    if own:
        return min(own)
    theirs = threes(position.o, position.x)
    return min(theirs) if theirs else None


Weighting = Callable[[int, int], float]
"""A line's value to a greedy player from the X and O stones on it (before X's move)."""


def open_to_x(xs: int, os: int) -> float:
    """A line still open to X counts one."""
    return 1.0 if os == 0 else 0.0


def weighted_x(xs: int, os: int) -> float:
    """A line open to X counts 3 to the power of its X stones."""
    return 3.0**xs if os == 0 else 0.0


def defend_o(xs: int, os: int) -> float:
    """A line still open to O counts one more than its O stones (taking it spoils it)."""
    return 1.0 + os if xs == 0 else 0.0


def mixed(xs: int, os: int) -> float:
    """Attack and defence: 3**X stones on lines open to X plus 3**O stones on lines open
    to O, defence counted at two thirds."""
    return weighted_x(xs, os) + (2 / 3 * 3.0**os if xs == 0 else 0.0)


WEIGHTINGS: dict[str, Weighting] = {
    "greedy-open": open_to_x,
    "greedy-weighted": weighted_x,
    "greedy-defend": defend_o,
    "greedy-mixed": mixed,
}


class GreedyPlayer:
    """The player guide's one-move player: win, else block, else the empty cell whose lines
    score most under `weighting`, ties broken at random."""

    def __init__(self, name: str, weighting: Weighting, seed: int) -> None:
        self.name = name
        self.weighting = weighting
        self.random = random.Random(seed)

    def choose(self, position: Position) -> int:
        """The cell to play."""
        forced = win_or_block(position)
        if forced is not None:
            return forced
        scores = {cell: self.score(position, cell) for cell in position.empty()}
        best = max(scores.values())
        return self.random.choice([cell for cell, score in scores.items() if score == best])

    def score(self, position: Position, cell: int) -> float:
        """The sum of the weighting over the lines through `cell`."""
        return sum(
            self.weighting(
                (LINE_MASKS[i] & position.x).bit_count(), (LINE_MASKS[i] & position.o).bit_count()
            )
            for i in LINES_THROUGH[cell]
        )

    def close(self) -> None:
        """Nothing to release."""


class RandomPlayer:
    """Wins when it can, blocks O's three, else any empty cell at random."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def choose(self, position: Position) -> int:
        """The cell to play."""
        forced = win_or_block(position)
        return forced if forced is not None else self.random.choice(position.empty())

    def close(self) -> None:
        """Nothing to release."""


class ThreatPlayer:
    """A pure attacker: win, else block, else its forced win by threats (within the search's
    budget), else a random empty cell. It knows nothing else."""

    name = "threats"

    def __init__(self, seed: int, budget: int = 20_000) -> None:
        self.random = random.Random(seed)
        self.search = ThreatSearch(budget)

    def choose(self, position: Position) -> int:
        """The cell to play."""
        forced = win_or_block(position)
        if forced is not None:
            return forced
        chain = self.search.find(position.x, position.o)
        if chain is not None:
            return chain[0]
        return self.random.choice(position.empty())

    def close(self) -> None:
        """Nothing to release."""


# --- The engine protocol -------------------------------------------------------------------

ENGINE = [sys.executable, "-m", "qubic", "engine"]


class EngineError(RuntimeError):
    """The engine answered something other than what the protocol promises."""


class Engine:
    """One `qubic engine` subprocess, seeded."""

    def __init__(self, seed: int) -> None:
        self.process = subprocess.Popen(
            [*ENGINE, "--seed", str(seed)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        if self.ask("isready") != "readyok":
            raise EngineError("the engine did not answer isready")

    def send(self, line: str) -> None:
        """Send one command line."""
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def read(self) -> str:
        """The next answer line."""
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise EngineError("the engine closed its output")
        return line.strip()

    def ask(self, line: str) -> str:
        """Send a command and read its one answer line."""
        self.send(line)
        return self.read()

    def go(self, moves: Sequence[int], level: str) -> tuple[int, float]:
        """The level's move after `moves`, and the seconds from `go` to `bestmove`."""
        self.send(" ".join(["position startpos moves", *map(cell_name, moves)]).rstrip())
        start = time.perf_counter()
        answer = self.ask(f"go level {level}")
        took = time.perf_counter() - start
        words = answer.split()
        if len(words) != 2 or words[0] != "bestmove":
            raise EngineError(f"go level {level}: {answer!r}")
        return parse_name(words[1]), took

    def close(self) -> None:
        """Quit the engine and wait for it."""
        if self.process.poll() is None:
            try:
                self.send("quit")
                self.process.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()


class LevelPlayer:
    """One of the game's levels as X, in its own engine."""

    def __init__(self, level: str, seed: int) -> None:
        self.name = level
        self.engine = Engine(seed)

    def choose(self, position: Position) -> int:
        """The engine's move."""
        return self.engine.go(position.moves, self.name)[0]

    def close(self) -> None:
        """Quit the engine."""
        self.engine.close()


LEVEL_OPPONENTS = ("classic", "hard", "expert", "perfect")
OPPONENTS = (*WEIGHTINGS, "random", "threats", *LEVEL_OPPONENTS)
O_LEVELS = ("perfect", "expert")


def make_x(name: str, seed: int) -> XPlayer:
    """The X player called `name`, seeded."""
    if name in WEIGHTINGS:
        return GreedyPlayer(name, WEIGHTINGS[name], seed)
    if name == "random":
        return RandomPlayer(seed)
    if name == "threats":
        return ThreatPlayer(seed)
    if name in LEVEL_OPPONENTS:
        return LevelPlayer(name, seed)
    raise ValueError(f"unknown opponent {name!r}")


# --- Games ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Task:
    """One game to play: O's level, X's name, the game's number in its pairing and seed."""

    o_level: str
    opponent: str
    number: int
    seed: int
    postmortem_budget: int


@dataclass
class Result:
    """One game's outcome: the winner ('X', 'O' or None), the moves, O's move times."""

    task: Task
    winner: str | None
    moves: list[int]
    o_times: list[float]
    postmortem: str = ""


def play(task: Task) -> Result:
    """Play one game: X the opponent, O the level through its own engine."""
    x = make_x(task.opponent, task.seed)
    o = Engine(task.seed)
    position, times, winner = Position(), [], None
    try:
        while len(position.moves) < len(COORDS):
            if position.x_to_move:
                cell = x.choose(position.copy())
            else:
                cell, took = o.go(position.moves, task.o_level)
                times.append(took)
            if position.push(cell):
                winner = "O" if position.x_to_move else "X"
                break
    finally:
        x.close()
        o.close()
    result = Result(task, winner, position.moves, times)
    if winner == "X":
        result.postmortem = postmortem(position.moves, task.postmortem_budget)
    return result


# --- Post-mortem ---------------------------------------------------------------------------


def forced_win(moves: Sequence[int], budget: int) -> list[int] | None:
    """X's forced win by threats after `moves` (X to move), if the search finds one. A three
    of O's must be blocked first, by a move that makes a three of X's: a block that makes
    none hands O the move, and X's threats wait."""
    position = position_of(moves)
    assert position.x_to_move
    return ThreatSearch(budget).find(position.x, position.o)


def postmortem(moves: Sequence[int], budget: int) -> str:
    """The first O move after which X had a forced win by threats, and what led to it."""
    names = [cell_name(c) for c in moves]
    for ply in range(2, len(moves), 2):  # O's moves: plies 2, 4, ... (1-based)
        chain = forced_win(moves[:ply], budget)
        if chain is None:
            continue
        lines, win = [], chain_text(moves[:ply], chain)
        safe = ply - 2
        if safe >= 2:
            lines.append(
                f"O's last safe move was ply {safe} ({names[safe - 1]}); after O's move "
                f"{names[ply - 1]} at ply {ply}, X had the forced win {win}"
            )
        else:
            lines.append(
                f"after O's first move {names[ply - 1]} at ply {ply}, X had the forced win {win}"
            )
        lines.append(f"moves to ply {ply}: {' '.join(names[:ply])}")
        x_move = moves[ply - 2]
        before = position_of(moves[: ply - 2])
        if not threats_made(before.x, before.o, x_move):
            lines.append(
                f"X's move before it, {names[ply - 2]} at ply {ply - 1}, was quiet "
                f"(no three): the forced win appeared after an X quiet move"
            )
        lines.append(_alternatives(moves[: ply - 1], budget))
        return "\n".join("  " + line for line in lines)
    return (
        "  no forced win by threats for X found after any O move "
        f"(budget {budget} positions a search)"
    )


def _alternatives(moves: Sequence[int], budget: int) -> str:
    """Which O moves at this point (O to move after `moves`) left X no forced win by threats,
    and which O threes only put it off: after the three and the forced exchange it starts
    (each three answered by its block), X would still have one were it to move."""
    position = position_of(moves)
    ply = len(moves) + 1
    safe, delays = [], []
    for cell in position.empty():
        if not threats_made(position.o, position.x, cell):
            if forced_win([*moves, cell], budget // 4) is None:
                safe.append(cell)
            continue
        after = exchange(position.x, position.o, cell)
        if after is not None and ThreatSearch(budget // 4).find(*after) is None:
            safe.append(cell)
        elif after is not None:
            delays.append(cell)
    put_off = f"; {len(delays)} O threes only put it off: {names_of(delays)}" if delays else ""
    if not safe:
        return (
            f"no O move at ply {ply} left X without a forced win by threats "
            f"(searched {budget // 4} positions each{put_off}): X's {cell_name(moves[-1])} at "
            f"ply {ply - 1} had already decided the game, so O's mistake was at ply {ply - 2} "
            "or earlier"
        )
    return (
        f"{len(safe)} O moves at ply {ply} left X no forced win by threats "
        f"(searched {budget // 4} positions each): {names_of(safe)}{put_off}"
    )


def exchange(x: int, o: int, cell: int) -> tuple[int, int] | None:
    """O plays `cell`, then each three is answered by its block: the stones after, `(x, o)`;
    None where the exchange ends in a win (two threes at once, or a three the blocker can
    complete a line of its own instead of answering)."""
    o_moves = True
    while True:
        mine, theirs = (o, x) if o_moves else (x, o)
        made = threats_made(mine, theirs, cell)
        if o_moves:
            o |= bit(cell)
        else:
            x |= bit(cell)
        if len(made) > 1 or (made and threes(theirs, mine | bit(cell))):
            return None
        if not made:
            return x, o
        cell = made.pop()
        o_moves = not o_moves


def names_of(cells: Sequence[int], shown: int = 12) -> str:
    """Up to `shown` cells by name, and an ellipsis for the rest."""
    return " ".join(cell_name(c) for c in cells[:shown]) + (" ..." if len(cells) > shown else "")


# --- The table -----------------------------------------------------------------------------


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A Markdown table."""
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def summary(results: Sequence[Result], o_levels: Sequence[str], opponents: Sequence[str]) -> str:
    """One row per (O level, X opponent): the games' outcomes, lengths and O's move times."""
    rows = []
    for o_level in o_levels:
        for opponent in opponents:
            games = [r for r in results if (r.task.o_level, r.task.opponent) == (o_level, opponent)]
            if not games:
                continue
            plies = [len(r.moves) for r in games]
            times = [t * 1000 for r in games for t in r.o_times]
            rows.append(
                [
                    o_level,
                    opponent,
                    len(games),
                    sum(r.winner == "O" for r in games),
                    sum(r.winner == "X" for r in games),
                    sum(r.winner is None for r in games),
                    f"{statistics.median(plies):g}",
                    min(plies),
                    f"{statistics.median(times):.1f}" if times else "-",
                    f"{max(times):.1f}" if times else "-",
                ]
            )
    return table(
        [
            "O",
            "X",
            "games",
            "O wins",
            "O losses",
            "draws",
            "median plies",
            "min plies",
            "O median ms",
            "O max ms",
        ],
        rows,
    )


def outcome(result: Result) -> str:
    """'O wins in 27 plies', 'X wins in 31 plies' or 'draw'."""
    if result.winner is None:
        return "draw"
    return f"{result.winner} wins in {len(result.moves)} plies"


def run(tasks: Sequence[Task], workers: int) -> Iterator[Result]:
    """Each task's result as games finish, in up to `workers` processes."""
    if workers <= 1:
        for task in tasks:
            yield play(task)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(play, task) for task in tasks]
        for future in as_completed(futures):
            yield future.result()


def arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line's options."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games a pairing (default 20)")
    parser.add_argument(
        "--seed", type=int, default=1, help="game N of a pairing has seed SEED+N-1 (default 1)"
    )
    parser.add_argument(
        "--opponents",
        nargs="+",
        choices=OPPONENTS,
        default=list(OPPONENTS),
        metavar="NAME",
        help=f"X players (default all: {' '.join(OPPONENTS)})",
    )
    parser.add_argument(
        "--o",
        nargs="+",
        choices=O_LEVELS,
        default=list(O_LEVELS),
        metavar="LEVEL",
        help="O's levels (default: perfect expert)",
    )
    parser.add_argument("--workers", type=int, default=1, help="games at once (default 1)")
    parser.add_argument(
        "--record",
        metavar="FILE",
        help="append every game as 'O-level opponent seed winner: moves' (winner X, O or -); "
        "python -m qubic.proof opening --games FILE answers the positions they reach",
    )
    parser.add_argument(
        "--postmortem-budget",
        type=int,
        default=20_000,
        metavar="N",
        help="positions per threat search in a post-mortem (default 20000)",
    )
    return parser.parse_args(argv)


def play_all(tasks: Sequence[Task], workers: int, record: str | None) -> list[Result]:
    """Every task's game, in the tasks' order; each game's line goes to stderr as it ends,
    and to the `record` file if given."""
    results = []
    for result in run(tasks, workers):
        task = result.task
        print(
            f"{task.o_level} vs {task.opponent} #{task.number} (seed {task.seed}): "
            f"{outcome(result)}",
            file=sys.stderr,
            flush=True,
        )
        results.append(result)
        if record:
            with open(record, "a") as file:
                file.write(
                    f"{task.o_level} {task.opponent} {task.seed} {result.winner or '-'}: "
                    f"{' '.join(map(cell_name, result.moves))}\n"
                )
    order = {(t.o_level, t.opponent, t.number): i for i, t in enumerate(tasks)}
    results.sort(key=lambda r: order[(r.task.o_level, r.task.opponent, r.task.number)])
    return results


def print_postmortems(results: Sequence[Result], budget: int) -> None:
    """The post-mortem of every game O lost, if any."""
    lost = [r for r in results if r.winner == "X"]
    if not lost:
        return
    print(
        f"\nPost-mortems (this file's threat search: up to {MAX_DEPTH} X moves, "
        f"{budget} positions a search; plies counted from 1):"
    )
    for r in lost:
        print(
            f"\n{r.task.o_level} vs {r.task.opponent} #{r.task.number} "
            f"(seed {r.task.seed}), X won at ply {len(r.moves)}:"
        )
        print(r.postmortem)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the gauntlet and print the table."""
    args = arguments(argv)
    tasks = [
        Task(o_level, opponent, n, args.seed + n - 1, args.postmortem_budget)
        for o_level in args.o
        for opponent in args.opponents
        for n in range(1, args.games + 1)
    ]
    results = play_all(tasks, args.workers, args.record)
    print(summary(results, args.o, args.opponents))
    print_postmortems(results, args.postmortem_budget)
    return 0


if __name__ == "__main__":
    sys.exit(main())
