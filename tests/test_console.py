"""End to end: the installed program, in a pseudo-terminal and with piped input."""

from __future__ import annotations

import re

import pexpect
import pyte
import pytest

from qubic.core.board import Board, Mark
from qubic.core.notation import format_cell
from qubic.play import savefile
from qubic.players.normal import NormalPlayer
from tests.conftest import (
    Child,
    expect_goodbye,
    expect_prompt,
    program_env,
    prompt_pattern,
    qubic_command,
    run_piped,
    spawn,
)
from tests.scripted import find_game, human_moves, winning_line

SEED = 5
MOVE = r"YOUR MOVE\?"


def start(human_first: bool = True, *args: str) -> pexpect.spawn:
    child = spawn("--seed", str(SEED), *args)
    expect_prompt(child, r"DO YOU WANT INSTRUCTIONS\?")
    child.sendline("no")
    expect_prompt(child, r"DO YOU WANT TO MOVE FIRST\?")
    child.sendline("yes" if human_first else "no")
    return child


def play_through(child: pexpect.spawn, game: Board) -> str:
    """Type the game's human moves, checking each machine reply; the final message."""
    replies = iter(game.moves[1::2] if game.first is Mark.X else game.moves[0::2])
    if game.first is Mark.O:
        child.expect(r"MACHINE MOVES TO (\d{3})")
        assert child.match.group(1) == format_cell(next(replies))
    for cell in human_moves(game):
        expect_prompt(child, MOVE)
        child.sendline(format_cell(cell))
        index = child.expect(
            [r"MACHINE MOVES TO (\d{3})\r\n", r"(YOU WIN[^\r\n]*|THE GAME IS [^\r\n]*)\r\n"]
        )
        if index == 1:
            return child.match.group(1)
        assert child.match.group(1) == format_cell(next(replies))
    child.expect(r"(MACHINE WINS[^\r\n]*|THE GAME IS [^\r\n]*)\r\n")
    return child.match.group(1)


def finish(child: pexpect.spawn) -> None:
    expect_prompt(child, r"DO YOU WANT TO PLAY ANOTHER GAME\?")
    child.sendline("no")
    expect_goodbye(child)


def line_of(game: Board) -> str:
    return " ".join(format_cell(c) for c in winning_line(game))


@pytest.mark.slow
def test_win_a_whole_game():
    game = find_game(Mark.X, NormalPlayer(SEED))
    child = start()
    assert play_through(child, game) == f"YOU WIN! THE LINE: {line_of(game)}"
    finish(child)


@pytest.mark.slow
def test_lose_a_whole_game_then_play_again():
    game = find_game(Mark.O, NormalPlayer(SEED))
    child = start()
    assert play_through(child, game) == f"MACHINE WINS. THE LINE: {line_of(game)}"
    expect_prompt(child, r"DO YOU WANT TO PLAY ANOTHER GAME\?")
    child.sendline("maybe")
    child.expect("HERE: YES OR NO, REVIEW TO LOOK BACK ON THE GAME, OR HELP.")
    expect_prompt(child, r"ANOTHER GAME\?")
    child.sendline("y")
    index = child.expect([prompt_pattern(r"DO YOU WANT TO MOVE FIRST\?"), "INSTRUCTIONS"])
    assert index == 0, "instructions are offered only once"
    child.sendline("YES")
    assert play_through(child, game) == f"MACHINE WINS. THE LINE: {line_of(game)}"
    finish(child)


@pytest.mark.slow
def test_draw_a_whole_game_with_the_machine_first():
    game = find_game(None, NormalPlayer(SEED), human_first=False)
    child = start(human_first=False)
    assert play_through(child, game) == "THE GAME IS A DRAW."
    finish(child)


