"""The full screen at every size, and around a finished game: the status bar from 40 to 120
columns and after resizes, the keys' box at 80x24, review by the console's letters, a finished
game saved and taken back, long lines kept whole, and Ctrl-Z; read through pyte."""

from __future__ import annotations

import re

import pexpect
import pytest

from qubic.core.board import Board, Mark
from qubic.core.notation import format_cell
from qubic.play import savefile
from qubic.play.settings import Settings
from qubic.players.normal import NormalPlayer
from qubic.ui.tui.app import KEYS
from tests.conftest import qubic_command
from tests.scripted import find_game
from tests.test_second_evening import bash, job_pid, stopped
from tests.test_tui import RIGHT, SEED, FullScreen, left_of_panel, quit_at_once, started


def status_items(screen: FullScreen) -> list[str]:
    return screen.lines()[0].strip().split(" | ")


def last_said(screen: FullScreen) -> str:
    """The last line of the messages, above the keys' bar, left of the move list."""
    return next(
        text for line in reversed(screen.lines()[:-1]) if (text := line.split("\u2502")[0].strip())
    )


@pytest.mark.slow
def test_the_status_bar_drops_whole_items_at_every_width_and_after_resizes():
    screen = started("--no-record")
    screen.press("\r", "MACHINE MOVES TO")
    reply = re.search(r"MACHINE MOVES TO (\d{3})", "\n".join(screen.lines())).group(1)
    full = ["MOVE 3", "LEVEL NORMAL", "X TO PLAY (YOU)", f"MACHINE PLAYED {reply}"]
    for columns in [*range(40, 121), 58, 120, 40, 80]:
        screen.child.setwinsize(24, columns)
        screen.screen.resize(24, columns)
        # The level goes first, then the move number; the move played is never cut.
        if columns > len(" | ".join(full)):
            kept = full
        elif columns > len(" | ".join([full[0], *full[2:]])):
            kept = [full[0], *full[2:]]
        else:
            kept = full[2:]
        screen.wait(lambda kept=kept: status_items(screen) == kept, timeout=10)
        assert len(screen.lines()[0]) <= columns
    quit_at_once(screen)


@pytest.mark.slow
def test_while_the_machine_thinks_the_bar_says_you_played():
    # Expert moving first thinks most of a second over its second move: the bar is drawn.
    screen = started("--level", "expert", "--no-record")
    screen.press("m", "MACHINE MOVES TO 111")
    screen.press("222\r", "THINKING")
    assert re.search(r"\| YOU PLAYED 222 \| THINKING [|/\\-]$", screen.lines()[0])
    screen.wait(lambda: "3. O" in "\n".join(screen.lines()), timeout=60)
    assert "X PLAYED" not in screen.output and "O PLAYED" not in screen.output
    quit_at_once(screen)


@pytest.mark.slow
def finished(*args: str, columns: int = 80, cwd: str | None = None) -> tuple[FullScreen, Board]:
    """The full screen at the end of a game X wins: loaded a move before the win, then won."""
    game = find_game(Mark.X, NormalPlayer(SEED))
    line = savefile.export(Settings(seed=SEED), Board.from_moves(game.moves[:-1]))
    screen = FullScreen("--load", line, "--no-record", *args, columns=columns, cwd=cwd)
    screen.wait(screen.cursor_on("111"))
    screen.press(format_cell(game.moves[-1]) + "\r", "YOU WIN!")
    screen.wait("DO YOU WANT TO PLAY ANOTHER GAME?")
    return screen, game


