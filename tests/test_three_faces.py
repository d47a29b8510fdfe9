"""One truth, three faces: 1,000 random games stepped at once through the OpenSpiel game, the
PettingZoo environment and the `qubic engine` process, which must agree on every move and
every end, and with a plain recount of the lines on the winner and the score.

At every turn the OpenSpiel game's legal actions must be the PettingZoo action mask's, and
the side to move the same. The engine (one process for the whole test) cannot list legal
moves, so it is probed: at every turn a random legal cell must be accepted after the moves
so far, or one illegal cell (used, or the disabled centre) refused; at one random turn a game
its `go` must answer a legal move; at the end the whole game must be accepted, and any
further move refused because the game is over. Skipped without the extras."""

from __future__ import annotations

import random
import subprocess
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")
pytestmark = pytest.mark.slow

from qubic.core.geometry import Geometry, geometry  # noqa: E402
from qubic.core.notation import format_cell  # noqa: E402
from qubic.integrations import openspiel  # noqa: E402, F401 - registers python_qubic
from qubic.integrations.pettingzoo import env  # noqa: E402
from tests.conftest import program_env, qubic_command  # noqa: E402

GAMES = 1000
SEED = 38
# The variants the games cycle through, as the OpenSpiel game's parameters.
SETTINGS: list[dict[str, Any]] = [
    {"size": 4, "dims": 3, "sides": 2, "target": 1, "no_centre": False},  # QUBIC
    {"size": 4, "dims": 3, "sides": 3, "target": 1, "no_centre": False},
    {"size": 4, "dims": 3, "sides": 4, "target": 1, "no_centre": False},
    {"size": 4, "dims": 3, "sides": 2, "target": 3, "no_centre": False},
    {"size": 3, "dims": 3, "sides": 2, "target": 10, "no_centre": False},  # cube3
    {"size": 3, "dims": 3, "sides": 2, "target": 1, "no_centre": False},
    {"size": 3, "dims": 4, "sides": 2, "target": 9, "no_centre": True},  # the tesseract
    {"size": 3, "dims": 4, "sides": 3, "target": 9, "no_centre": True},
    {"size": 3, "dims": 4, "sides": 4, "target": 9, "no_centre": True},
    {"size": 3, "dims": 2, "sides": 2, "target": 1, "no_centre": False},  # tic-tac-toe
]


class Engine:
    """`qubic engine`, one process for every game. Each command is sent followed by
    `isready`, so its answer (nothing, or one line) ends at `readyok`. A game's commands are
    sent at once and read back later, so the engine works while the next game is played."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [qubic_command(), "engine", "--seed", "1"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=program_env(),
        )

    def send(self, commands: list[str]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write("".join(f"{command}\nisready\n" for command in commands))
        self.process.stdin.flush()

    def receive(self, count: int) -> list[str]:
        """The answers ('' for none) to the next `count` commands sent."""
        assert self.process.stdout is not None
        answers = []
        for _ in range(count):
            lines = []
            while (line := self.process.stdout.readline().rstrip("\n")) != "readyok":
                assert line, "the engine stopped"
                lines.append(line)
            answers.append(" ".join(lines))
        return answers

    def quit(self) -> int:
        assert self.process.stdin is not None
        self.process.stdin.write("quit\n")
        self.process.stdin.close()
        return self.process.wait(timeout=10)


@pytest.fixture(scope="module")
def engine() -> Iterator[Engine]:
    process = Engine()
    yield process
    assert process.quit() == 0


def spec(settings: dict[str, Any]) -> str:
    words = [f"{key} {settings[key]}" for key in ("size", "dims", "target", "sides")]
    return " ".join(["variant qubic", *words, *(["no-centre"] if settings["no_centre"] else [])])


def position(moves: list[str]) -> str:
    return " ".join(["position startpos moves", *moves])


def recount(shape: Geometry, moves: list[int], sides: int) -> list[int]:
    """Each side's completed lines, counted plainly from the moves (side = move % sides)."""
    held: list[set[int]] = [set() for _ in range(sides)]
    for number, cell in enumerate(moves):
        held[number % sides].add(cell)
    return [sum(set(line.cells) <= cells for line in shape.lines) for cells in held]


