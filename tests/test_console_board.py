"""The console's board: side by side in a terminal wide enough, stacked otherwise and through
a pipe, `--board` forcing either; and one full move in 12 lines with --always-show."""

from __future__ import annotations

import re
from itertools import pairwise

import pytest

from qubic.core.variant import CUBE3, QUBIC
from qubic.play.render import wide_width
from tests.conftest import expect_goodbye, expect_prompt, run_piped
from tests.test_console import MOVE
from tests.test_hardened import Watched, start

HEADINGS = "LEVEL 1          LEVEL 2          LEVEL 3          LEVEL 4"
COLUMNS = "  C1 C2 C3 C4      C1 C2 C3 C4      C1 C2 C3 C4      C1 C2 C3 C4"
WIDE_ROW = re.compile(r"^R(\d)(?:  [.XOxo]){4}(?:   R\1(?:  [.XOxo]){4}){3}$")
TALL_ROW = re.compile(r"^R\d(?:  [.XOxo]){4}$")


def shown(columns: int, *args: str) -> list[str]:
    """The screen after playing 111 and typing SHOW in a terminal `columns` wide."""
    watched = Watched("--seed", "3", "--no-color", *args, columns=columns)
    child = start(watched)
    expect_prompt(child, MOVE)
    child.sendline("111")
    expect_prompt(child, MOVE)
    child.sendline("show")
    expect_prompt(child, MOVE)
    child.sendline("quit")
    expect_prompt(child, r"SAVE THE GAME BEFORE YOU GO\?")
    child.sendline("no")
    expect_goodbye(child)
    screen = watched.screen()
    begin = max(i for i, line in enumerate(screen) if line.endswith("YOUR MOVE? show"))
    return screen[begin + 1 : next(i for i in range(begin, len(screen)) if "quit" in screen[i])]


def assert_wide(board: list[str]) -> None:
    assert board[:2] == [HEADINGS, COLUMNS]
    rows = [WIDE_ROW.match(line) for line in board[2:6]]
    assert [row.group(1) if row else None for row in rows] == ["1", "2", "3", "4"]
    assert board[2].startswith("R1  X  .  .  .   R1"), "level 1 on the left"
    assert board[6:] == [""], "seven lines in all"


def assert_tall(board: list[str]) -> None:
    for level in range(4):
        grid = board[7 * level : 7 * level + 7]
        assert grid[:2] == [f"LEVEL {level + 1}", "  C1 C2 C3 C4"]
        assert all(TALL_ROW.match(line) for line in grid[2:6]) and grid[6] == ""
    assert board[0:3] == ["LEVEL 1", "  C1 C2 C3 C4", "R1  X  .  .  ."] and len(board) == 28


@pytest.mark.slow
def test_a_terminal_100_columns_wide_shows_the_levels_side_by_side():
    assert_wide(shown(100))


def assert_two_a_row(board: list[str]) -> None:
    assert board[:2] == [HEADINGS[:24], COLUMNS[:30]]
    assert board[7:9] == ["LEVEL 3          LEVEL 4", COLUMNS[:30]]
    assert board[2].startswith("R1  X  .  .  .   R1") and len(board) == 14


@pytest.mark.slow
def test_a_terminal_60_columns_wide_shows_two_levels_a_row_and_30_stacked():
    # At 60 columns all four levels used to be stacked, so levels 1-2 scrolled away.
    assert wide_width(QUBIC.geometry) > 60
    assert_two_a_row(shown(60))
    assert_tall(shown(30))


@pytest.mark.slow
def test_a_wide_board_that_does_not_fit_says_so_in_one_line():
    board = shown(60, "--board", "wide")
    assert board[0] == "--board wide NEEDS 65 COLUMNS; SHOWN TWO LEVELS A ROW."
    assert_two_a_row(board[1:])


@pytest.mark.slow
@pytest.mark.parametrize(
    "columns, layout, check",
    [(100, "tall", assert_tall), (100, "TALL", assert_tall), (70, "wide", assert_wide)],
)
def test_board_option_forces_a_layout(columns, layout, check):
    check(shown(columns, "--board", layout))


def test_through_a_pipe_the_board_is_stacked_unless_asked():
    script = "NO\nYES\n111\nSHOW\n"
    lines = run_piped("--seed", "3", stdin=script, COLUMNS="200").stdout.splitlines()
    at = lines.index("YOUR MOVE? SHOW")
    assert_tall(lines[at + 1 : at + 29])
    lines = run_piped("--seed", "3", "--board", "wide", stdin=script).stdout.splitlines()
    at = lines.index("YOUR MOVE? SHOW")
    assert_wide(lines[at + 1 : at + 8])
    assert lines[at + 8] == "YOUR MOVE? "


def test_bad_board_layout_is_refused():
    result = run_piped("--board", "round")
    assert result.returncode == 2
    assert "argument --board: invalid choice: 'round'" in result.stderr


def test_the_3x3x3_cube_goes_side_by_side_too_and_the_tesseract_keeps_its_grid():
    lines = run_piped(
        "--variant", "cube3", "--board", "wide", "--seed", "3", stdin="NO\nYES\n111\nSHOW\n"
    ).stdout.splitlines()
    at = lines.index("YOUR MOVE? SHOW")
    assert lines[at + 1] == "LEVEL 1       LEVEL 2       LEVEL 3"
    assert len(lines[at + 3]) == wide_width(CUBE3.geometry)
    lines = run_piped(
        "--variant", "tesseract", "--board", "wide", "--seed", "3", stdin="NO\nYES\n1111\nSHOW\n"
    ).stdout.splitlines()
    at = lines.index("YOUR MOVE? SHOW")
    assert lines[at + 1] == "DIGITS: BIG COLUMN, COLUMN, BIG ROW, ROW"


@pytest.mark.slow
def test_always_show_at_80_columns_one_full_move_fits_in_12_lines():
    watched = Watched("--seed", "3", "--no-color", "--always-show", columns=80)
    child = start(watched)
    for cell in ("111", "444", "141"):
        expect_prompt(child, MOVE)
        child.sendline(cell)
    expect_prompt(child, MOVE)
    child.sendcontrol("d")
    expect_goodbye(child)
    screen = watched.screen()
    prompts = [i for i, line in enumerate(screen) if line.startswith("YOUR MOVE?")]
    for mine, following in pairwise(prompts):
        move = screen[mine:following]
        assert len(move) <= 12, "\n".join(move)
        assert sum(line.startswith("MACHINE MOVES TO") for line in move) == 1
        assert sum(line.startswith("LEVEL 1") for line in move) == 1, "one board a move"
