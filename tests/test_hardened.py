"""End to end, the rough edges a careful user trips over, the way a person sees them:
in a pseudo-terminal read through a screen (pyte), or through pipes."""

from __future__ import annotations

import re
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pexpect
import pyte
import pytest

from qubic.core.board import Board, Mark
from qubic.core.variant import QUBIC
from qubic.play import savefile
from qubic.play.commands import COMMAND_HELP, command_help
from qubic.play.instructions import instructions
from qubic.play.render import COLOURS
from qubic.play.session import Session
from qubic.play.settings import Settings
from qubic.play.sitting import GOODBYE
from qubic.play.text import fit, table
from qubic.players.levels import LEVELS
from tests.conftest import (
    expect_goodbye,
    expect_prompt,
    program_env,
    qubic_command,
    run_piped,
    spawn,
)
from tests.test_console import MOVE
from tests.test_engine import EngineProcess

SCRIPT = "NO\nYES\n111\nSHOW\n"


class Watched:
    """A program in a pseudo-terminal, with everything it wrote kept to be read as a screen."""

    def __init__(self, *args: str, columns: int = 80, **kwargs: Any) -> None:
        self.columns = columns
        self.child = spawn(*args, columns=columns, **kwargs)
        self.child.logfile_read = self.log = _Log()

    def screen(self) -> list[str]:
        """The lines a person sees, top to bottom, trailing spaces dropped."""
        screen = pyte.Screen(self.columns, 2000)
        pyte.Stream(screen).feed(self.log.text.replace("\n", "\r\n").replace("\r\r", "\r"))
        return [line.rstrip() for line in screen.display]


class _Log:
    def __init__(self) -> None:
        self.text = ""

    def write(self, text: str) -> None:
        self.text += text

    def flush(self) -> None:
        pass


QUBIC_HELP = command_help(Session())  # HELP's rows on the 4x4x4 cube


def start(watched: Watched, instructions: str = "no") -> pexpect.spawn:
    return begin(watched.child, instructions)


def begin(child: pexpect.spawn, instructions: str = "no") -> pexpect.spawn:
    """Answer the first two questions: instructions or not, and move first."""
    expect_prompt(child, r"DO YOU WANT INSTRUCTIONS\?")
    child.sendline(instructions)
    expect_prompt(child, r"DO YOU WANT TO MOVE FIRST\?")
    child.sendline("yes")
    return child


@pytest.mark.slow
def test_80_columns_everything_fits_in_whole_lines():
    watched = Watched("--seed", "2", "--no-color")
    child = start(watched, instructions="yes")
    for text in ("help", "level", "xyzzy " * 30):
        expect_prompt(child, MOVE)
        child.sendline(text)
    expect_prompt(child, MOVE)
    child.sendline("quit")
    expect_goodbye(child)
    screen = watched.screen()
    printed = [
        *(line for paragraph in instructions(QUBIC) for line in fit(paragraph, 80)),
        "AT YOUR MOVE YOU CAN TYPE:",
        *table(QUBIC_HELP),
        "THE MACHINE PLAYS AT LEVEL NORMAL.",
    ]
    for line in printed:
        assert line.rstrip() in screen, f"{line!r} is shown whole, on one line"
    # A message longer than the terminal breaks between words, not inside one.
    start_at = next(i for i, line in enumerate(screen) if "IS NOT A MOVE" in line)
    message = " ".join(screen[start_at : start_at + 2])
    assert message.endswith("TYPE A MOVE LIKE 234 OR 2,3,4, OR HELP FOR THE COMMANDS.")


@pytest.mark.slow
def test_a_narrow_terminal_wraps_at_word_boundaries():
    watched = Watched("--seed", "2", "--no-color", columns=40)
    child = start(watched)
    expect_prompt(child, MOVE)
    child.sendline("help")
    expect_prompt(child, MOVE)
    child.sendline("quit")
    expect_goodbye(child)
    screen = watched.screen()
    begin = screen.index("AT YOUR MOVE YOU CAN TYPE:")
    end = next(i for i in range(begin, len(screen)) if "YOUR MOVE?" in screen[i])
    words = " ".join(" ".join(screen[begin:end]).split())
    for usage, meaning in QUBIC_HELP:
        assert f"{usage} {meaning}" in words, "no word is cut in two"


def test_help_option_fits_80_columns():
    result = run_piped("--help", COLUMNS="80")
    assert result.returncode == 0
    assert max(len(line) for line in result.stdout.splitlines()) <= 80


def saved_game(tmp_path: Path, board: Board | None = None, **settings: object) -> Path:
    path = tmp_path / "game.txt"
    savefile.save(str(path), Settings(seed=3, **settings), board or Board())  # type: ignore[arg-type]
    return path