@pytest.mark.slow
def test_review_takes_the_console_letters_and_says_only_its_own_keys():
    screen, game = finished()
    assert screen.lines()[-1].startswith(" ?:keys  y:new game  n:leave  r:review  s:save")
    assert "REVIEW LOOKS BACK" not in left_of_panel(screen), "the line under the board says it"
    screen.press("r", "THE START.")
    text = left_of_panel(screen)
    assert "N: NEXT MOVE" not in text and "REVIEW: n (OR RIGHT) NEXT" in text
    assert screen.lines()[-1].startswith(" n:next  p:back  f:first  L:last  q:done")
    screen.press("p", lambda: last_said(screen) == "THIS IS THE START: NO MOVE COMES BEFORE IT.")
    screen.press("L", lambda: last_said(screen) == "THE GAME IS OVER: X WINS.")
    end = f"THIS IS THE END: MOVE {len(game.moves)} WAS THE LAST."
    screen.press("n", lambda: last_said(screen) == end)
    screen.press("f", lambda: "THE START." in left_of_panel(screen).rsplit(end, 1)[-1])
    screen.press("l", lambda: last_said(screen) == "THE GAME IS OVER: X WINS.")
    screen.press("x", lambda: last_said(screen).endswith("q DONE."))
    screen.press("q", lambda: screen.lines()[-1].startswith(" ?:keys  y:new game"))
    quit_at_once(screen)


@pytest.mark.slow
def test_a_finished_game_is_saved_with_s_and_taken_back_with_u(tmp_path):
    screen, game = finished(cwd=str(tmp_path))
    screen.press("H", "THE GAME IS OVER: y A NEW GAME, r REVIEW IT, s SAVE IT, u UNDO")
    screen.press("s", "SAVE TO FILE")
    screen.press("won.txt\r", "GAME SAVED TO won.txt.")
    screen.wait(lambda: "TO REVIEW IT:" in left_of_panel(screen))
    assert re.search(r"TO REVIEW IT: \S+ review won.txt", left_of_panel(screen))
    assert savefile.load(str(tmp_path / "won.txt"), finished=True)[1].moves == game.moves
    screen.press("u", "TAKEN BACK: YOUR ")
    screen.wait(lambda: screen.lines()[-1].startswith(" ?:keys  arrows:move  Enter:play"))
    screen.press("s", "SAVE TO FILE")
    screen.press("again.txt\r", "GAME SAVED TO again.txt.")
    screen.wait(lambda: "TO RESUME IT:" in left_of_panel(screen))
    assert re.search(r"TO RESUME IT: \S+ --tui --load again.txt", left_of_panel(screen))
    screen.press("u", lambda: left_of_panel(screen).count("TAKEN BACK: YOUR ") == 2)
    asked = "SAVE THE GAME TO again.txt (REPLACING IT) BEFORE YOU GO? y: SAVE"
    screen.press("q", lambda: asked in left_of_panel(screen))
    screen.press("n", "BACK TO THE GAME.")
    screen.child.sendcontrol("c")
    after = screen.finish(130)
    assert re.search(r"TO RESUME IT: \S+ --tui --load again.txt\r?\n", after)


@pytest.mark.slow
def test_export_breaks_between_words_and_is_printed_whole_on_leaving():
    screen = started("--no-record")
    screen.press(":", ": ")
    screen.press("export\r", "THAT LINE IS PRINTED WHOLE WHEN YOU LEAVE, TO BE COPIED.")
    board_width = screen.lines()[1].index("\u2502")
    lines = [line[:board_width].rstrip() for line in screen.lines()]
    start = next(n for n, line in enumerate(lines) if line.startswith("qubic-save"))
    end = next(n for n, line in enumerate(lines) if line.startswith("THAT LINE IS PRINTED"))
    pieces = lines[start:end]
    assert len(pieces) > 1
    exported = " ".join(pieces)
    assert savefile.is_export(exported), "broken only where there were spaces"
    after = quit_at_once(screen)
    whole = next(line for line in after.splitlines() if line.startswith("qubic-save"))
    assert whole.strip() == exported and savefile.loads(whole.strip())[1].moves == []


@pytest.mark.slow
def test_help_keeps_its_columns_at_any_width():
    for columns in (80, 60):
        screen = started("--no-record", columns=columns)
        screen.press(":", ": ")
        screen.press("help\r", "  QUIT or EXIT")
        screen.read(0.3)
        width = screen.lines()[1].index("\u2502") if columns == 80 else columns
        lines = [line[:width].rstrip() for line in screen.lines()[:-1]]
        last = next(n for n, line in enumerate(lines) if line.startswith("  QUIT or EXIT"))
        column = lines[last].index("LEAVE")
        info = next(n for n, line in enumerate(lines) if line.startswith(" 111:"))
        listed = [line for line in lines[info + 1 :] if line.strip()]
        assert len(listed) > 5
        for line in listed:
            assert re.match(rf"  \S.{{{column - 4}}} \S| {{{column}}}\S", line), line
        quit_at_once(screen)


