"""The full-screen game, `qubic --tui`, end to end: the real program in a pseudo-terminal of
80x24, its screen read through a terminal emulator (pyte), driven by keys and mouse escape
sequences as a terminal sends them."""

from __future__ import annotations

import re
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pexpect
import pyte
import pytest

from qubic.core.board import Board, Mark
from qubic.core.notation import format_cell, parse_cell
from qubic.core.variant import QUBIC
from qubic.play import savefile
from qubic.play.render import layout
from qubic.play.session import Session
from qubic.play.settings import Settings
from qubic.play.sitting import GOODBYE
from qubic.players.normal import NormalPlayer
from qubic.ui.tui.worker import Worker, WorkerError
from tests.conftest import Child, program_env, qubic_command, run_piped
from tests.scripted import find_game, human_moves

SEED = 5
WIDE = layout(QUBIC.geometry, 4)
RIGHT, LEFT, UP, DOWN = "\x1b[C", "\x1b[D", "\x1b[A", "\x1b[B"
PAGE_UP, PAGE_DOWN = "\x1b[5~", "\x1b[6~"


class FullScreen:
    """`qubic --tui ARGS` in a pseudo-terminal, and the screen it draws."""

    def __init__(
        self, *args: str, rows: int = 24, columns: int = 80, cwd: str | None = None, **env: str
    ) -> None:
        self.child = Child(
            qubic_command(),
            ["--tui", *args],
            env=program_env(**env),
            cwd=cwd,
            encoding="utf-8",
            dimensions=(rows, columns),
            timeout=30,
        )
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.Stream(self.screen)
        self.output = ""
        self.ended = False

    def read(self, timeout: float = 0.05) -> None:
        """Feed the emulator all the program has written, waiting up to `timeout` for the first
        of it (a frame can arrive in pieces: read on while more is ready at once)."""
        while True:
            try:
                text = self.child.read_nonblocking(1 << 16, timeout=timeout)
            except pexpect.TIMEOUT:
                return
            except pexpect.EOF:
                self.ended = True
                return
            self.output += text
            self.stream.feed(text)
            timeout = 0

    def lines(self) -> list[str]:
        return [line.rstrip() for line in self.screen.display]

    def wait(self, until: str | Callable[[], bool], timeout: float = 30) -> list[str]:
        """Read until `until` (text somewhere on the screen, or a test) holds; the screen."""
        test = until if callable(until) else lambda: any(until in line for line in self.lines())
        deadline = time.monotonic() + timeout
        while not test():
            if time.monotonic() > deadline or self.ended:
                pytest.fail(f"never showed {until!r}:\n" + "\n".join(self.lines()))
            self.read()
        return self.lines()

    def press(self, keys: str, until: str | Callable[[], bool]) -> list[str]:
        self.child.send(keys)
        return self.wait(until)

    def at(self, name: str) -> pyte.screens.Char:
        """The character drawn for the 4x4x4 cell `name`."""
        row, column = WIDE.places[parse_cell(name)]
        return self.screen.buffer[1 + row][column]

    def click(self, name: str) -> None:
        """A left click (press and release, SGR mouse encoding) on the cell `name`."""
        row, column = WIDE.places[parse_cell(name)]
        position = f"{column + 1};{row + 2}"
        self.child.send(f"\x1b[<0;{position}M\x1b[<0;{position}m")

    def info(self) -> str:
        """The line under the board, left of the move list: the first after the status bar
        to start with one space (the board's lines start with a word, or two spaces)."""
        lines = self.lines()
        margin = len(lines[1]) - len(lines[1].lstrip())  # a large screen centres the board
        line = next((line[margin:] for line in lines[1:] if re.match(r" \S", line[margin:])), "")
        return line.split("\u2502")[0].rstrip()

    def cursor_on(self, name: str) -> Callable[[], bool]:
        return lambda: (
            self.info().startswith(f" {name}:") or self.info().startswith(f" {name} (SQUARE")
        )

    def finish(self, status: int = 0) -> str:
        """Wait for the program to end with `status`; what it printed after the screen."""
        self.child.expect(pexpect.EOF)
        self.output += self.child.before
        self.child.close()
        assert self.child.exitstatus == status and "Traceback" not in self.output
        return self.output.rsplit("\x1b[?25h", 1)[-1]  # after the screen is put away


def started(*args: str, **kwargs: Any) -> FullScreen:
    screen = FullScreen("--seed", str(SEED), *args, **kwargs)
    screen.wait(screen.cursor_on("111"))
    return screen


def quit_at_once(screen: FullScreen) -> str:
    screen.child.sendcontrol("c")
    return screen.finish(130)


