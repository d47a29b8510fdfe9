"""Choosing the machine by rating: --level 1400, LEVEL 1400 and go elo 1400 pick the same
step; --level auto plays the step nearest the player's rating and follows it from game to
game. Through pipes, the engine and a pseudo-terminal, with a throwaway record."""

from __future__ import annotations

import re
import subprocess

import pytest

from qubic.core.board import Mark
from qubic.core.notation import format_cell
from qubic.players.ladder import STEPS, step_named
from tests.conftest import (
    expect_goodbye,
    expect_prompt,
    program_env,
    qubic_command,
    run_piped,
    spawn,
)
from tests.scripted import find_game, human_moves

SEED = 3
NEAREST = re.compile(r"LEVEL (-?\d+) IS THE NEAREST STEP: (\d+) \((\w+)\)\.")
CHOSEN = re.compile(r"THE MACHINE PLAYS AT (\d+) \((\w+)\)\.")
# Positions to ask the engine about, X to move and O to move, none with a win at once.
POSITIONS = [
    [],
    ["111"],
    ["111", "444", "222"],
    ["144", "233", "141", "441", "111", "133"],
    ["223", "332", "114", "441", "222", "333", "414"],
]


def closest(rating: float) -> str:
    """The step nearest `rating`, the weaker of two as near, worked out here from the
    ladder's published ratings."""
    gaps = sorted((abs(step.rating - rating), step.rating, step.name) for step in STEPS)
    return gaps[0][2]


def engine_moves(level_words: str) -> list[str]:
    """The engine's bestmove in each of POSITIONS for `go <level_words>`."""
    script = "".join(
        f"position startpos moves {' '.join(moves)}\ngo {level_words}\n" for moves in POSITIONS
    )
    result = subprocess.run(
        [qubic_command(), "engine", "--seed", str(SEED)],
        input=script,
        capture_output=True,
        text=True,
        env=program_env(),
        timeout=120,
        check=True,
    )
    answers = result.stdout.split("\n")[:-1]
    assert all(answer.startswith("bestmove ") for answer in answers), answers
    return answers


def said_nearest(output: str) -> tuple[int, str]:
    """The rating and step name of the line saying which step is nearest."""
    found = NEAREST.search(output)
    assert found is not None, output
    step = step_named(found.group(3))
    assert step is not None and step.rating == int(found.group(2))
    return int(found.group(1)), step.name


@pytest.mark.slow
@pytest.mark.parametrize("rating", [1400, 1075, 0, 1530])
def test_level_n_and_go_elo_n_pick_the_same_step(rating, tmp_path):
    data = str(tmp_path / "data")
    option = run_piped("--level", str(rating), stdin="no\nyes\nquit\n", XDG_DATA_HOME=data)
    command = run_piped(stdin=f"no\nyes\nLEVEL {rating}\nLEVEL\nquit\n", XDG_DATA_HOME=data)
    assert said_nearest(option.stdout) == (rating, closest(rating))
    assert said_nearest(command.stdout) == (rating, closest(rating))
    assert f"THE MACHINE PLAYS AT LEVEL {closest(rating).upper()}" in command.stdout
    by_elo = engine_moves(f"elo {rating}")
    assert by_elo == engine_moves(f"level {closest(rating)}")
    # The positions tell the step from a neighbour, which would have answered otherwise.
    index = [step.name for step in STEPS].index(closest(rating))
    neighbours = STEPS[max(0, index - 1) : index] + STEPS[index + 1 : index + 2]
    assert any(by_elo != engine_moves(f"level {step.name}") for step in neighbours)


def test_level_lists_the_steps_with_their_ratings():
    result = run_piped(stdin="no\nyes\nLEVEL\nquit\n")
    listed = re.search(r"THE STEPS: (.*?)\.", " ".join(result.stdout.split()))
    assert listed is not None, result.stdout
    pairs = [item.rsplit(" ", 1) for item in listed.group(1).split(", ")]
    assert [(name.lower(), int(rating)) for name, rating in pairs] == [
        (step.name, step.rating) for step in STEPS
    ]


def test_help_lists_the_steps_with_their_ratings():
    result = run_piped("--help")
    for step in STEPS:
        assert re.search(rf"^\s+{step.name}\s+{step.rating}\s", result.stdout, re.MULTILINE), step


