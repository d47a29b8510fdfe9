"""Games at once, against the concurrency targets below, through the installed program,
printed as Markdown tables:

- rounds of 16 games finishing together: each program loads a game one move from a win and
  waits at YOUR MOVE?; once all are waiting, every one is sent its winning move at the same
  moment. The record (one store for every round) must count each game: 48 of 48.
- 8 games typing SAVE together, in one folder: 8 files, each holding its own game, however
  many of them share a second (the names claimed in the same second are shown).

    pip install -e . && python benchmarks/concurrency.py
    python benchmarks/concurrency.py --rounds 5 --games 32 --saves 16

Everything runs in a throwaway folder (HOME, XDG_DATA_HOME and the saves' folder).
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import subprocess
import tempfile
import time
from collections import Counter
from pathlib import Path

from bench import installed_qubic, table

from qubic.core.board import Board
from qubic.core.notation import format_cell, parse_cell
from qubic.play import savefile
from qubic.play.settings import Settings

WINNING_MOVE = "114"


def one_to_win() -> str:
    """An export line: X to move, and 114 wins."""
    moves = ["111", "441", "112", "442", "113", "443"]
    return savefile.export(Settings(seed=1), Board.from_moves([parse_cell(m) for m in moves]))


def environment(home: Path) -> dict[str, str]:
    env = dict(os.environ, HOME=str(home), XDG_DATA_HOME=str(home / "data"))
    env["XDG_CONFIG_HOME"] = str(home / "config")
    env.pop("NO_COLOR", None)
    return env


def wait_for(program: subprocess.Popen, text: bytes, times: int = 1) -> None:
    """Read the program's output until `text` has come `times` times."""
    assert program.stdout is not None
    seen = b""
    while seen.count(text) < times:
        byte = program.stdout.read(1)
        if not byte:
            raise SystemExit(f"the program ended early:\n{seen.decode(errors='replace')}")
        seen += byte


def recorded(home: Path) -> int:
    path = home / "data" / "qubic" / "record.sqlite3"
    if not path.exists():
        return 0
    with sqlite3.connect(path) as connection:
        count = connection.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    connection.close()
    return int(count)


def finishing_together(home: Path, games: int) -> tuple[int, float]:
    """Games released to finish at once: how many the program reported won, and the
    seconds from the release until the last one ended."""
    line = one_to_win()
    programs = [
        subprocess.Popen(
            [installed_qubic(), "--load", line],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env=environment(home),
        )
        for _ in range(games)
    ]
    try:
        for program in programs:
            wait_for(program, b"YOUR MOVE? ")
        released = time.perf_counter()
        for program in programs:
            assert program.stdin is not None
            program.stdin.write(f"{WINNING_MOVE}\nno\n".encode())
            program.stdin.flush()
        outputs = [program.communicate(timeout=300)[0] for program in programs]
        seconds = time.perf_counter() - released
    finally:
        for program in programs:
            if program.poll() is None:
                program.kill()
    won = sum(b"YOU WIN!" in output for output in outputs)
    return won, seconds


def saving_together(home: Path, folder: Path, saves: int) -> tuple[int, int, int, int]:
    """Games typing SAVE at once in `folder`: the saves reported, the files made, the files
    holding their own game, and the most names claimed within one second."""
    first_moves = [f"{level}{column}{row}" for level in "12" for column in "1234" for row in "1234"]
    first_moves = (first_moves * (saves // len(first_moves) + 1))[:saves]
    programs = [
        subprocess.Popen(
            [installed_qubic(), "--players", "2", "--seed", "1"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env=environment(home),
            cwd=folder,
        )
        for _ in range(saves)
    ]
    try:
        for program, move in zip(programs, first_moves):
            assert program.stdin is not None
            program.stdin.write(f"no\n{move}\n".encode())
            program.stdin.flush()
            wait_for(program, b"YOUR MOVE? ", 2)
        for program in programs:
            assert program.stdin is not None
            program.stdin.write(b"SAVE\n")
            program.stdin.flush()
        outputs = [program.communicate(timeout=60)[0] for program in programs]
    finally:
        for program in programs:
            if program.poll() is None:
                program.kill()
    said = sum(output.count(b"GAME SAVED TO ") for output in outputs)
    names = sorted(folder.glob("qubic-*.txt"))
    own = Counter(format_cell(savefile.load(str(path))[1].moves[0]) for path in names)
    holding = sum(min(count, first_moves.count(move)) for move, count in own.items())
    seconds = Counter(path.name[: len("qubic-2026-11-22-153007")] for path in names)
    return said, len(names), holding, max(seconds.values(), default=0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=16, help="games finishing together")
    parser.add_argument("--saves", type=int, default=8, help="games saving together")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="qubic-concurrency-") as directory:
        home = Path(directory)
        rows = []
        for number in range(1, args.rounds + 1):
            before = recorded(home)
            won, seconds = finishing_together(home, args.games)
            rows.append([number, args.games, won, recorded(home) - before, f"{seconds:.2f}"])
        total = recorded(home)
        rows.append(["all", args.games * args.rounds, sum(r[2] for r in rows), total, ""])
        print(f"## {args.games} games finishing together, {args.rounds} rounds\n")
        header = ["round", "games", "won (said)", "recorded", "seconds, release to last end"]
        print(table(header, rows))
        folder = home / "saves"
        folder.mkdir()
        said, made, holding, same_second = saving_together(home, folder, args.saves)
        print(f"\n## {args.saves} games typing SAVE together\n")
        print(
            table(
                ["saves", "said saved", "files", "each its own game", "most in one second"],
                [[args.saves, said, made, holding, same_second]],
            )
        )
        print(f"\nrecorded {total} of {args.games * args.rounds}; {made} files of {args.saves}")


if __name__ == "__main__":
    main()