@pytest.mark.slow
def test_opens_on_the_empty_board_with_you_to_move_as_x():
    screen = started()
    lines = screen.lines()
    assert lines[0] == " MOVE 1 | LEVEL NORMAL | X TO PLAY (YOU)"
    assert lines[1].startswith("LEVEL 1          LEVEL 2          LEVEL 3          LEVEL 4")
    assert lines[3].startswith("R1 [.] .  .  .   R1  .  .  .  .")
    assert screen.info() == " 111: ON 7 LINES, OPEN TO X 7 O 7"
    assert "MOVES" in lines[1] and "?:keys" in lines[-1]
    assert all(len(line) <= 80 for line in lines)
    assert quit_at_once(screen).strip() == GOODBYE


@pytest.mark.slow
def test_the_cursor_moves_by_arrows_vi_keys_levels_and_digits():
    screen = started()
    for keys, cell in [
        (RIGHT, "121"),
        ("j", "122"),
        (DOWN, "123"),
        ("l", "133"),
        (RIGHT, "143"),
        (RIGHT, "213"),
        ("h", "143"),
        (UP, "142"),
        ("k", "141"),
        (PAGE_UP, "241"),
        ("]", "341"),
        ("[", "241"),
        (PAGE_DOWN, "141"),
        (PAGE_DOWN, "141"),
        ("444", "444"),
    ]:
        screen.press(keys, screen.cursor_on(cell))
    assert screen.at("444").reverse and screen.lines()[6][63:67] == "[.]\u2502"
    screen.press("3", " GO TO: 3_")
    screen.press("12", screen.cursor_on("312"))
    screen.press("999", "COORDINATES RUN FROM 1 TO 4: 9 IS OFF THE CUBE.")
    quit_at_once(screen)


def test_the_lines_through_the_cursor_are_previewed():
    screen = started()
    screen.press("234", screen.cursor_on("234"))
    cube = QUBIC.geometry
    through = {
        cell for line in cube.lines_through[parse_cell("234")] for cell in cube.lines[line].cells
    }
    assert len(cube.lines_through[parse_cell("234")]) == 4
    assert screen.info() == " 234: ON 4 LINES, OPEN TO X 4 O 4"
    for cell in cube.cells:
        assert (screen.at(format_cell(cell)).bg == "blue") == (cell in through)
    quit_at_once(screen)


def test_enter_plays_the_cursor_cell_and_the_machine_replies():
    screen = started()
    screen.press("\r", "MACHINE MOVES TO")
    reply = re.search(r"MACHINE MOVES TO (\d{3})", "\n".join(screen.lines())).group(1)
    screen.wait(lambda: "2. O " + reply in "\n".join(screen.lines()))
    lines = screen.lines()
    assert lines[0] == f" MOVE 3 | LEVEL NORMAL | X TO PLAY (YOU) | MACHINE PLAYED {reply}"
    assert "1. X 111" in lines[2] and screen.at("111").data == "X"
    assert screen.at(reply).data == "O" and screen.at(reply).underscore, "the last move"
    assert screen.at("111").fg == "cyan" and screen.at(reply).fg == "brown"
    screen.press(" ", "111 IS TAKEN BY X (YOU). TRY ANOTHER SQUARE.")
    quit_at_once(screen)


def test_a_click_plays_the_clicked_cell():
    screen = started()
    screen.click("324")
    screen.wait("MACHINE MOVES TO")
    assert screen.at("324").data == "X" and screen.cursor_on("324")()
    quit_at_once(screen)


def test_undo_takes_back_your_move_and_the_reply():
    screen = started()
    screen.press("u", "NOTHING TO UNDO.")
    screen.press("\r", "MACHINE MOVES TO")
    screen.press("u", "TAKEN BACK: YOUR 111 AND THE MACHINE'S")
    screen.wait(lambda: screen.lines()[0] == " MOVE 1 | LEVEL NORMAL | X TO PLAY (YOU)")
    assert all(screen.at(format_cell(cell)).data == "." for cell in QUBIC.geometry.cells)
    quit_at_once(screen)


def test_hint_names_a_move_and_the_cursor_jumps_to_it():
    screen = started()
    screen.press("H", "HINT: ")
    hint = re.search(r"HINT: (\d{3})", "\n".join(screen.lines())).group(1)
    screen.wait(screen.cursor_on(hint))
    quit_at_once(screen)


def test_analyze_says_who_has_a_forced_win():
    screen = started()
    screen.press("a", "NEITHER SIDE HAS A FORCED WIN BY THREATS")
    quit_at_once(screen)


