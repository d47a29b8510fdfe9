"""X's quiet moves chosen by the entries the book built below them needs, as choices lines.

    pip install -e '.[solver]'
    python research/subtree_choice.py "111 123 444 222" --out /tmp/sub --builds 2

At a position where the strategy needs a quiet move of X, each class of X's moves that leaves
O no forced win by threats is first ranked by an estimate two levels deep (`estimate`): over
O's replies, the entries the book built for Patashnik's rule would need at the position after
each, judged by the wins with setups it would play there. Then the best `--builds` are built
for real, each by `python -m qubic.proof all --start MOVES MOVE --leaf patashnik` in a folder
of its own under `--out`, and their counts (the move's entry and those below it) are appended
to `--out`'s `results.txt` as they arrive, so a run stopped part way resumes. `--also CELL`
builds a move besides the ranked ones (the book's own, to compare); `--choices FILE` hands
each build X's moves already chosen below it (`all --choices`), so choices can be made bottom
up; `--minutes M` ends a build that has not finished in M minutes (a move the prover cannot
show won would run on) and counts it as none. The smallest, as a line of
`qubic/proof/choices.txt`'s format, ends the output, after a line for each of X's moves at 4
stones or more on the way to it: given a line the strategy plays (`subtree_sizes.py` lists
them), those keep the moves that lead to the choice, which the solver would otherwise leave
to units of their own (docs/proof-log.md, "Choosing X's moves by the subtree built below
them").
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

from smallest_choice import leaf_search, quiet_replies, strategy_search, win_length

from qubic.core.board import Board, winning_mask
from qubic.core.geometry import CUBE
from qubic.core.notation import format_cell, parse_cell, parse_moves
from qubic.core.symmetry import orbits, stabilizer
from qubic.proof.book import fewest_setups, threats_alone_first
from qubic.search.threats import OutOfBudget, ThreatSearch, new_threats

UNKNOWN = 20  # the entries guessed below a position where the build would play the proof's move
BLOCKED = 3  # the entries guessed below a position where X must block O's three
ENTRIES = re.compile(r"entries the strategy needs \(patashnik leaf rule\): ([\d,]+)")


def entries_at(x: int, o: int, pure: ThreatSearch) -> int:
    """The entries guessed at and below `(x, o)`, X to move, in a book built for Patashnik's
    rule: none where X wins by threats alone, one where a single setup wins, else one and a
    setup for each reply the build's move leaves quiet, `UNKNOWN` where it has no move."""
    if winning_mask(x, o) or win_length(x, o, pure) is not None:
        return 0
    if winning_mask(o, x):
        return BLOCKED
    if fewest_setups(x, o, 1, True, pure=True) is not None:
        return 1
    cell = threats_alone_first(x, o, 2, True, 0)
    return UNKNOWN if cell is None else 1 + len(quiet_replies(x | 1 << cell, o, pure))


def estimate(x: int, o: int, cell: int, pure: ThreatSearch) -> int | None:
    """The entries guessed below X's `cell` at `(x, o)`: summed over O's replies (one per
    class), or, where `cell` makes a three, those at the block's position; None where that
    position has no move the build would find (a three that may not win at all)."""
    mine = x | 1 << cell
    three = new_threats(mine, o, cell)
    if three:
        entries = entries_at(mine, o | three, pure)
        return None if entries == UNKNOWN else entries
    empty = CUBE.full_mask & ~(mine | o)
    return sum(
        entries_at(mine, o | 1 << reply, pure) for reply in orbits(empty, stabilizer(CUBE, mine, o))
    )


def candidates(x: int, o: int) -> list[int]:
    """X's moves at `(x, o)`, one per class, that leave O no forced win by threats."""
    theirs = strategy_search()
    moves = []
    for cell in orbits(CUBE.full_mask & ~(x | o), stabilizer(CUBE, x, o)):
        try:
            if theirs.forced_win(o, x | 1 << cell, shortest=False) is None:
                moves.append(cell)
        except OutOfBudget:
            continue
    return moves


def build(
    moves: list[int], folder: Path, choices: Path | None = None, minutes: float | None = None
) -> int | None:
    """The entries `all --start MOVES --leaf patashnik` writes (with `choices`, if any), the
    entry before the last move included; None if it did not finish within `minutes` (a move
    the prover cannot show won runs on) or its verify failed."""
    line = [format_cell(cell) for cell in moves]
    command = [sys.executable, "-m", "qubic.proof", "all", "--start", *line]
    command += ["--dir", str(folder), "--leaf", "patashnik", "--workers", "1"]
    command += ["--choices", str(choices)] if choices else []
    path = folder.parent / f"{folder.name}.log"
    with path.open("w", encoding="utf-8") as log:
        run = subprocess.Popen(
            command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        try:
            run.wait(timeout=minutes * 60 if minutes else None)
        except subprocess.TimeoutExpired:
            return None
        finally:  # past its minutes, or this script stopped: the build and its workers
            if run.poll() is None:
                os.killpg(run.pid, signal.SIGTERM)
                run.wait()
    found = ENTRIES.findall(path.read_text(encoding="utf-8"))
    return int(found[-1].replace(",", "")) + 1 if found and run.returncode == 0 else None


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("moves", help="the position, X to move (quoted moves)")
    parser.add_argument("--out", type=Path, required=True, help="the folder for builds")
    parser.add_argument("--builds", type=int, default=2, help="best estimated moves built")
    parser.add_argument("--also", action="append", default=[], help="a move built besides")
    parser.add_argument("--choices", type=Path, help="X's moves chosen below, for the builds")
    parser.add_argument("--minutes", type=float, help="a build's limit (none: to the end)")
    args = parser.parse_args(argv)
    moves = parse_moves(args.moves)
    x, o = Board.from_moves(moves).bits
    args.out.mkdir(parents=True, exist_ok=True)
    results = args.out / "results.txt"
    done = {}
    if results.exists():
        for row in results.read_text(encoding="utf-8").splitlines():
            cell, guess, entries = row.split()
            done[cell] = (guess, entries)
    pure = leaf_search("patashnik")
    guesses = {cell: estimate(x, o, cell, pure) for cell in candidates(x, o)}
    ranked = sorted(guesses, key=lambda cell: (guesses[cell] is None, guesses[cell] or 0, cell))
    shown = (f"{format_cell(c)}:{'?' if guesses[c] is None else guesses[c]}" for c in ranked)
    print("estimates: " + " ".join(shown), flush=True)
    chosen = ranked[: args.builds] + [parse_cell(c) for c in args.also]
    for cell in chosen:
        name = format_cell(cell)
        if name not in done:
            entries = build([*moves, cell], args.out / name, args.choices, args.minutes)
            guess = guesses.get(cell, "-")
            done[name] = ("?" if guess is None else str(guess), str(entries))
            with results.open("a", encoding="utf-8") as file:
                file.write(f"{name} {done[name][0]} {done[name][1]}\n")
        print(f"{name}: estimate {done[name][0]}, entries {done[name][1]}", flush=True)
    built = [(int(e), c) for c, (_, e) in done.items() if e != "None"]
    if built:
        for end in range(5, len(moves), 2):  # X's moves at 4 stones and more, on the way
            line = " ".join(format_cell(cell) for cell in moves[:end])
            print(f"{line}  # on the way to the choice below", flush=True)
        print(f"{args.moves} {min(built)[1]}  # {min(built)[0]} entries built", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
