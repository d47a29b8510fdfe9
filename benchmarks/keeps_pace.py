"""An opponent that keeps pace: an outside player of fixed strength plays `--level auto`.

    nice .venv/bin/python benchmarks/keeps_pace.py                       # 30 games each
    nice .venv/bin/python benchmarks/keeps_pace.py --sittings 10         # ten sittings each
    nice .venv/bin/python benchmarks/keeps_pace.py --opponents threats --rating 850 --games 10

Each outside player (`ladder.py`'s, from `gauntlet.py`, sharing no code with the levels) sits
where a person sits: in a real `Session` with auto on and a throwaway record, answering
DO YOU WANT TO MOVE FIRST? (yes and no in turn) and YOUR MOVE? with its moves. So the step
auto chooses before each game, the rating each game moves and where it is kept are the game's
own code. The table gives each player's rating and deviation after every 5 games, against its
benchmark rating (`ladder.py`'s OUTSIDE, or `--rating`); the target is within ±100 after 30
games. One process per player (`--jobs`).
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from bench import table
from ladder import OUTSIDE, Outside

from qubic.core.notation import format_cell
from qubic.play.record import Rating, Store
from qubic.play.session import Session
from qubic.play.settings import Settings
from qubic.play.sitting import Stage

TARGET = 100  # the rating after all the games is within this of the benchmark's
EVERY = 5  # games between the table's columns
CHOSEN = re.compile(r"THE MACHINE PLAYS AT (\d+) \((\w+)\)\.")


def game(session: Session, player: Outside, first: bool) -> None:
    """One game, from DO YOU WANT TO MOVE FIRST? to its end."""
    said = session.answer("yes" if first else "no")
    while session.stage is Stage.MOVE:
        if session.machine_to_move:
            said += session.machine_move()
        else:
            cell = player.move(session.board.copy())
            said += session.answer(format_cell(cell, session.board.geometry))
    assert session.stage is Stage.PLAY_AGAIN, said


History = list[tuple[str, Rating]]  # per game: the step auto chose, the rating after it


def sitting(name: str, games: int, seed: int) -> History:
    """`games` games of the outside player `name` against auto, moving first in every other
    one: the step auto chose for each and the rating after it."""
    history = []
    with tempfile.TemporaryDirectory(prefix="keeps-pace-") as folder:
        session = Session(Settings(seed=seed))
        session.record = Path(folder) / "record.sqlite3"
        session.follow_rating()
        said = session.answer("no")  # no instructions: the first game's step is chosen
        for number in range(games):
            chosen = CHOSEN.search(" ".join(map(str, said)))
            assert chosen is not None, said
            game(session, Outside(name, seed + number), first=number % 2 == 0)
            with Store.open(session.record, create=False) as store:
                rating = store.rating()
            assert rating is not None, "a game of QUBIC against auto is rated"
            history.append((chosen.group(2).lower(), rating))
            said = session.answer("yes")
    return history


def report(name: str, benchmark: float, sittings: Sequence[History]) -> str:
    """Each sitting's rating after every EVERY games against the benchmark's, the steps auto
    played in the first, and how many sittings ended within TARGET."""
    marks = [n for n in range(EVERY, len(sittings[0]) + 1, EVERY)] or [len(sittings[0])]
    headers = ["player", "sitting", "benchmark", *(f"after {n}" for n in marks), "off by"]
    rows = []
    for number, history in enumerate(sittings, start=1):
        cells = [
            f"{history[n - 1][1].rating:.0f} ± {history[n - 1][1].deviation:.0f}" for n in marks
        ]
        off = history[-1][1].rating - benchmark
        rows.append([name, number, f"{benchmark:.0f}", *cells, f"{off:+.0f}"])
    within = sum(abs(history[-1][1].rating - benchmark) <= TARGET for history in sittings)
    offs = sorted(abs(history[-1][1].rating - benchmark) for history in sittings)
    steps = " ".join(step for step, _ in sittings[0])
    return (
        f"{table(headers, rows)}\n"
        f"{name}: within ±{TARGET} after {len(sittings[0])} games in {within} of "
        f"{len(sittings)} sittings; median off by {offs[len(offs) // 2]:.0f}\n"
        f"steps auto played in sitting 1, game by game: {steps}\n"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--opponents", nargs="+", choices=list(OUTSIDE), default=list(OUTSIDE))
    parser.add_argument(
        "--rating", type=float, help="the benchmark rating (one opponent; default: OUTSIDE's)"
    )
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1, help="the first sitting's seed")
    parser.add_argument(
        "--sittings", type=int, default=1, help="sittings per player, seeded in turn"
    )
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    if args.rating is not None and len(args.opponents) > 1:
        parser.error("--rating is one opponent's: name one with --opponents")
    seeds = range(args.seed, args.seed + args.sittings)
    with ProcessPoolExecutor(args.jobs) as pool:
        runs = {
            name: [pool.submit(sitting, name, args.games, 1000 * seed) for seed in seeds]
            for name in args.opponents
        }
        for name, sittings in runs.items():
            benchmark = args.rating if args.rating is not None else OUTSIDE[name]
            print(report(name, benchmark, [run.result() for run in sittings]))
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