@pytest.mark.parametrize("load", [False, True])
def test_a_closed_pipe_ends_quietly(tmp_path, load):
    args = ["--load", str(saved_game(tmp_path))] if load else ["--seed", "3"]
    script = "SHOW\n" if load else SCRIPT
    # The reader is gone before the program writes a word: every write meets a closed pipe.
    process = subprocess.Popen(
        [qubic_command(), *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=program_env(),
    )
    process.stdout.close()
    _, errors = process.communicate(script.encode(), timeout=60)
    assert errors == b"" and process.returncode == 141
    # And as a shell user would type it.
    printed = script.replace("\n", "\\n")
    shell = subprocess.run(
        f"printf '{printed}' | {qubic_command()} {' '.join(args)} | head -3",
        shell=True,
        capture_output=True,
        text=True,
        env=program_env(),
        timeout=60,
    )
    assert shell.stderr == "" and len(shell.stdout.splitlines()) == 3


def test_huge_junk_is_quoted_only_by_a_short_prefix():
    result = run_piped("--seed", "3", stdin="NO\nYES\n" + "x" * 200_000 + "\n")
    [reply] = [line for line in result.stdout.splitlines() if "IS NOT A MOVE" in line]
    assert reply.startswith("'xxxxxxxxxxxxxxxxxxxx'... IS NOT A MOVE.") and len(reply) < 100


def menu_after(child: pexpect.spawn, typed: str, last: str) -> str:
    """Type `typed` and Tab at the move prompt and wait for the completion to offer `last`
    (a menu, or the rest of the one word); everything drawn meanwhile."""
    expect_prompt(child, MOVE)
    child.send(typed + "\t")
    child.expect(last)
    return child.before + last


@pytest.mark.slow
def test_tab_completes_each_commands_own_arguments(tmp_path):
    (tmp_path / "zebra-notes.txt").write_text("not a game\n")
    child = start(Watched("--seed", "3", "--no-color", cwd=str(tmp_path)))
    drawn = menu_after(child, "LEVEL ", "CLASSIC")
    names = list(LEVELS)
    shown = names[: names.index("classic") + 1]  # the menu's rows, drawn down to CLASSIC
    assert all(name.upper() in drawn for name in shown) and "ALWAYS" not in drawn
    child.send("\x15")  # Ctrl-U: start the line again
    child.send("\r")
    drawn = menu_after(child, "SHOW ", "OFF")
    assert "ALWAYS" in drawn and "EASY" not in drawn and "HELP" not in drawn
    child.send("\x15\r")
    # A lowercase prefix completes with one Tab, in lowercase.
    menu_after(child, "lev", "el")
    child.send(" ha\t")
    child.expect("rd")
    child.send("\r")
    child.expect(r"THE LEVEL IS NOW HARD\.")
    menu_after(child, "save zeb", "ra-notes")
    child.send("\r")
    child.expect(r"CANNOT SAVE TO zebra-notes\.txt: IT EXISTS AND IS NOT A QUBIC SAVED GAME\.")
    expect_prompt(child, MOVE)
    child.sendcontrol("d")
    expect_goodbye(child)


@pytest.mark.slow
def test_save_names_as_a_shell_would_read_them(tmp_path):
    child = spawn(
        "--seed", "3", "--no-color", cwd=str(tmp_path), columns=250, HOME=str(tmp_path / "home")
    )
    (tmp_path / "home").mkdir()
    begin(child)
    expect_prompt(child, MOVE)
    child.sendline("111")
    for typed, answer in [
        (
            'save "my game.txt"',
            r"GAME SAVED TO my game\.txt\.\r\nTO RESUME IT: \S*qubic --load "
            r"'my game\.txt'",
        ),
        (
            "save ~/q.txt",
            rf"GAME SAVED TO ~/q\.txt\.\r\nTO RESUME IT: \S*qubic --load "
            rf"{re.escape(str(tmp_path))}/home/q\.txt",
        ),
        ("save nowhere/q.txt", r"CANNOT SAVE TO nowhere/q\.txt: THERE IS NO SUCH FOLDER\."),
        ("save", r"GAME SAVED TO (qubic-[-\d]+\.txt)\.\r\nTO RESUME IT: \S*qubic --load \1\r\n"),
    ]:
        expect_prompt(child, MOVE)
        child.sendline(typed)
        child.expect(answer)
    saved = child.match.group(1)
    expect_prompt(child, MOVE)
    child.sendcontrol("d")
    expect_goodbye(child)
    for name in ("my game.txt", "home/q.txt", saved):
        assert len(savefile.load(str(tmp_path / name))[1].moves) == 2


@pytest.mark.slow
def test_a_dumb_terminal_gets_no_colour():
    child = spawn("--seed", "3", TERM="dumb")
    for question, answer in (
        ("INSTRUCTIONS", "no"),
        ("MOVE FIRST", "yes"),
        (MOVE, "111"),
        (MOVE, "show"),
    ):
        child.expect(question)
        child.sendline(answer)
    child.expect(r"LEVEL 4(\r\n[^\r\n]*){5}")
    child.expect(MOVE)
    child.sendline("quit")
    child.expect(r"SAVE THE GAME BEFORE YOU GO\?")
    child.sendline("no")
    child.expect(pexpect.EOF)
    for mark in Mark:
        assert f"\x1b[{COLOURS[mark]}" not in child.before


def think(watched: Watched) -> pexpect.spawn:
    """Expert, after 111 222 141, thinks for seconds (see test); the spinner is up."""
    child = start(watched)
    for cell in ("111", "222", "141"):
        expect_prompt(child, MOVE)
        child.sendline(cell)
    child.expect("THINKING")
    return child


def expert(**kwargs: Any) -> Watched:
    return Watched("--level", "expert", "--seed", "1", "--no-color", timeout=30, **kwargs)


@pytest.mark.slow
def test_ctrl_c_while_the_machine_thinks_exits_130_with_no_stray_echo():
    watched = expert()
    child = think(watched)
    child.sendcontrol("c")
    child.expect(GOODBYE)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    screen = "\n".join(watched.screen())
    assert "^C" not in screen and "Traceback" not in screen


@pytest.mark.slow
def test_ctrl_c_leaves_even_when_the_game_was_started_with_it_ignored():
    # A shell starting a job in the background leaves SIGINT ignored in it (and a later `fg`
    # keeps it so): the game, in a terminal, listens to Ctrl-C all the same.
    child = think(expert(preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)))
    child.sendcontrol("c")
    child.expect(GOODBYE)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130