@pytest.mark.parametrize(
    ("options", "complaint"),
    [
        (["--level", "auto", "--players", "2"], "--level auto follows your rating"),
        (["--level", "auto", "--variant", "cube3"], "--level auto follows your rating"),
        (["--level", "auto", "--no-record"], "--level auto follows your rating"),
        (["--level-o", "auto", "--players", "0"], "--level-o auto"),
        (["--level", "14oo"], "'14oo' is not a level"),
        (["engine", "--level", "auto"], "the engine takes a name or a rating"),
    ],
)
def test_auto_and_ratings_refused_where_they_mean_nothing(options, complaint):
    result = run_piped(*options)
    assert result.returncode == 2 and complaint in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_go_elo_refuses_what_is_not_a_rating():
    result = subprocess.run(
        [qubic_command(), "engine"],
        input="go elo high\ngo elo 99999\ngo elo 1400 level hard\nisready\n",
        capture_output=True,
        text=True,
        env=program_env(),
        timeout=60,
        check=True,
    )
    errors = result.stdout.splitlines()
    assert errors[0] == "error elo takes a whole number from -10000 to 10000, not 'high'"
    assert errors[1].startswith("error elo takes a whole number")
    assert errors[2] == "error go takes level NAME or elo RATING, not both"
    assert errors[3] == "readyok"


@pytest.mark.slow
def test_auto_names_its_step_and_follows_the_rating(tmp_path):
    """A new player meets the step nearest 1000; after a won game, the step nearest the new
    rating, named at the start of the game."""
    first = step_named(closest(1000))
    assert first is not None
    game = find_game(Mark.X, first.make(SEED))
    child = spawn("--level", "auto", "--seed", str(SEED), XDG_DATA_HOME=str(tmp_path / "data"))
    expect_prompt(child, r"DO YOU WANT INSTRUCTIONS\?")
    child.sendline("no")
    child.expect(CHOSEN)
    assert (child.match.group(2).lower(), int(child.match.group(1))) == (first.name, first.rating)
    expect_prompt(child, r"DO YOU WANT TO MOVE FIRST\?")
    child.sendline("yes")
    for cell in human_moves(game):
        expect_prompt(child, r"YOUR MOVE\?")
        child.sendline(format_cell(cell))
    child.expect(r"YOUR RATING: (\d+) ")
    rating = int(child.match.group(1))
    expect_prompt(child, r"DO YOU WANT TO PLAY ANOTHER GAME\?")
    child.sendline("yes")
    child.expect(CHOSEN)
    step = step_named(child.match.group(2))
    # The rating said is rounded: the step is the nearest to a rating within half a point.
    assert step is not None and step.name in {closest(rating - 0.5), closest(rating + 0.5)}
    assert step != first
    assert int(child.match.group(1)) == step.rating
    expect_prompt(child, r"DO YOU WANT TO MOVE FIRST\?")
    child.sendline("quit")
    expect_goodbye(child)


def test_the_config_files_auto_follows_the_rating_where_it_can(tmp_path):
    config = tmp_path / "config"
    (config / "qubic").mkdir(parents=True)
    (config / "qubic" / "config.toml").write_text('level = "auto"\n')
    homes = {"XDG_CONFIG_HOME": str(config), "XDG_DATA_HOME": str(tmp_path / "data")}
    result = run_piped(stdin="no\nyes\nLEVEL\nLEVEL HARD\nLEVEL\nquit\n", **homes)
    first = step_named(closest(1000))
    assert first is not None
    assert f"THE MACHINE PLAYS AT {first.rating} ({first.name.upper()})." in result.stdout
    assert "THE MACHINE PLAYS AT LEVEL AUTO: " in result.stdout
    # A level named turns auto off.
    named = result.stdout.index("THE LEVEL IS NOW HARD.")
    assert "THE MACHINE PLAYS AT LEVEL HARD." in result.stdout[named:]
    # Where auto means nothing, the config's auto gives way to the default level, said once.
    two = run_piped("--players", "2", stdin="quit\n", **homes)
    assert two.returncode == 0 and "not the config file's level auto" in two.stderr


def test_the_engine_takes_a_rating_for_its_level():
    by_option = subprocess.run(
        [qubic_command(), "engine", "--seed", str(SEED), "--level", "1400"],
        input="".join(f"position startpos moves {' '.join(m)}\ngo\n" for m in POSITIONS),
        capture_output=True,
        text=True,
        env=program_env(),
        timeout=120,
        check=True,
    )
    assert by_option.stdout.splitlines() == engine_moves("elo 1400")
