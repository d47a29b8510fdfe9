"""End to end, the house rules, records and play modes: the installed program in a pty."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pexpect
import pytest

from qubic.core.board import Board, Mark
from qubic.core.notation import format_cell, parse_cell
from qubic.play import savefile
from qubic.play.commands import command_help
from qubic.play.render import COLOURS
from qubic.play.session import Session
from qubic.play.settings import Settings
from qubic.players.levels import hint_level, make_player
from tests.conftest import (
    expect_goodbye,
    expect_prompt,
    program_env,
    qubic_command,
    run_piped,
    spawn,
)
from tests.test_console import MOVE, SEED, finish, start

X_COLOUR = f"\x1b[{COLOURS[Mark.X]}"
O_COLOUR = f"\x1b[{COLOURS[Mark.O]}"
# A whole board, stacked or side by side: level 1 to the blank line after level 4.
BOARD = r"LEVEL 1[\s\S]*LEVEL 4[^\r\n]*\r\n([^\r\n]*\r\n){6}"


def move(child: pexpect.spawn, cell: str) -> str:
    """Play `cell` at the move prompt; the machine's reply."""
    expect_prompt(child, MOVE)
    child.sendline(cell)
    child.expect(r"MACHINE MOVES TO (\d{3})\r\n")
    return child.match.group(1)


def command(child: pexpect.spawn, text: str, answer: str) -> None:
    """Type `text` at the move prompt and wait for `answer` (a regex)."""
    expect_prompt(child, MOVE)
    child.sendline(text)
    child.expect(answer)


def leave(child: pexpect.spawn) -> None:
    """Ctrl-D at the next prompt: the program says goodbye and exits 0."""
    expect_prompt(child, r"\?")
    child.sendcontrol("d")
    expect_goodbye(child)


@pytest.mark.slow
def test_undo_takes_back_your_move_and_the_reply():
    child = start(True, "--no-color")
    command(child, "undo", r"NOTHING TO UNDO\.")
    reply = move(child, "111")
    command(child, "UNDO", rf"TAKEN BACK: YOUR 111 AND THE MACHINE'S {reply}\.")
    command(child, "moves", r"NO MOVES YET\.")
    leave(child)


@pytest.mark.slow
def test_hint_suggests_the_hint_levels_move_without_playing_it():
    child = start(True, "--no-color")
    reply = move(child, "111")
    board = Board.from_moves([parse_cell("111"), parse_cell(reply)])
    hint = make_player(hint_level(board.variant), SEED).choose(board).cell
    command(child, "hint", rf"HINT: {format_cell(hint)}\r\n")
    command(child, "moves", r" 1\. X 111 \(YOU\)\r\n 2\. O (\d{3}) \(MACHINE\)\r\n")
    assert child.match.group(1) == reply
    leave(child)


@pytest.mark.slow
def test_moves_lists_the_game_numbered_with_who_played():
    child = start(False, "--no-color")
    child.expect(r"MACHINE MOVES TO (\d{3})")
    first = child.match.group(1)
    free = "444" if first != "444" else "111"
    reply = move(child, free)
    command(child, "Moves", r"( \d\. [^\r\n]*\r\n){3}")
    assert child.match.group(0).split("\r\n")[:3] == [
        f" 1. O {first} (MACHINE)",
        f" 2. X {free} (YOU)",
        f" 3. O {reply} (MACHINE)",
    ]
    leave(child)


@pytest.mark.slow
def test_help_lists_every_command():
    child = start(True, "--no-color")
    command(child, "help", r"AT YOUR MOVE YOU CAN TYPE:\r\n([\s\S]*?LEAVES AT ONCE)\r\n")
    listed = " ".join(child.match.group(1).split())
    for usage, meaning in command_help(Session()):  # what works on the 4x4x4 cube
        assert f"{usage} {meaning}" in listed
    assert "17 play" not in listed
    leave(child)


def complete(child: pexpect.spawn, typed: str, completion: str) -> None:
    """Type `typed`, complete it to `completion` with Tab, and Enter."""
    expect_prompt(child, MOVE)
    child.send(typed)
    child.expect_exact(typed)
    child.send("\t")
    child.expect_exact(completion[len(typed.split()[-1]) :])  # what the Tab added
    child.send("\r")


@pytest.mark.slow
def test_tab_completes_commands_in_any_case():
    child = start(True, "--no-color")
    complete(child, "hel", "help")  # "hel" alone is not a command; it completes as typed
    child.expect("AT YOUR MOVE YOU CAN TYPE:")
    complete(child, "Show Al", "ALWAYS")
    child.expect(r"THE BOARD WILL BE SHOWN AFTER EVERY MOVE\.")
    leave(child)


@pytest.mark.slow
def test_up_arrow_recalls_the_last_answer():
    child = start(True, "--no-color")
    command(child, "help", "AT YOUR MOVE YOU CAN TYPE:")
    expect_prompt(child, MOVE)
    child.send("\x1b[A")
    child.expect("help")
    child.send("\r")
    child.expect("AT YOUR MOVE YOU CAN TYPE:")
    leave(child)