@pytest.mark.slow
def test_ctrl_d_while_the_machine_thinks_leaves_as_at_a_prompt():
    child = think(expert())
    child.sendcontrol("d")
    expect_goodbye(child)


@pytest.mark.slow
def test_keys_typed_while_the_machine_thinks_wait_for_the_next_question():
    watched = expert()
    child = think(watched)
    child.send("movez\x7fs")  # a typo mended with Backspace
    child.expect(r"MACHINE MOVES TO \d{3}")
    expect_prompt(child, MOVE + " moves")
    child.send("\r")
    child.expect(r" 6\. O \d{3} \(MACHINE\)")
    expect_prompt(child, MOVE)
    child.sendcontrol("d")
    expect_goodbye(child)
    thinking = [line for line in watched.screen() if "THINKING" in line or "movez" in line]
    assert thinking == [], "nothing typed shows over the spinner, which is erased"


@pytest.mark.slow
def test_case_is_ignored_in_the_engine_and_the_level_options():
    engine = EngineProcess()
    assert engine.ask("ISREADY") == "readyok"
    engine.process.stdin.write("Position StartPos Moves 111 222\n")
    assert re.fullmatch(r"bestmove \d{3}", engine.ask("GO level HARD"))
    assert re.fullmatch(r"bestmove \d{3}", engine.ask("go LEVEL Classic MoveTime 200"))
    assert engine.ask("go infinite") == (
        "error unknown go option 'infinite'; go takes level NAME, elo RATING, movetime MS"
    )
    assert engine.quit() == 0
    result = run_piped(
        "--players", "0", "--level", "HARD", "--level-o", "Easy", "--seed", "3", stdin="no\n"
    )
    assert result.returncode == 0 and result.stderr == ""
    assert run_piped("--level", "Expert", stdin="no\nyes\nquit\n").returncode == 0


@pytest.mark.parametrize("options", [["--level-o", "hard"], ["--pause", "2"]])
def test_watching_options_are_refused_without_players_0(options):
    result = run_piped(*options)
    assert result.returncode == 2 and result.stdout == ""
    option = options[0]
    assert result.stderr.splitlines()[-1] == (
        f"qubic: error: {option} is only for --players 0, where the machine plays itself"
        " (see qubic --help)"
    )


@pytest.mark.slow
def test_pause_0_is_no_pause():
    child = spawn("--players", "0", "--pause", "0", "--seed", "3", "--no-color")
    child.expect(r"DO YOU WANT TO PLAY ANOTHER GAME\?")
    child.sendline("no")
    expect_goodbye(child)
    assert run_piped("--players", "0", "--pause", "-1").returncode == 2