@pytest.mark.slow
def test_show_prints_four_levels_in_the_guides_grid():
    child = start(True, "--no-color", "--board", "tall")
    expect_prompt(child, MOVE)
    child.sendline("2,3,4")
    child.expect(r"MACHINE MOVES TO (\d{3})")
    machine = child.match.group(1)
    expect_prompt(child, MOVE)
    child.sendline("show")
    child.expect(r"LEVEL 1.*LEVEL 4\r\n.*R4[ .XOxo]*\r\n")
    text = child.after.replace("\r\n", "\n")
    levels = re.findall(r"LEVEL (\d)\n  C1 C2 C3 C4\n((?:R\d(?:  [.XOxo]){4}\n){4})", text)
    assert [n for n, _ in levels] == ["1", "2", "3", "4"]
    grid = {n: rows.splitlines() for n, rows in levels}
    assert grid["2"][3].split()[3] == "X"  # level 2, row 4, column 3
    level, column, row = (int(d) for d in machine)
    assert grid[str(level)][row - 1].split()[column] == "o", "the last move, in lowercase"
    assert text.count("X") == 1 and text.count("o") == 1 and "O" not in text


@pytest.mark.slow
@pytest.mark.parametrize(
    "text, message",
    [
        ("2345", "MOVES NEED THREE COORDINATES"),
        ("5,1,1", "5 IS OFF THE CUBE"),
        ("", "TYPE A MOVE LIKE 234"),
        ("xyzzy", "'xyzzy' IS NOT A MOVE"),
        ("111", "111 IS TAKEN BY X (YOU). TRY ANOTHER SQUARE."),
    ],
)
def test_bad_input_explains_and_asks_again(text, message):
    child = start(True, "--no-color")
    expect_prompt(child, MOVE)
    child.sendline("111")
    child.expect("MACHINE MOVES TO")
    expect_prompt(child, MOVE)
    child.sendline(text)
    child.expect_exact(message)
    expect_prompt(child, MOVE)
    child.sendline("board")
    child.expect(r"LEVEL 4(\r\n.*){5}")
    assert child.before.count(" X") + child.after.count(" X") == 1, "nothing was played"


@pytest.mark.parametrize("answers", [[], ["no"], ["no", "yes"]])
@pytest.mark.parametrize("key", ["c", "d"])
def test_ctrl_c_and_ctrl_d_leave_cleanly_at_any_prompt(answers, key):
    child = spawn()
    for answer in answers:
        expect_prompt(child, r"[A-Z]\?")
        child.sendline(answer)
    expect_prompt(child, r"[A-Z]\?")
    child.sendcontrol(key)
    expect_goodbye(child, status=130 if key == "c" else 0)


def test_piped_input_gives_a_clean_transcript():
    result = run_piped("--seed", "3", stdin="NO\nYES\n111\nSHOW\n")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert "DO YOU WANT INSTRUCTIONS? NO" in lines
    assert "DO YOU WANT TO MOVE FIRST? YES" in lines
    assert "YOUR MOVE? 111" in lines
    assert any(re.fullmatch(r"MACHINE MOVES TO [1-4]{3}", line) for line in lines)
    assert "YOUR MOVE? SHOW" in lines
    assert lines.count("  C1 C2 C3 C4") == 4
    assert lines[-1] == "GOODBYE. THANKS FOR PLAYING QUBIC."
    assert "\x1b" not in result.stdout and result.stderr == ""


def test_piped_game_is_reproducible_with_a_seed(tmp_path):
    script = "no\nno\n222\n333\n" + "".join(f"{m}\n" for m in ("121", "131", "141", "414"))
    # Each with a record of its own: the rating a game ends with depends on the games before.
    first = run_piped("--seed", "9", stdin=script, XDG_DATA_HOME=str(tmp_path / "first"))
    again = run_piped("--seed", "9", stdin=script, XDG_DATA_HOME=str(tmp_path / "again"))
    assert first.stdout == again.stdout
    assert first.stdout.count("MACHINE MOVES TO") >= 3


def test_help_describes_the_game_and_its_options():
    result = run_piped("--help")
    assert result.returncode == 0
    text = " ".join(result.stdout.split())
    for needle in ("3-D tic-tac-toe", "Level, Column, Row", "--seed", "--version", "SHOW"):
        assert needle in text