@pytest.mark.slow
def test_save_asks_for_a_file_name_and_the_save_loads(tmp_path):
    screen = started(cwd=str(tmp_path))
    screen.press("\r", "MACHINE MOVES TO")
    screen.press("s", "SAVE TO FILE")
    screen.press("my game.txt\r", "GAME SAVED TO my game.txt.")
    settings, board = savefile.load(str(tmp_path / "my game.txt"))
    assert board.moves[0] == parse_cell("111") and len(board.moves) == 2
    assert settings.seed == SEED
    screen.press("s", "SAVE TO FILE")
    screen.press("\x1b", lambda: "SAVE TO FILE" not in "\n".join(screen.lines()))
    screen.child.send("q")  # just saved: leaving asks nothing
    after = screen.finish().strip().splitlines()
    assert after[-1] == GOODBYE and re.match(
        r"TO RESUME IT: \S+ --tui --load 'my game.txt'", after[0]
    )


def test_it_follows_a_resize():
    screen = started()
    screen.child.setwinsize(30, 60)  # the terminal tells the program with SIGWINCH
    screen.screen.resize(30, 60)
    lines = screen.wait(
        lambda: (
            screen.lines()[1].startswith("LEVEL 1          LEVEL 2")
            and "LEVEL 3" not in screen.lines()[1]
        )
    )
    assert lines[8].startswith("LEVEL 3          LEVEL 4"), "two levels a row"
    assert lines[1].endswith("\u2502 MOVES"), "the move list still fits"
    screen.press(DOWN * 4, screen.cursor_on("311"))  # down from level 1 is level 3 now
    screen.child.setwinsize(24, 80)
    screen.screen.resize(24, 80)
    screen.wait(lambda: "LEVEL 4" in screen.lines()[1])
    screen.press("\r", "MACHINE MOVES TO")
    quit_at_once(screen)


def test_no_color_highlights_by_reverse_bold_and_underline():
    screen = started(NO_COLOR="1")
    screen.press("\r", "MACHINE MOVES TO")
    reply = re.search(r"MACHINE MOVES TO (\d{3})", "\n".join(screen.lines())).group(1)
    screen.wait(lambda: screen.at(reply).data == "o")  # the last move, in lowercase
    chars = [char for row in screen.screen.buffer.values() for char in row.values()]
    assert {char.fg for char in chars} == {"default"} == {char.bg for char in chars}
    cursor = screen.at("111")
    assert cursor.data == "X" and cursor.reverse and cursor.bold
    row, column = WIDE.places[parse_cell("111")]
    assert screen.lines()[1 + row][column - 1 : column + 2] == "[X]"
    assert screen.at("112").underscore and not screen.at("223").underscore, "the preview"
    quit_at_once(screen)