def test_loading_a_save_where_the_machine_moves_shows_the_board_after_its_reply(tmp_path):
    path = saved_game(tmp_path, Board(first=Mark.O))
    lines = run_piped("--load", str(path), stdin="quit\nno\n").stdout.splitlines()
    reply = next(i for i, line in enumerate(lines) if line.startswith("MACHINE MOVES TO"))
    assert "LEVEL 1" not in lines[:reply]
    assert lines[reply + 1] == "LEVEL 1" and lines[reply + 29].startswith("YOUR MOVE?")
    assert sum(line.count("o") for line in lines[reply + 1 : reply + 29]) == 1


@pytest.mark.slow
def test_quit_offers_to_save_then_says_goodbye(tmp_path):
    child = spawn("--seed", "3", "--no-color", cwd=str(tmp_path))
    begin(child)
    expect_prompt(child, MOVE)
    child.sendline("111")
    expect_prompt(child, MOVE)
    child.sendline("QUIT")
    expect_prompt(child, r"SAVE THE GAME BEFORE YOU GO\?")
    child.sendline("yes")
    child.expect(r"GAME SAVED TO (qubic-[-\d]+\.txt)\.\r\nTO RESUME IT: \S*qubic --load \1\r\n")
    saved = child.match.group(1)
    expect_goodbye(child)
    assert len(savefile.load(str(tmp_path / saved))[1].moves) == 2
    child = spawn()
    expect_prompt(child, r"DO YOU WANT INSTRUCTIONS\?")
    child.sendline("exit")
    expect_goodbye(child)


def test_help_and_instructions_say_how_to_leave():
    text = " ".join([*instructions(QUBIC), *table(COMMAND_HELP)])
    for needle in ("QUIT", "EXIT", "CTRL-C", "CTRL-D"):
        assert needle in text.upper()


@pytest.mark.slow
def test_bottom_toolbar_shows_the_machines_last_move():
    child = spawn("--seed", "3", PROMPT_TOOLKIT_NO_CPR="0")
    for answer in ("no", "yes", "111"):
        child.expect(r"\x1b\[6n")
        child.send("\x1b[1;1R")
        child.expect(r"\? ?\x1b\[0m")
        child.sendline(answer)
    child.expect(r"MACHINE MOVES TO (\d{3})")
    reply = child.match.group(1)
    child.expect(r"\x1b\[6n")
    child.send("\x1b[1;1R")
    child.expect(rf"MOVE 3 \| LEVEL NORMAL \| X TO PLAY \(YOU\) \| MACHINE PLAYED {reply}")
    child.sendcontrol("d")
    child.expect(GOODBYE)
    child.expect(pexpect.EOF)


@pytest.mark.slow
def test_watching_the_machine_shows_the_board_after_each_move():
    child = spawn("--players", "0", "--pause", "0", "--seed", "3", "--no-color", "--board", "tall")
    for mark in ("X", "O"):
        child.expect(rf"{mark} MOVES TO (\d)(\d)(\d)\r\n(LEVEL 1\r\n([^\r\n]*\r\n){{27}})")
        level, column, row = (int(d) for d in child.match.groups()[:3])
        board = child.match.group(4).splitlines()
        assert board[(level - 1) * 7 + 1 + row].split()[column] == mark.lower()
    child.expect(r"DO YOU WANT TO PLAY ANOTHER GAME\?")
    child.sendline("no")
    expect_goodbye(child)
    piped = run_piped("--players", "0", "--seed", "3", "--always-show", stdin="no\n").stdout
    assert piped.count("LEVEL 1") == piped.count(" MOVES TO ")


@pytest.mark.slow
def test_undo_under_a_time_limit_gives_no_time_back_and_keeps_passes():
    limit, waited = 4.0, 2.5
    child = spawn("--seed", "3", "--no-color", "--time-limit", str(limit))
    begin(child)
    expect_prompt(child, MOVE)
    child.sendline("111")
    child.expect("MACHINE MOVES TO")
    expect_prompt(child, MOVE)
    turn = time.monotonic()
    child.expect(pexpect.TIMEOUT, timeout=waited)  # the player thinks for a while
    child.sendline("undo")
    child.expect("TAKEN BACK: YOUR 111")
    child.expect(r"TIME IS UP\. YOUR TURN PASSES TO THE MACHINE\.", timeout=limit + 5)
    assert time.monotonic() - turn < limit + 1.5, "the turn had only the time left"
    expect_prompt(child, MOVE)
    child.sendline("undo")
    child.expect(r"A TURN THAT PASSED WHEN ITS TIME RAN OUT CANNOT BE TAKEN BACK\.")
    child.sendcontrol("c")
    child.expect(GOODBYE)
    child.expect(pexpect.EOF)
