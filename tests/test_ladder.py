"""The rated ladder: its steps, through the engine protocol and the levels' API."""

from __future__ import annotations

import itertools
import random
import re
import subprocess

import pytest

from qubic.core.board import Board
from qubic.core.notation import format_cell, parse_cell
from qubic.core.variant import VARIANTS
from qubic.players.ladder import STEPS, nearest, parse_ratings, step_named
from qubic.players.levels import LEVELS
from tests.conftest import BEGINNERS, ROOT, program_env, qubic_command, run_piped
from tests.scripted import thinks

RESULT_FILE = ROOT / "qubic" / "players" / "ladder.txt"
CAREFUL = [step.name for step in STEPS if step.name not in BEGINNERS]


def engine_answers(commands: list[str], seed: int = 5) -> list[str]:
    """The answer lines of one `qubic engine --seed` run fed `commands` (a `go` answers one)."""
    done = subprocess.run(
        [qubic_command(), "engine", "--seed", str(seed)],
        input="\n".join([*commands, "quit"]) + "\n",
        capture_output=True,
        text=True,
        timeout=600,
        env=program_env(),
        check=True,
    )
    return done.stdout.splitlines()


def go(moves: list[int], level: str) -> str:
    return f"position startpos moves {' '.join(map(format_cell, moves))}\ngo level {level}"


def positions(wanted: str, count: int, seed: int = 53) -> list[Board]:
    """Positions of random play where the side to move can win at once ('win'), or where it
    cannot and the opponent has exactly one three ('block')."""
    rng = random.Random(seed)
    found: list[Board] = []
    while len(found) < count:
        board = Board()
        for _ in range(rng.randrange(5, 30)):
            board.push(rng.choice(board.legal_moves()))
            if board.is_over():
                break
            wins = board.winning_cells(board.turn)
            theirs = board.winning_cells(board.turn.other)
            if (wanted == "win" and wins) or (wanted == "block" and not wins and len(theirs) == 1):
                found.append(board.copy())
                break
    return found


WINS, BLOCKS = positions("win", 6), positions("block", 6)


def test_the_ladder_has_at_least_twelve_steps_weakest_first():
    assert len(STEPS) >= 12
    ratings = [step.rating for step in STEPS]
    assert ratings == sorted(ratings)
    assert {"easy", "normal", "shrewd", "classic", "hard", "expert", "perfect"} <= {
        step.name for step in STEPS
    }


def test_the_published_ratings_are_the_result_files():
    on_file = {rated.name: rated.rating for rated in parse_ratings(RESULT_FILE.read_text())}
    assert {step.name: step.rating for step in STEPS} == on_file
    for step in STEPS:
        assert LEVELS[step.name].make is step.make


def test_the_program_lists_every_step_with_the_result_files_rating():
    shown = run_piped("--help").stdout
    for rated in parse_ratings(RESULT_FILE.read_text()):
        assert re.search(rf"^\s+{rated.name}\s+{rated.rating}\b", shown, re.MULTILINE), rated


def test_the_docs_give_the_result_files_ratings():
    table = (ROOT / "docs" / "levels.md").read_text()
    for rated in parse_ratings(RESULT_FILE.read_text()):
        row = f"| {rated.name} | {rated.rating} | {rated.low} to {rated.high} |"
        assert row in table, row
    first, last = STEPS[0], STEPS[-1]
    readme = " ".join((ROOT / "README.md").read_text().split())
    told = f"{len(STEPS)} rated steps, from `{first.name}` ({first.rating}) to"
    assert told in readme and f"`{last.name}` ({last.rating})" in readme, told


def test_neighbouring_steps_are_at_most_150_apart():
    gaps = [(b.name, b.rating - a.rating) for a, b in itertools.pairwise(STEPS)]
    assert all(gap <= 150 for _, gap in gaps), gaps


def test_a_rating_picks_the_nearest_step_and_a_name_its_step():
    for step in STEPS:
        # Two steps may round to one rating: the one the result file lists first is chosen.
        tied = [other for other in STEPS if other.rating == step.rating]
        assert nearest(step.rating) is tied[0]
        assert step_named(step.name.upper()) is step
    assert nearest(-10_000) is STEPS[0] and nearest(10_000) is STEPS[-1]
    low, high = STEPS[3], STEPS[4]
    assert nearest(low.rating + (high.rating - low.rating) * 0.4) is low
    assert step_named("grandmaster") is None


def test_every_step_says_what_it_plays():
    cube3 = VARIANTS["cube3"]
    for step in STEPS:
        level = LEVELS[step.name]
        refusal = level.refusal(cube3)
        assert refusal is None or level.plays in refusal


@pytest.mark.slow
def test_steps_above_the_beginners_take_a_win_in_one_through_the_engine():
    answers = engine_answers([go(board.moves, name) for name in CAREFUL for board in WINS])
    moves = iter(answers)
    for name in CAREFUL:
        for board in WINS:
            cell = parse_cell(next(moves).removeprefix("bestmove "))
            assert cell in board.winning_cells(board.turn), (name, board.moves)


@pytest.mark.slow
def test_steps_above_the_beginners_block_an_open_three_through_the_engine():
    answers = engine_answers([go(board.moves, name) for name in CAREFUL for board in BLOCKS])
    moves = iter(answers)
    for name in CAREFUL:
        for board in BLOCKS:
            cell = parse_cell(next(moves).removeprefix("bestmove "))
            assert [cell] == board.winning_cells(board.turn.other), (name, board.moves)


KNOWERS = {"sage", "oracle"}  # expert moving second, the proof's strategy moving first


def replayed(name: str, quiet: list[Board]) -> list[Board]:
    """The positions a step replays (see the test below)."""
    if name in KNOWERS:
        return quiet[1:]
    return quiet[:1] if thinks(name) else quiet


@pytest.mark.slow
def test_a_step_replays_its_moves_for_the_same_seed():
    quiet = [Board.from_moves(map(parse_cell, m.split())) for m in ("111 444 114", "111 222")]
    # The thinkers (seconds a move) replay one position, O's; sage and oracle, which move
    # second as expert does, X's, where they follow the proof's strategy. The others both.
    asked = [(step.name, board) for step in STEPS for board in replayed(step.name, quiet)]
    names = [name for name, _ in asked]
    commands = [go(board.moves, name) for name, board in asked]
    first, again = engine_answers(commands, 8), engine_answers(commands, 8)
    assert first == again and len(first) == len(commands)
    # Another seed, asked of the steps that play loosely (not the thinkers, seconds a move).
    loose = [i for i, name in enumerate(names) if not thinks(name)]
    other = engine_answers([commands[i] for i in loose], 9)
    assert other != [first[i] for i in loose], "the seed chooses among a step's loose moves"