def child_processes(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


@pytest.mark.slow
@pytest.mark.parametrize("key, status", [("q", 0), ("\x03", 130)])
def test_quit_while_the_machine_thinks(key, status):
    screen = FullScreen(
        "--players", "0", "--level", "expert", "--level-o", "expert", "--pause", "0", "--seed", "1"
    )
    screen.wait("THINKING")
    workers = child_processes(screen.child.pid)
    assert workers, "the machine thinks in a worker process"
    screen.press("l", lambda: "THINKING" in screen.lines()[0] and screen.cursor_on("121")())
    began = time.monotonic()
    screen.child.send(key)
    assert screen.finish(status).strip() == GOODBYE
    assert time.monotonic() - began < 3
    assert not any(Path(f"/proc/{pid}").exists() for pid in workers), "the worker is gone"


@pytest.mark.slow
def test_a_game_against_the_machine_to_its_end_then_another():
    game = find_game(Mark.X, NormalPlayer(SEED))
    screen = started()
    for number, cell in enumerate(human_moves(game)):
        screen.press(format_cell(cell), screen.cursor_on(format_cell(cell)))
        screen.press(
            "\r",
            lambda n=number: (
                screen.lines()[0].startswith(f" MOVE {2 * n + 3} ")
                or "YOU WIN!" in "\n".join(screen.lines())
            ),
        )
    lines = screen.wait("YOU WIN! THE LINE:")
    line = re.search(r"YOU WIN! THE LINE: ([\d ]+)", "\n".join(lines)).group(1).split()
    for cell in line:
        assert screen.at(cell).bg == "brown", "the winning line, in gold"
    assert screen.info().startswith(
        " DO YOU WANT TO PLAY ANOTHER GAME? y: A NEW GAME, n OR q: LEAVE"
    )
    screen.press("y", lambda: screen.lines()[0] == " MOVE 1 | LEVEL NORMAL | X TO PLAY (YOU)")
    screen.wait(lambda: all(screen.at(cell).data == "." for cell in line))  # the board, cleared
    screen.press("q", lambda: screen.ended)
    assert screen.finish().strip() == GOODBYE


def test_m_lets_the_machine_move_first():
    screen = started()
    screen.press("m", "MACHINE MOVES TO")
    screen.wait(lambda: screen.lines()[0].startswith(" MOVE 2 | LEVEL NORMAL | X TO PLAY"))
    assert "1. O " in screen.lines()[2]
    screen.press("m", "m LETS THE MACHINE MOVE FIRST, BEFORE YOUR FIRST MOVE.")
    quit_at_once(screen)


def test_a_new_game_is_asked_twice_in_play():
    screen = started()
    screen.press("\r", "MACHINE MOVES TO")
    screen.press("n", "START A NEW GAME? n AGAIN: YES")
    screen.press("n", "A NEW GAME.")
    screen.wait(lambda: screen.lines()[0] == " MOVE 1 | LEVEL NORMAL | X TO PLAY (YOU)")
    quit_at_once(screen)


def test_marks_show_where_a_side_could_complete_a_line():
    screen = FullScreen("--players", "2")
    for cell in ("111", "211", "112", "212", "113"):
        screen.wait(lambda: "TO PLAY" in screen.lines()[0])
        screen.press(cell + "\r", lambda c=cell: screen.at(c).data in "XO")
    screen.press("t", lambda: screen.at("114").data == "!")
    assert screen.at("213").data == "." and screen.at("114").fg == "cyan"
    screen.press("114", "114: ON 7 LINES, OPEN TO X 7 O 6; X COULD COMPLETE")
    screen.press("t", lambda: screen.at("114").data == ".")
    quit_at_once(screen)


@pytest.mark.slow
def test_help_lists_the_keys_and_esc_closes_it():
    screen = started()
    screen.press("?", "UNDO YOUR MOVE AND THE MACHINE'S REPLY")
    screen.press("\x1b", lambda: "CLOSES THEM" not in "\n".join(screen.lines()))
    screen.press(":", lambda: screen.lines()[-2].startswith(":"))
    screen.press("moves\r", "NO MOVES YET.")
    quit_at_once(screen)


@pytest.mark.slow
def test_the_clock_runs_and_a_turn_passes_when_it_is_out():
    screen = started("--time-limit", "2")
    assert re.search(r"\| [12] SECONDS? LEFT$", screen.lines()[0])
    screen.wait("TIME IS UP. YOUR TURN PASSES TO THE MACHINE.")
    screen.wait(lambda: screen.lines()[0].startswith(" MOVE 3 |"))
    assert "1. X PASS" in screen.lines()[2]
    quit_at_once(screen)


@pytest.mark.slow
def test_variants_show_their_own_board_and_scores():
    screen = FullScreen("--variant", "cube3", "--seed", "3")
    lines = screen.wait("SCORE X 0 O 0")
    assert lines[1].startswith("LEVEL 1       LEVEL 2       LEVEL 3")
    quit_at_once(screen)
    screen = FullScreen("--variant", "tesseract", "--seed", "3")
    screen.wait("DIGITS: BIG COLUMN, COLUMN, BIG ROW, ROW")
    screen.press(PAGE_DOWN + "]", " 2121 (SQUARE")
    quit_at_once(screen)


def test_told_to_stop_it_puts_the_screen_away():
    screen = started()
    screen.child.kill(signal.SIGTERM)
    assert screen.finish(128 + signal.SIGTERM).strip() == GOODBYE
    assert "\x1b[?1049l" in screen.output and "\x1b[?1000l" in screen.output


@pytest.mark.slow
def test_leaves_the_terminal_as_it_found_it():
    shell = Child(
        "sh",
        ["-c", f"{qubic_command()} --tui; stty -a"],
        env=program_env(),
        encoding="utf-8",
        dimensions=(24, 80),
        timeout=30,
    )
    shell.expect("111: ON 7 LINES")
    shell.send("q")
    shell.expect(pexpect.EOF)
    text = shell.before
    for mode in ("?1049l", "?1000l", "?1006l", "?1003l", "?25h"):
        assert f"\x1b[{mode}" in text
    settings = text.rsplit("\x1b[?25h", 1)[1]
    assert re.search(r"(?<!-)icanon\b", settings) and re.search(r"(?<!-)echo\b", settings)


@pytest.mark.parametrize(
    "options, message",
    [
        ([], "--tui needs a terminal that can draw a screen"),
        (["--board", "wide"], "--board lays out the line console's board; --tui draws its own"),
    ],
)
def test_tui_is_refused_where_it_cannot_work(options, message):
    result = run_piped("--tui", *options)
    assert result.returncode == 2 and message in result.stderr


def test_tui_in_a_dumb_terminal_is_refused():
    child = Child(qubic_command(), ["--tui"], env=program_env(TERM="dumb"), encoding="utf-8")
    child.expect("--tui needs a terminal that can draw a screen")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2


def test_a_session_goes_to_the_worker_and_back_whole():
    session = Session(Settings(seed=SEED, level="hard"))
    for answer in ("no", "yes", "111"):
        session.answer(answer)
    worker = Worker()
    try:
        worker.start(session, "machine_move")
        thought, output = worker.result()
        assert output[0].startswith("MACHINE MOVES TO") and len(thought.board.moves) == 2
        assert thought.board.geometry is session.board.geometry, "shared, not copied"
        assert session.board.moves == [parse_cell("111")], "the screen's copy is untouched"
        worker.start(thought, "answer", "LINES Q")
        assert worker.result()[1] == ["LINES TAKES A MARK (X, O) OR NOTHING: 'Q' IS NOT ONE."]
        worker.start(thought, "time_up")  # a person's turn passes: fine; the game is not over
        worker.result()
        worker.start(thought, "no_such_call")
        with pytest.raises(WorkerError, match="AttributeError"):
            worker.result()
    finally:
        worker.stop()


def left_of_panel(screen: FullScreen) -> str:
    """The screen's text left of the move list, its lines joined by spaces."""
    return " ".join(" ".join(line.split("\u2502")[0].split()) for line in screen.lines())


@pytest.mark.slow
@pytest.mark.parametrize("columns", [50, 80, 120])
def test_the_quit_question_cancels_and_text_fits_between_words(columns, tmp_path):
    # Esc and n used not to cancel the quit question, text was cut mid-word, the status bar
    # cut a move's digits, a new game kept the old log, and 120 columns left the board in
    # the corner.
    screen = started(columns=columns, rows=24, cwd=str(tmp_path))
    screen.press("\r", "MACHINE MOVES TO")
    status = screen.lines()[0]
    assert re.search(r"PLAYED \d{3}$", status) and len(status) <= columns
    screen.press("999", lambda: "9 IS OFF THE CUBE." in left_of_panel(screen))
    assert "COORDINATES RUN FROM 1 TO 4: 9 IS OFF THE CUBE." in left_of_panel(screen)
    screen.press("q", "SAVE THE GAME BEFORE YOU GO?")
    screen.press("\x1b", "BACK TO THE GAME.")
    assert "SAVE THE GAME" not in left_of_panel(screen)
    screen.press("q", "SAVE THE GAME BEFORE YOU GO?")
    screen.press("n", lambda: left_of_panel(screen).count("BACK TO THE GAME.") == 2)
    if columns == 120:
        board = screen.lines()[1]
        assert board.index("LEVEL 1") >= 10, "the board is centred"
        assert board.index("\u2502") - board.index("LEVEL 4") < 30, "the moves sit beside it"
    screen.press("nn", "A NEW GAME.")
    screen.wait(lambda: "MACHINE MOVES TO" not in left_of_panel(screen))
    screen.press("\r", "MACHINE MOVES TO")
    screen.press("q", "SAVE THE GAME BEFORE YOU GO?")
    screen.child.send("q")  # at the question: leave without saving
    assert screen.finish().strip() == GOODBYE
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_n_after_a_finished_game_leaves_and_a_load_says_everything_once():
    game = find_game(Mark.X, NormalPlayer(SEED))
    before_the_win = Board.from_moves(game.moves[:-1])
    line = savefile.export(Settings(seed=SEED), before_the_win)
    screen = FullScreen("--load", line)
    screen.wait(screen.cursor_on("111"))
    for once in ("PRESS ? FOR THE KEYS.", "RESUMING A SAVED GAME"):
        assert left_of_panel(screen).count(once) == 1
    screen.press(format_cell(game.moves[-1]) + "\r", "YOU WIN!")
    screen.wait("DO YOU WANT TO PLAY ANOTHER GAME? y: A NEW GAME, n OR q: LEAVE")
    # r reviews the game: the start, stepping on, the end, and back to the question.
    screen.press("r", "THE START.")
    assert all(screen.at(name).data == "." for name in ("111", "444"))
    screen.press("n", f"MOVE 1. X {format_cell(game.moves[0])}")
    screen.press("G", "THE GAME IS OVER: X WINS.")
    screen.press("q", "DO YOU WANT TO PLAY ANOTHER GAME? y: A NEW GAME, n OR q: LEAVE")
    screen.child.send("n")
    assert screen.finish().strip() == GOODBYE