def expected_returns(shape: Geometry, moves: list[int], settings: dict[str, Any]) -> list[float]:
    """The returns by the rules, from the recount: the side that reached the target (it must
    have made the last move), else on a full board the single top score; else a draw."""
    sides = settings["sides"]
    scores = recount(shape, moves, sides)
    reached = [side for side, score in enumerate(scores) if score >= settings["target"]]
    if reached:
        assert reached == [(len(moves) - 1) % sides], "only the last mover can reach it"
        winner = reached[0]
    else:
        assert len(moves) == shape.full_mask.bit_count(), "a game ends at the target or full"
        top = max(scores)
        leaders = [side for side, score in enumerate(scores) if score == top]
        if len(leaders) > 1:
            return [0.0] * sides
        winner = leaders[0]
    return [1.0 if side == winner else -1.0 for side in range(sides)]


Check = tuple[str, Callable[[str], bool]]  # a command for the engine, and its answer's test


def one_of(choices: set[str], answer: str) -> bool:
    """Whether the engine's `bestmove` is one of `choices`."""
    return answer.split()[1] in choices


def none(answer: str) -> bool:
    return answer == ""


def refused(answer: str) -> bool:
    return answer.startswith("error ")


def play(
    number: int, rng: random.Random, faces: tuple[Any, Any]
) -> tuple[list[float], list[Check]]:
    """One random game through the OpenSpiel game and the PettingZoo environment, checked
    at every turn and at the end: its returns, and what the engine must answer about it."""
    settings = SETTINGS[number % len(SETTINGS)]
    game, zoo = faces
    shape = geometry(settings["size"], settings["dims"], settings["no_centre"])
    state = game.new_initial_state()
    zoo.reset(seed=number)
    moves: list[int] = []
    played: list[str] = []  # the moves in notation
    asked = rng.randrange(shape.full_mask.bit_count() // 2)  # the turn the engine's go is asked
    checks: list[Check] = [(spec(settings), none)]
    while not state.is_terminal():
        legal = state.legal_actions()
        observation, reward, termination, truncation, _ = zoo.last()
        assert not termination and not truncation and reward == 0
        assert zoo.agent_selection == f"player_{state.current_player()}"
        assert np.flatnonzero(observation["action_mask"]).tolist() == legal
        if len(moves) == asked:
            choices = {format_cell(cell, shape) for cell in legal}
            checks.append((position(played), none))
            checks.append(("go level easy", partial(one_of, choices)))
        open_cells = set(legal)
        used = [cell for cell in shape.cells if cell not in open_cells]  # or disabled
        if used and rng.random() < 0.5:
            checks.append((position([*played, format_cell(rng.choice(used), shape)]), refused))
        else:
            checks.append((position([*played, format_cell(rng.choice(legal), shape)]), none))
        action = rng.choice(legal)
        state.apply_action(action)
        zoo.step(action)
        moves.append(action)
        played.append(format_cell(action, shape))
    assert all(zoo.terminations.values())
    rewards = {}
    for agent in zoo.agent_iter():
        _, reward, termination, _, _ = zoo.last()
        assert termination
        rewards[agent] = reward
        zoo.step(None)
    returns = state.returns()
    assert [rewards[f"player_{side}"] for side in range(settings["sides"])] == returns
    assert returns == expected_returns(shape, moves, settings), (settings, played)
    empty = [cell for cell in shape.cells if cell not in moves and cell not in shape.disabled]
    after = format_cell(empty[0] if empty else moves[0], shape)
    return returns, [
        *checks,
        (position(played), none),
        (position([*played, after]), lambda answer: "the game is already over" in answer),
        ("go", lambda answer: answer == "error the game is over"),
    ]


def test_a_thousand_random_games_agree_on_every_face(engine: Engine) -> None:
    rng = random.Random(SEED)
    faces = [
        (pyspiel.load_game("python_qubic", settings), env("qubic", **settings))
        for settings in SETTINGS
    ]
    pending: list[Check] = []
    ends = {"won": 0, "drawn": 0}
    for number in range(GAMES + 1):
        checks: list[Check] = []
        if number < GAMES:
            returns, checks = play(number, rng, faces[number % len(SETTINGS)])
            ends["won" if 1.0 in returns else "drawn"] += 1
            engine.send([command for command, _ in checks])
        for (command, test), answer in zip(pending, engine.receive(len(pending))):
            assert test(answer), (command, answer)
        pending = checks
    assert ends["won"] > 0 and ends["drawn"] > 0, ends