@pytest.mark.slow
def test_the_keys_fit_80_by_24_and_stay_until_closed():
    screen = started("--no-record")
    screen.press("?", "KEYS: ? OR Esc CLOSES THEM")
    text = "\n".join(screen.lines())
    for key, meaning in KEYS:
        assert f"{key} " in text and meaning in text, "each key on one line, none cut"
    assert "\u2514" in text, "the box's bottom edge is on the screen"
    screen.press("j", "KEYS: ? OR Esc CLOSES THEM")
    screen.read(0.3)
    assert "KEYS: ? OR Esc CLOSES THEM" in "\n".join(screen.lines()), "j does not close them"
    screen.press("?", lambda: "CLOSES THEM" not in "\n".join(screen.lines()))
    assert screen.info().startswith(" 111:"), "the j went to the box, not the cursor"
    quit_at_once(screen)


@pytest.mark.slow
def test_t_says_when_no_square_completes_a_line():
    screen = started("--no-record")
    screen.press("t", "NO SQUARE COMPLETES A LINE NOW: t AGAIN HIDES THE MARKS.")
    screen.press("t", "THE ! MARKS ARE HIDDEN AGAIN.")
    quit_at_once(screen)


@pytest.mark.slow
def test_a_screen_too_small_says_so_in_the_games_words():
    screen = FullScreen("--seed", str(SEED), rows=6, columns=40)
    screen.wait("THE TERMINAL IS TOO SMALL FOR THE GAME.")
    assert "Window too small" not in screen.output
    quit_at_once(screen)


@pytest.mark.slow
def test_ctrl_z_suspends_the_full_screen_and_fg_redraws_it():
    shell = bash()
    shell.sendline(f"{qubic_command()} --tui --seed {SEED} --no-record")
    shell.expect("111: ON 7 LINES")
    pid = job_pid(shell)
    shell.sendcontrol("z")
    shell.expect("Stopped")
    shell.expect_exact("$ ")
    assert stopped(pid)
    shell.sendline("fg")
    shell.expect("111: ON 7 LINES")
    shell.send("q")
    shell.expect("GOODBYE")
    shell.expect_exact("$ ")
    shell.sendline("echo status=$?")
    shell.expect("status=0")
    shell.sendline("exit")
    shell.expect(pexpect.EOF)


@pytest.mark.slow
def test_the_cursor_leaves_room_between_the_tesseracts_squares():
    screen = FullScreen("--variant", "tesseract", "--seed", "3", "--no-record")
    screen.wait("DIGITS: BIG COLUMN, COLUMN, BIG ROW, ROW")
    assert screen.lines()[3].startswith("       1  2  3   1  2  3   1  2  3")
    assert screen.lines()[4].startswith("BR1 R1[.] .  .   .  .  .")
    screen.press(RIGHT, screen.cursor_on("1211"))
    assert screen.lines()[4].startswith("BR1 R1 . [.] .   .  .  .")
    quit_at_once(screen)


@pytest.mark.slow
def test_a_pasted_block_plays_its_first_line_as_the_console_does():
    screen = started("--no-record")
    screen.child.send("\x1b[200~144\r141\r114\x1b[201~")
    said = "ONE MOVE AT A TIME: ONLY THE FIRST LINE PASTED IS TAKEN, NOT '141 114'."
    screen.wait(lambda: said in left_of_panel(screen))
    screen.wait(lambda: "2. O" in "\n".join(screen.lines()))
    screen.read(0.5)
    panel = "\n".join(line.split("\u2502")[-1] for line in screen.lines())
    assert "1. X 144" in panel and "3." not in panel
    quit_at_once(screen)