@pytest.mark.slow
def test_save_then_load_resumes_exactly_there(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the program runs here too
    path = tmp_path / "game.txt"
    child = start(True, "--no-color", "--always-show")
    reply = move(child, "111")
    command(
        child,
        "save game.txt",
        r"GAME SAVED TO game\.txt\.\r\nTO RESUME IT: \S*qubic --load game\.txt",
    )
    leave(child)
    settings, board = savefile.load(str(path))
    assert settings == Settings(always_show=True, seed=SEED)
    assert board.moves == [parse_cell("111"), parse_cell(reply)]

    child = spawn("--load", str(path), "--no-color")
    child.expect(r"RESUMING A SAVED GAME AT MOVE 3\.\r\nLEVEL 1")
    command(child, "moves", rf" 1\. X 111 \(YOU\)\r\n 2\. O {reply} \(MACHINE\)")
    mine = "444" if reply != "444" else "441"
    board.push(parse_cell(mine))
    expected = make_player(settings.level, SEED).choose(board).cell
    expect_prompt(child, MOVE)
    child.sendline(mine)
    child.expect(r"MACHINE MOVES TO (\d{3})\r\n" + BOARD)  # always-show came back too
    assert child.match.group(1) == format_cell(expected)
    leave(child)


def test_a_corrupt_save_is_refused_in_one_line_and_left_alone(tmp_path):
    path = tmp_path / "game.txt"
    text = "qubic-save 1\nplayers: 1\nlevel: normal\n"
    path.write_text(text)
    child = spawn("--load", str(path))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2
    assert child.before == f"qubic: cannot load {path}: 'human' is missing\r\n"
    assert path.read_text() == text


def test_a_missing_or_unreadable_save_exits_2_without_a_traceback(tmp_path):
    missing = run_piped("--load", str(tmp_path / "nowhere.txt"))
    assert missing.returncode == 2 and missing.stdout == ""
    missing_words = "there is no such file or folder"
    assert missing.stderr == f"qubic: cannot load {tmp_path}/nowhere.txt: {missing_words}\n"
    directory = run_piped("--load", str(tmp_path))
    assert directory.returncode == 2
    assert directory.stderr == f"qubic: cannot load {tmp_path}: it is a folder\n"


def test_load_refuses_options_the_save_already_holds(tmp_path):
    result = run_piped("--load", str(tmp_path / "x.txt"), "--level", "normal")
    assert result.returncode == 2
    assert "--load resumes the saved game with its own options: drop --level" in result.stderr


@pytest.mark.slow
def test_save_will_not_overwrite_a_file_that_is_not_a_save(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the program runs here too
    path = tmp_path / "notes.txt"
    path.write_text("keep me\n")
    child = start(True, "--no-color")
    command(
        child,
        "save notes.txt",
        r"CANNOT SAVE TO notes\.txt: IT EXISTS AND IS NOT A QUBIC SAVED GAME\.",
    )
    leave(child)
    assert path.read_text() == "keep me\n"


@pytest.mark.slow
def test_always_show_prints_the_board_after_each_move_and_show_off_stops_it():
    child = start(True, "--no-color", "--always-show")
    expect_prompt(child, MOVE)
    child.sendline("111")
    child.expect(r"MACHINE MOVES TO \d{3}\r\n" + BOARD)
    assert "LEVEL 1" not in child.before, "one board for your move and the reply"
    command(child, "show off", "THE BOARD WILL BE SHOWN ONLY WHEN YOU TYPE SHOW")
    expect_prompt(child, MOVE)
    child.sendline("423")
    child.expect(r"MACHINE MOVES TO \d{3}\r\n")
    expect_prompt(child, MOVE)
    assert "LEVEL 1" not in child.before
    child.sendline("show always")
    child.expect("THE BOARD WILL BE SHOWN AFTER EVERY MOVE")
    leave(child)


@pytest.mark.slow
def test_show_always_mid_game():
    child = start(True, "--no-color")
    reply = move(child, "111")
    assert reply
    command(child, "SHOW ALWAYS", "THE BOARD WILL BE SHOWN AFTER EVERY MOVE")
    expect_prompt(child, MOVE)
    child.sendline("423")
    child.expect(r"MACHINE MOVES TO \d{3}\r\n" + BOARD)
    assert "LEVEL 1" not in child.before
    leave(child)


@pytest.mark.slow
def test_time_limit_passes_the_turn_to_the_machine():
    child = start(True, "--no-color", "--time-limit", "1")
    expect_prompt(child, MOVE)
    child.expect(r"TIME IS UP\. YOUR TURN PASSES TO THE MACHINE\.\r\nMACHINE MOVES TO \d{3}")
    expect_prompt(child, MOVE)
    child.sendline("moves")
    child.expect(r" 1\. X PASS \(YOU\)\r\n 2\. O \d{3} \(MACHINE\)")
    # Every turn passes now, so there may be no prompt to wait for: Ctrl-C leaves anyway.
    child.sendcontrol("c")
    child.expect("GOODBYE")
    child.expect(pexpect.EOF)


@pytest.mark.slow
def test_time_limit_with_piped_input():
    process = subprocess.Popen(
        [qubic_command(), "--time-limit", "1", "--seed", "4"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=program_env(),
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write("no\nyes\n")
    process.stdin.flush()
    lines = []
    while not lines or not lines[-1].startswith("MACHINE MOVES TO"):
        lines.append(process.stdout.readline().rstrip("\n"))
    rest, _ = process.communicate(timeout=30)  # closes stdin: end of input
    assert lines[-3:-1] == ["YOUR MOVE? ", "TIME IS UP. YOUR TURN PASSES TO THE MACHINE."]
    assert process.returncode == 0 and rest.endswith("GOODBYE. THANKS FOR PLAYING QUBIC.\n")


@pytest.mark.slow
def test_two_players_play_a_whole_game_at_one_keyboard():
    child = spawn("--players", "2")
    expect_prompt(child, r"DO YOU WANT INSTRUCTIONS\?")
    child.sendline("no")
    for number, cell in enumerate(("111", "211", "112", "212", "113", "213", "114")):
        expect_prompt(child, ("X" if number % 2 == 0 else "O") + r", YOUR MOVE\?")
        child.sendline(cell)
    child.expect(BOARD + "X WINS! THE LINE: 111 112 113 114")
    final = child.match.group(0)
    assert final.count(f"{X_COLOUR};7mX") == 3, "the winning line is highlighted"
    assert final.count(f"{X_COLOUR};4;7mX") == 1, "and the last move within it"
    assert "MOVE FIRST" not in child.before and "MACHINE" not in child.before
    finish(child)


@pytest.mark.slow
def test_no_players_the_machine_plays_itself_to_the_end():
    session = Session(Settings(players=0, seed=3))
    announcements = []
    while session.machine_to_move:
        announcements += [line for line in session.machine_move() if isinstance(line, str)]
    child = spawn("--players", "0", "--seed", "3", "--pause", "0.02", "--no-color")
    for line in announcements:
        child.expect_exact(line + "\r\n")
    assert "INSTRUCTIONS" not in child.before
    assert re.match(r"[XO] MOVES TO \d{3}", announcements[0])
    finish(child)


def test_no_players_piped_needs_no_input_but_play_again():
    result = run_piped("--players", "0", "--seed", "3", stdin="no\n")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert lines[3].startswith("X MOVES TO") and lines[4].startswith("O MOVES TO")
    assert "DO YOU WANT TO PLAY ANOTHER GAME? no" in lines and "\x1b" not in result.stdout


@pytest.mark.slow
def test_colour_in_a_terminal_for_the_board():
    child = start()
    move(child, "111")
    command(child, "show", BOARD)
    assert f"{X_COLOUR}mX" in child.after and O_COLOUR in child.after
    leave(child)


@pytest.mark.slow
def test_no_colour_with_no_color_set_or_asked_for():
    for child in (start(True, "--no-color"), spawn_no_color()):
        move(child, "111")
        command(child, "show", BOARD)
        text = child.after
        assert "R1  X" in text and X_COLOUR not in text and O_COLOUR not in text
        leave(child)


def spawn_no_color() -> pexpect.spawn:
    child = spawn("--seed", str(SEED), NO_COLOR="1")
    expect_prompt(child, r"DO YOU WANT INSTRUCTIONS\?")
    child.sendline("no")
    expect_prompt(child, r"DO YOU WANT TO MOVE FIRST\?")
    child.sendline("yes")
    return child


@pytest.mark.slow
def test_bottom_toolbar_shows_move_level_turn_and_time_left():
    # The toolbar is drawn once prompt_toolkit knows the rows below the cursor: answer its
    # cursor position requests, as a real terminal does.
    child = spawn("--time-limit", "60", PROMPT_TOOLKIT_NO_CPR="0")
    for answer in ("no", "yes"):
        child.expect(r"\x1b\[6n")
        child.send("\x1b[1;1R")
        child.expect(r"\? ?\x1b\[0m")
        child.sendline(answer)
    child.expect(r"\x1b\[6n")
    child.send("\x1b[1;1R")
    child.expect(r"MOVE 1 \| LEVEL NORMAL \| X TO PLAY \(YOU\) \| \d+ SECONDS? LEFT")
    child.sendcontrol("d")
    child.expect("GOODBYE")
    child.expect(pexpect.EOF)


def test_help_option_lists_the_new_options_and_commands():
    result = run_piped("--help")
    for needle in (
        "--players",
        "--level-o",
        "--always-show",
        "--time-limit",
        "--load",
        "--no-color",
        "--pause",
        "UNDO",
        "HINT",
        "MOVES",
        "SAVE FILE",
        "HELP",
    ):
        assert needle in result.stdout


def test_saved_files_use_the_documented_format():
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    example = re.search(r"```\n(qubic-save 2\n.*?)```", readme, re.S)
    assert example, "README shows a saved game"
    savefile.loads(example.group(1))
