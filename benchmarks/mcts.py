"""OpenSpiel's own MCTS bot against each of our levels on QUBIC, from both seats.

    .venv/bin/pip install -e '.[openspiel]'
    .venv/bin/python benchmarks/mcts.py                          # 1,000 and 10,000 simulations
    .venv/bin/python benchmarks/mcts.py --simulations 1000 --games 4 --levels hard perfect

The measure of our levels by an agent none of us wrote: `open_spiel.python.algorithms.mcts`'s
MCTSBot (UCT, exploration constant 2, one random rollout per evaluation, solving proven
positions as OpenSpiel's examples do) plays the game `python_qubic` against `QubicBot(level)`,
the level's seat X (moving first) and then O, `--games` games a seat. Every game is seeded:
two runs play the same games. Progress goes to stderr; the Markdown table to stdout, each
row the level's results (won, drawn, lost) as X and as O, and the mean seconds per move of
each side. Pure Python: MCTS takes about a second a move here at 1,000 simulations, ten
times that at 10,000 (the whole default run, 2 games a seat, would take over an hour here).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass, field

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

from qubic.core.variant import QUBIC
from qubic.integrations.openspiel import QubicBot
from qubic.players.levels import LEVELS

SEED = 2026
UCT_C = 2.0
ROLLOUTS = 1


@dataclass
class Tally:
    """One level's games against one MCTS budget, from the level's side."""

    results: dict[str, list[int]] = field(
        default_factory=lambda: {"X": [0, 0, 0], "O": [0, 0, 0]}  # won, drawn, lost
    )
    mcts_seconds: list[float] = field(default_factory=list)
    level_seconds: list[float] = field(default_factory=list)
    moves: list[int] = field(default_factory=list)


def play(game: pyspiel.Game, bots: list[pyspiel.Bot], level_seat: int, tally: Tally) -> float:
    """One game; the level's return (+1, 0, -1), its moves and times added to `tally`."""
    state = game.new_initial_state()
    for bot in bots:
        bot.restart_at(state)
    while not state.is_terminal():
        player = state.current_player()
        start = time.perf_counter()
        action = bots[player].step(state)
        took = time.perf_counter() - start
        (tally.level_seconds if player == level_seat else tally.mcts_seconds).append(took)
        state.apply_action(action)
    tally.moves.append(len(state.history()))
    value = state.returns()[level_seat]
    seat = "XO"[level_seat]
    tally.results[seat][0 if value > 0 else 1 if value == 0 else 2] += 1
    return float(value)


def mcts_bot(game: pyspiel.Game, simulations: int, seed: int) -> pyspiel.Bot:
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=ROLLOUTS, random_state=rng)
    return mcts.MCTSBot(game, UCT_C, simulations, evaluator, random_state=rng, solve=True)


def measure(simulations: int, level: str, games: int) -> Tally:
    game = pyspiel.load_game("python_qubic")
    tally = Tally()
    for seat in (0, 1):
        for number in range(games):
            seed = SEED + 100 * number + seat
            ours = QubicBot(level, seed=seed)
            theirs = mcts_bot(game, simulations, seed)
            bots = [ours, theirs] if seat == 0 else [theirs, ours]
            value = play(game, bots, seat, tally)
            outcome = {1.0: "won", 0.0: "drew", -1.0: "lost"}[value]
            print(
                f"  MCTS {simulations}, {level} as {'XO'[seat]}, game {number + 1}: "
                f"{level} {outcome} in {tally.moves[-1]} moves",
                file=sys.stderr,
                flush=True,
            )
    return tally


def wdl(counts: list[int]) -> str:
    return " / ".join(str(count) for count in counts)


def mean(values: list[float]) -> str:
    return f"{statistics.fmean(values):.2f}" if values else "-"


def table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    playing = [name for name, level in LEVELS.items() if level.refusal(QUBIC) is None]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--simulations", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--games", type=int, default=2, help="games a seat (default 2)")
    parser.add_argument("--levels", nargs="+", choices=playing, default=playing)
    args = parser.parse_args(argv)
    rows = []
    for simulations in args.simulations:
        for level in args.levels:
            tally = measure(simulations, level, args.games)
            rows.append(
                [
                    f"{simulations:,}",
                    level,
                    wdl(tally.results["X"]),
                    wdl(tally.results["O"]),
                    f"{statistics.fmean(tally.moves):.0f}",
                    mean(tally.mcts_seconds),
                    mean(tally.level_seconds),
                ]
            )
    header = [
        "MCTS simulations",
        "our level",
        "level as X: won / drawn / lost",
        "level as O: won / drawn / lost",
        "moves a game (both sides)",
        "MCTS s a move",
        "level s a move",
    ]
    print(f"{args.games} games a seat, MCTS uct_c {UCT_C}, {ROLLOUTS} random rollout\n")
    print(table(header, rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
