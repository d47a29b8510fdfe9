"""The other cubes: line counts, legal play, strength and speed, printed as Markdown tables.

    pip install -e . && python benchmarks/variants.py        # everything (a few minutes here)
    python benchmarks/variants.py --only lines legal --games 2

Sections: line counts against ((size+2)^dims - size^dims)/2; every level that plays a variant
plays only legal moves over random games with 2, 3 and 4 sides; on 3x3x3 with target 1 hard
moving first wins every game; a round robin in cube3 and tesseract, each pairing from every
seat; the time of a machine move in a four-sided tesseract. Everything is seeded.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from itertools import pairwise

from bench import table

from qubic.core.board import Board, Mark
from qubic.core.geometry import geometry
from qubic.core.variant import CUBE3, QUBIC, TESSERACT, Variant
from qubic.players.levels import LEVELS, make_player

SEED = 2026
RANKED = ["easy", "normal", "shrewd", "hard", "expert"]  # weakest first


def lines() -> str:
    rows = []
    for size, dims, no_centre in (
        (3, 2, False),
        (3, 3, False),
        (4, 3, False),
        (5, 3, False),
        (3, 4, False),
        (3, 4, True),
        (4, 4, False),
    ):
        found = len(geometry(size, dims, no_centre).lines)
        formula = ((size + 2) ** dims - size**dims) // 2
        rows.append([f"{size}^{dims}" + (" no centre" if no_centre else ""), formula, found])
    return "### Line counts\n\n" + table(["cube", "formula (all lines)", "lines"], rows)


def legal(games: int) -> str:
    """Every level that plays the variant, in every seat, against random players."""
    rows = []
    for base in (QUBIC.with_options(size=3), CUBE3, TESSERACT):
        for sides in (2, 3, 4):
            variant = base.with_options(sides=sides)
            for name, level in LEVELS.items():
                if not level.supports(variant) or name == "expert":
                    continue
                moves = 0
                for game in range(games):
                    rng = random.Random(SEED + game)
                    player = make_player(name, SEED + game)
                    seat = Mark(game % sides)
                    board = Board(variant)
                    while not board.is_over():
                        if board.turn is seat:
                            cell = player.choose(board.copy()).cell
                            assert board.is_legal(cell), (variant.spec, name, cell)
                            moves += 1
                        else:
                            cell = rng.choice(board.legal_moves())
                        board.push(cell)
                rows.append([variant.spec, name, games, moves, "all legal"])
    return (
        "### Legal play\n\nEach level in turn in every seat against random moves "
        "(expert is hard's search plus time: left out for speed).\n\n"
        + table(["variant", "level", "games", "its moves", "result"], rows)
    )


def sudden_death(games: int) -> str:
    variant = QUBIC.with_options(size=3)
    wins = 0
    for game in range(games):
        board = play(
            variant,
            [
                make_player("hard", SEED + game),
                make_player(("easy", "normal", "hard")[game % 3], SEED - game),
            ],
        )
        wins += board.winner is Mark.X
    return (
        "### 3x3x3, first line wins\n\nHard moving first against easy, normal and hard "
        "in turn.\n\n" + table(["games", "hard wins as X"], [[games, wins]])
    )


def play(variant: Variant, players: list) -> Board:
    board = Board(variant)
    while not board.is_over():
        board.push(players[board.turn].choose(board).cell)
    return board


def round_robin(games: int) -> str:
    """Each level against the one below, alone in one seat against the other level in every
    other seat, from every seat, with 2 sides; and with 3 in the tesseract."""
    rows = []
    for variant in (CUBE3, TESSERACT, TESSERACT.with_options(sides=3)):
        playing = [name for name in RANKED if LEVELS[name].supports(variant)]
        for weaker, stronger in pairwise(playing):
            for seat in range(variant.sides):
                result = [0, 0, 0]  # stronger wins, weaker wins, draws
                for game in range(games):
                    players = [
                        make_player(weaker, SEED + 100 * game + side)
                        for side in range(variant.sides)
                    ]
                    players[seat] = make_player(stronger, SEED + game)
                    outcome = play(variant, players).outcome()
                    assert outcome is not None
                    winner = outcome.winner
                    result[2 if winner is None else 0 if winner == seat else 1] += 1
                rows.append(
                    [variant.spec, f"{stronger} v {weaker}", Mark(seat).name, games, *result]
                )
    return (
        "### Round robin\n\nThe stronger level alone in one seat (X moves first), the "
        "weaker in every other seat.\n\n"
        + table(
            [
                "variant",
                "pairing",
                "stronger plays",
                "games",
                "stronger wins",
                "weaker wins",
                "draws",
            ],
            rows,
        )
    )


def move_time(games: int) -> str:
    variant = TESSERACT.with_options(sides=4)
    rows = []
    for name in ("normal", "shrewd"):
        times = []
        for game in range(games):
            players = [make_player(name, SEED + game + side) for side in range(4)]
            board = Board(variant)
            while not board.is_over():
                start = time.perf_counter()
                cell = players[board.turn].choose(board).cell
                times.append((time.perf_counter() - start) * 1000)
                board.push(cell)
        rows.append([name, len(times), f"{statistics.median(times):.1f}", f"{max(times):.1f}"])
    return (
        f"### Four-sided tesseract move time\n\nEvery move of {games} games, all four "
        "sides at the level.\n\n" + table(["level", "moves", "median ms", "max ms"], rows)
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games per row")
    choices = ["lines", "legal", "sudden", "robin", "time"]
    parser.add_argument("--only", nargs="+", default=choices, choices=choices)
    args = parser.parse_args()
    sections = {
        "lines": lines,
        "legal": lambda: legal(args.games),
        "sudden": lambda: sudden_death(3 * args.games),
        "robin": lambda: round_robin(args.games),
        "time": lambda: move_time(max(1, args.games // 2)),
    }
    for name in args.only:
        print(sections[name](), end="\n\n", flush=True)


if __name__ == "__main__":
    main()
