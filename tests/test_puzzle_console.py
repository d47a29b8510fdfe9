"""`qubic puzzle` end to end: a sitting in a pseudo-terminal, piped runs that repeat, and the
options it refuses."""

from __future__ import annotations

import re
from datetime import date

import pexpect
import pytest

from qubic.core.notation import format_cell
from qubic.play.puzzles import WINNING, judge, sitting_puzzle
from qubic.search.threats import ThreatSearch
from tests.conftest import expect_goodbye, expect_prompt, run_piped, spawn

SEED = 21
MOVE = r"YOUR MOVE\?"
ANOTHER = r"ANOTHER PUZZLE\?"
BOARD_LINE = re.compile(r"^(?:LEVEL \d|  C1 C2 C3 C4|R\d .*)$")
CONTROL = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\r")


def board_lines(text: str) -> list[str]:
    """The lines of the last board printed in `text`, the terminal's control codes left out."""
    lines = [line.rstrip() for line in CONTROL.sub("", text).split("\n")]
    found = [line for line in lines if BOARD_LINE.match(line)]
    return found[-24:]


def sit(*args: str) -> pexpect.spawn:
    child = spawn("puzzle", "--seed", str(SEED), "--no-color", *args, columns=200)
    expect_prompt(child, MOVE)
    return child


def play(child: pexpect.spawn, moves: tuple[int, ...]) -> None:
    """Type the attacker's moves of a line, each forced block answered before the next."""
    for index in range(0, len(moves), 2):
        child.sendline(format_cell(moves[index]))
        if index + 1 < len(moves):
            child.expect(f"THE MACHINE BLOCKS AT {format_cell(moves[index + 1])}")
            expect_prompt(child, MOVE)


@pytest.mark.slow
def test_a_sitting_in_a_terminal():
    first, second = (sitting_puzzle(SEED, number, 2) for number in (1, 2))
    board = first.board()
    search = ThreatSearch()
    wrong = next(c for c in board.legal_moves() if judge(board, c, search).outcome not in WINNING)
    child = sit("--moves", "2", "--board", "tall")
    shown = board_lines(child.before)
    assert len(shown) == 24  # the whole cube, one level under another
    # A slip is refused with its reason, and the position is as it was.
    child.sendline(format_cell(wrong))
    child.expect(
        rf"{format_cell(wrong)} LETS THE WIN SLIP: [^\r\n]+\. "
        r"THE POSITION IS AS IT WAS: TRY AGAIN\."
    )
    expect_prompt(child, MOVE)
    child.sendline("SHOW")
    expect_prompt(child, MOVE)
    assert board_lines(child.before) == shown
    # HINT names the next move; the solution solves it, but with help it does not count.
    child.sendline("hint")
    child.expect(r"HINT: (\d{3}) \(THIS PUZZLE NO LONGER COUNTS AS SOLVED\)")
    assert child.match.group(1) == format_cell(first.solution[0])
    expect_prompt(child, MOVE)
    play(child, first.solution)
    child.expect("DONE, WITH HELP! TWO THREATS AT ONCE")
    child.expect(r"PUZZLES SOLVED: 0 OF 1\.")
    expect_prompt(child, ANOTHER)
    child.sendline("perhaps")
    child.expect(r"PLEASE ANSWER YES OR NO\.")
    expect_prompt(child, ANOTHER)
    child.sendline("yes")
    child.expect("PUZZLE 2: YOU PLAY")
    expect_prompt(child, MOVE)
    # SOLUTION shows the whole line; a puzzle solved with it does not count.
    child.sendline("SOLUTION")
    child.expect(r"THE WIN FROM HERE \(THIS PUZZLE NO LONGER COUNTS AS SOLVED\):")
    child.expect(
        rf"  1\. [XO] {format_cell(second.solution[0])}  [XO] "
        rf"{format_cell(second.solution[1])}\r\n"
    )
    child.expect(rf"  2\. [XO] {format_cell(second.solution[2])}  TWO THREATS AT ONCE")
    expect_prompt(child, MOVE)
    play(child, second.solution)
    child.expect(r"PUZZLES SOLVED: 0 OF 2\.")
    expect_prompt(child, ANOTHER)
    child.sendline("no")
    expect_goodbye(child)