def test_version():
    result = run_piped("--version")
    assert result.returncode == 0
    assert re.fullmatch(r"qubic \d+\.\d+\.\d+\n", result.stdout)


def test_a_bad_option_is_a_usage_error():
    result = run_piped("--seed", "many")
    assert result.returncode == 2
    assert result.stderr == (
        "qubic: error: argument --seed: 'many' is not a whole number (see qubic --help)\n"
    )


@pytest.mark.slow
def test_a_dropped_digit_is_refused_and_never_becomes_a_move():
    # `24` used to play square 24 and `1 2` square 12; the guide refuses both.
    child = start()
    for typo in ("24", "1 2"):
        expect_prompt(child, MOVE)
        child.sendline(typo)
        child.expect_exact("MOVES NEED THREE COORDINATES (LEVEL, COLUMN, ROW), EACH 1 TO 4")
    expect_prompt(child, MOVE)
    child.sendline("MOVES")
    child.expect_exact("NO MOVES YET.")
    expect_prompt(child, MOVE)
    child.sendcontrol("d")
    expect_goodbye(child)


@pytest.mark.slow
def test_two_dated_saves_in_the_same_minute_keep_both_games(tmp_path):
    # SAVE alone in two games within a minute used to write both to one name.
    names = []
    for first in ("111", "444"):
        child = spawn("--seed", str(SEED), "--no-color", cwd=str(tmp_path), columns=200)
        expect_prompt(child, r"DO YOU WANT INSTRUCTIONS\?")
        child.sendline("no")
        expect_prompt(child, r"DO YOU WANT TO MOVE FIRST\?")
        child.sendline("yes")
        expect_prompt(child, MOVE)
        child.sendline(first)
        expect_prompt(child, MOVE)
        child.sendline("SAVE")
        child.expect(r"GAME SAVED TO (qubic-[-\d]+\.txt)\.\r\nTO RESUME IT: \S*qubic --load \1")
        names.append(child.match.group(1))
        expect_prompt(child, MOVE)
        if first == "444":
            # A save of another game is not this game's to replace.
            child.sendline(f"SAVE {names[0]}")
            child.expect_exact(f"CANNOT SAVE TO {names[0]}: IT HOLDS ANOTHER SAVED GAME")
            expect_prompt(child, MOVE)
        child.sendline("QUIT")  # just saved: nothing to offer
        assert child.expect(["SAVE THE GAME BEFORE YOU GO", "GOODBYE"]) == 1
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0
    assert names[0] != names[1]
    games = [savefile.load(str(tmp_path / name))[1].moves[0] for name in names]
    assert [format_cell(cell) for cell in games] == ["111", "444"]


@pytest.mark.slow
def test_no_blank_lines_are_kept_under_the_prompt_so_help_stays_in_sight():
    # Seven blank lines used to be kept under every prompt for the completion menu, so at 24
    # rows HELP's heading scrolled away.
    child = Child(
        qubic_command(),
        ["--seed", str(SEED), "--no-color"],
        env=program_env(),
        encoding="utf-8",
        dimensions=(24, 80),
        timeout=20,
    )
    screen = pyte.Screen(80, 24)
    stream = pyte.Stream(screen)
    for question, answer in (("INSTRUCTIONS", "no"), ("MOVE FIRST", "yes"), (MOVE, "help")):
        expect_prompt(child, question)
        stream.feed(child.before + child.after)
        child.sendline(answer)
    expect_prompt(child, MOVE)
    stream.feed(child.before + child.after)
    lines = [line.rstrip() for line in screen.display]
    assert "AT YOUR MOVE YOU CAN TYPE:" in lines
    prompt = max(i for i, line in enumerate(lines) if line.startswith("YOUR MOVE?"))
    assert all(not line for line in lines[prompt + 1 : -1]) and prompt >= 21
    child.sendcontrol("d")
    expect_goodbye(child)