@pytest.mark.slow
@pytest.mark.parametrize("skip", [False, True])
@pytest.mark.parametrize("key", ["c", "d"])
def test_ctrl_c_and_ctrl_d_leave_cleanly(key, skip):
    child = sit("--moves", "1")
    if skip:
        child.sendline("skip")
        expect_prompt(child, ANOTHER)
    child.sendcontrol(key)
    expect_goodbye(child, status=130 if key == "c" else 0)


@pytest.mark.slow
def test_the_same_seed_gives_the_same_sitting_and_another_seed_another():
    runs = [
        run_piped("puzzle", "--seed", seed, stdin="skip\nyes\nskip\n") for seed in ("5", "5", "6")
    ]
    assert all(run.returncode == 0 and run.stderr == "" for run in runs)
    assert runs[0].stdout == runs[1].stdout != runs[2].stdout
    assert "PUZZLES SOLVED: 0 OF 2." in runs[0].stdout


@pytest.mark.slow
def test_a_random_sitting_says_how_to_repeat_it():
    result = run_piped("puzzle", "--moves", "1")
    seed = re.search(r"THESE PUZZLES COME AGAIN WITH: qubic puzzle --seed (\d+)", result.stdout)
    assert seed is not None
    again = run_piped("puzzle", "--moves", "1", "--seed", seed.group(1))
    assert again.stdout.split("PUZZLE 1:")[1] == result.stdout.split("PUZZLE 1:")[1]


@pytest.mark.slow
def test_the_daily_puzzle_is_the_same_all_day_and_another_the_next():
    today = run_piped("puzzle", "--daily")
    assert today.returncode == 0
    assert f"THE PUZZLE OF {date.today().isoformat()}:" in today.stdout
    assert run_piped("puzzle", "--daily").stdout == today.stdout
    days = [run_piped("puzzle", "--date", day).stdout for day in ("2026-03-14", "2026-03-15")]
    assert "THE PUZZLE OF 2026-03-14:" in days[0]
    assert days[0].split("WIN BY THREATS IN")[1] != days[1].split("WIN BY THREATS IN")[1]
    assert run_piped("puzzle", "--date", "2026-03-14").stdout == days[0]


@pytest.mark.parametrize(
    "args, reason",
    [
        (["puzzle", "--moves", "13"], "argument --moves: invalid choice: 13"),
        (["puzzle", "--moves", "0"], "argument --moves: invalid choice: 0"),
        (["--moves", "3"], "--moves is for qubic puzzle"),
        (["--daily"], "--daily is for qubic puzzle"),
        (["engine", "--date", "2026-03-14"], "--date is for qubic puzzle"),
        (["puzzle", "--daily", "--seed", "3"], "--daily gives everyone the same puzzle"),
        (["puzzle", "--date", "2026-13-01"], "'2026-13-01' is not a date like 2026-03-14"),
        (
            ["puzzle", "--level", "hard"],
            "qubic puzzle takes --moves, --seed, --daily, --date, --board and --no-color, "
            "not --level",
        ),
        (["puzzle", "--tui"], "not --tui"),
        (["puzzle", "--variant", "cube3"], "not --variant"),
        (["puzzle", "--size", "5"], "not --size"),
        (["puzzle", "--pause", "1"], "not --pause"),
    ],
)
def test_bad_options_are_refused_in_one_line(args, reason):
    result = run_piped(*args)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.strip().splitlines()[-1].startswith("qubic: error:")
    assert reason in result.stderr.strip().splitlines()[-1]


def test_help_stays_within_80_columns_and_names_puzzle():
    result = run_piped("--help")
    assert result.returncode == 0
    assert max(len(line) for line in result.stdout.splitlines()) <= 80
    for needle in ("puzzle", "--moves N", "--daily", "ANALYZE"):
        assert needle in result.stdout
