"""A newcomer's second evening in the console: what works once a game is over, Ctrl-Z and a
pasted block at a question, the bar and the text at any width, review's words, and one voice in
every message; the installed program in a pseudo-terminal, `review` and `stats` through pipes."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path
from typing import Any

import pexpect
import pyte
import pytest

from qubic.core.board import Board, Mark
from qubic.core.notation import format_cell
from qubic.play import savefile
from qubic.play.puzzles import sitting_puzzle
from qubic.play.review import review
from qubic.play.settings import Settings
from qubic.players.normal import NormalPlayer
from tests.conftest import (
    Child,
    expect_goodbye,
    expect_prompt,
    program_env,
    qubic_command,
    run_piped,
    spawn,
)
from tests.scripted import find_game, human_moves

SEED = 5
MOVE = r"YOUR MOVE\?"
AGAIN = r"DO YOU WANT TO PLAY ANOTHER GAME\?"


def started(*args: str, columns: int = 120, **env: Any) -> pexpect.spawn:
    """A game in a pseudo-terminal, no instructions, the player moving first as X."""
    child = spawn("--seed", str(SEED), "--no-color", *args, columns=columns, **env)
    expect_prompt(child, r"DO YOU WANT INSTRUCTIONS\?")
    child.sendline("no")
    expect_prompt(child, r"DO YOU WANT TO MOVE FIRST\?")
    child.sendline("yes")
    return child


def lose(child: pexpect.spawn) -> Board:
    """Play a game the machine wins, to its end; the game."""
    game = find_game(Mark.O, NormalPlayer(SEED))
    for cell in human_moves(game):
        expect_prompt(child, MOVE)
        child.sendline(format_cell(cell))
    child.expect("MACHINE WINS. THE LINE: ")
    return game


def answer(child: pexpect.spawn, question: str, text: str, reply: str) -> str:
    """Type `text` at `question` and wait for `reply` (regexes); what came before the reply."""
    expect_prompt(child, question)
    child.sendline(text)
    child.expect(reply)
    return child.before


@pytest.mark.slow
def test_a_finished_game_can_be_saved_exported_listed_and_taken_back(tmp_path):
    child = started(cwd=str(tmp_path))
    game = lose(child)
    child.expect("REVIEW LOOKS BACK ON THE GAME, SAVE KEEPS IT, HELP SAYS WHAT ELSE WORKS HERE.")
    listed = answer(child, AGAIN, "HELP", "QUIT or EXIT")
    assert "AT THE END OF A GAME YOU CAN TYPE:" in listed
    for usage in ("YES or NO", "REVIEW", "SAVE FILE", "EXPORT", "MOVES", "UNDO"):
        assert f"\n  {usage} " in listed
    answer(child, AGAIN, "moves", rf"{len(game.moves)}\. O {format_cell(game.moves[-1])}")
    answer(child, AGAIN, "hint", "HINT WORKS AT YOUR MOVE. HERE: YES OR NO, REVIEW")
    answer(child, AGAIN, "save lost.txt", r"GAME SAVED TO lost.txt.\r\n")
    child.expect(r"TO REVIEW IT: \S+ review lost.txt\r\n")
    exported = answer(child, AGAIN, "export", r"TO REVIEW IT: \S+ review 'THE LINE ABOVE'")
    line = "qubic-save" + exported.strip().split("qubic-save")[-1]
    assert exported.count("qubic-save") == 1, "the line once"
    answer(child, AGAIN, "undo", "TAKEN BACK: YOUR ")
    expect_prompt(child, MOVE)
    child.sendline("quit")
    expect_prompt(child, r"SAVE THE GAME[^?]* BEFORE YOU GO\?")
    child.sendline("no")
    expect_goodbye(child)
    for source in (str(tmp_path / "lost.txt"), line):
        piped = run_piped("review", source)
        assert piped.returncode == 0
        assert piped.stdout.count("\n") > len(game.moves)
        assert f"{len(game.moves)}. O {format_cell(game.moves[-1])}" in piped.stdout


def bash(columns: int = 80) -> pexpect.spawn:
    """An interactive shell with job control, in which the program runs as a foreground job,
    so that Ctrl-Z stops it as it would in a terminal and `fg` brings it back."""
    child = Child(
        "bash",
        ["--norc", "--noprofile", "-i"],
        env=program_env(PS1="$ "),
        encoding="utf-8",
        dimensions=(24, columns),
        timeout=20,
    )
    child.expect_exact("$ ")
    return child


def stopped(pid: int) -> bool:
    return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] == "T"


def job_pid(shell: pexpect.spawn) -> int:
    """The qubic program the shell runs (the shell's one child)."""
    children = Path(f"/proc/{shell.pid}/task/{shell.pid}/children").read_text().split()
    assert len(children) == 1
    return int(children[0])


@pytest.mark.slow
def test_ctrl_z_suspends_at_a_question_and_fg_comes_back_to_it():
    shell = bash()
    shell.sendline(f"{qubic_command()} --seed {SEED} --no-color --no-record")
    expect_prompt(shell, r"DO YOU WANT INSTRUCTIONS\?")
    pid = job_pid(shell)
    shell.sendcontrol("z")
    shell.expect("Stopped")
    shell.expect_exact("$ ")
    assert stopped(pid), "the program itself is stopped, not only its prompt"
    shell.sendline("fg")
    expect_prompt(shell, r"DO YOU WANT INSTRUCTIONS\?")
    assert not stopped(pid)
    shell.sendline("no")
    expect_prompt(shell, r"DO YOU WANT TO MOVE FIRST\?")
    shell.sendline("yes")
    expect_prompt(shell, MOVE)
    shell.sendcontrol("z")
    shell.expect("Stopped")
    shell.sendline("fg")
    expect_prompt(shell, MOVE)
    shell.sendline("111")
    index = shell.expect([r"MACHINE MOVES TO \d{3}", "IS NOT A MOVE"])
    assert index == 0, "no ^Z in the answer"
    expect_prompt(shell, MOVE)
    shell.sendline("quit")
    expect_prompt(shell, r"SAVE THE GAME[^?]* BEFORE YOU GO\?")
    shell.sendline("no")
    shell.expect("GOODBYE")
    shell.expect_exact("$ ")
    shell.sendline("echo status=$?")  # after fg, the job's own
    shell.expect("status=0")
    shell.sendline("exit")
    shell.expect(pexpect.EOF)


@pytest.mark.slow
def test_a_pasted_block_of_moves_plays_its_first_and_says_one_move_at_a_time():
    child = started()
    expect_prompt(child, MOVE)
    child.send("\x1b[200~144\r141\r114\x1b[201~")
    child.expect(r"ONE MOVE AT A TIME: ONLY THE FIRST LINE PASTED IS TAKEN, NOT '141 114'\.")
    child.expect(r"MACHINE MOVES TO \d{3}")
    expect_prompt(child, MOVE)
    child.sendline("moves")
    child.expect(r" 2\. O \d{3} \(MACHINE\)\r\n")
    assert " 3. " not in child.before, "only 144 was played"
    assert "144" in child.before
    expect_prompt(child, MOVE)
    child.sendcontrol("d")
    expect_goodbye(child)


class Terminal:
    """The program in a pseudo-terminal of `rows` x `columns` read through a terminal emulator,
    which answers prompt_toolkit's cursor position requests as a terminal would."""

    def __init__(self, *args: str, rows: int = 24, columns: int = 80) -> None:
        self.child = Child(
            qubic_command(),
            ["--seed", str(SEED), "--no-color", "--no-record", *args],
            env=program_env(PROMPT_TOOLKIT_NO_CPR="0"),
            encoding="utf-8",
            dimensions=(rows, columns),
            timeout=20,
        )
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.Stream(self.screen)

    def lines(self) -> list[str]:
        return [line.rstrip() for line in self.screen.display]

    def wait(self, text: str | Callable[[], bool], timeout: float = 20) -> list[str]:
        """Read until `text` is on the screen (or the test holds), and a moment more; the
        screen."""
        test = text if callable(text) else lambda: any(text in line for line in self.lines())
        deadline = time.monotonic() + timeout
        settle = None
        while settle is None or time.monotonic() < settle:
            if settle is None and test():
                settle = time.monotonic() + 0.3
            if time.monotonic() > deadline:
                pytest.fail(f"never showed {text!r}:\n" + "\n".join(self.lines()))
            try:
                output = self.child.read_nonblocking(1 << 16, timeout=0.05)
            except pexpect.TIMEOUT:
                continue
            for index, part in enumerate(output.split("\x1b[6n")):
                if index:
                    self.child.send(f"\x1b[{self.screen.cursor.y + 1};{self.screen.cursor.x + 1}R")
                self.stream.feed(part)
        return self.lines()

    def type(self, keys: str, then: str) -> list[str]:
        self.child.send(keys)
        return self.wait(then)

    def close(self) -> None:
        self.child.sendcontrol("d")
        self.child.expect(pexpect.EOF)
        self.child.close()


@pytest.mark.slow
def test_no_before_the_first_move_leaves_no_blank_rows_and_keeps_the_title():
    terminal = Terminal(rows=12)
    terminal.wait("DO YOU WANT INSTRUCTIONS?")
    terminal.type("no\r", "DO YOU WANT TO MOVE FIRST?")
    terminal.type("n", "MOVE FIRST? n")
    lines = terminal.type("\r", "YOUR MOVE?")
    assert lines[0] == "QUBIC", "nothing scrolled away"
    assert lines[5].startswith("MACHINE MOVES TO") and lines[6] == "YOUR MOVE?"
    terminal.close()


def paragraphs(lines: list[str]) -> list[list[str]]:
    """Runs of non-blank lines."""
    runs: list[list[str]] = [[]]
    for line in lines:
        if line:
            runs[-1].append(line)
        elif runs[-1]:
            runs.append([])
    return [run for run in runs if run]


@pytest.mark.slow
def test_at_60_columns_instructions_and_help_wrap_evenly_and_keep_their_columns():
    terminal = Terminal(rows=40, columns=60)
    terminal.wait("DO YOU WANT INSTRUCTIONS?")
    lines = terminal.type("yes\r", "DO YOU WANT TO MOVE FIRST?")
    start = lines.index("DO YOU WANT INSTRUCTIONS? yes") + 1
    text = lines[start : next(n for n, line in enumerate(lines) if "MOVE FIRST" in line)]
    assert "X AND O TAKE TURNS; YOU ARE X, THE MACHINE O." in " ".join(text)
    for run in paragraphs(text):
        for line, after in pairwise(run):
            assert len(line) <= 60 and len(line) + 1 + len(after.split()[0]) > 60, "ragged"
    terminal.type("yes\r", "YOUR MOVE?")
    lines = terminal.type("help\r", "LEAVES AT ONCE")
    rows = lines[lines.index("AT YOUR MOVE YOU CAN TYPE:") + 1 :]
    rows = rows[: next(n for n, line in enumerate(rows) if "LEAVES AT ONCE" in line) + 1]
    column = rows[0].index("PLAY LEVEL 2")
    assert any(line.startswith(" " * column) for line in rows), "some rows go on"
    for line in rows:
        assert len(line) <= 60
        assert re.match(rf"  \S.{{{column - 4}}} \S| {{{column}}}\S", line), line
    terminal.close()


@pytest.mark.slow
def test_a_dropped_digit_is_told_in_one_line_at_80_columns():
    child = started(columns=80)
    expect_prompt(child, MOVE)
    child.sendline("24")
    child.expect(r"(MOVES NEED THREE COORDINATES[^\r\n]*)\r\n")
    assert child.match.group(1).endswith("EACH 1 TO 4: 234 OR 2,3,4.")
    assert len(child.match.group(1)) <= 80
    expect_prompt(child, MOVE)
    child.sendcontrol("d")
    expect_goodbye(child)


@pytest.mark.slow
def test_tab_on_the_one_completion_stays_completed():
    child = started()
    expect_prompt(child, MOVE)
    child.send("lev")
    child.expect_exact("lev")
    child.send("\t")
    child.expect_exact("el")  # the rest of the word, typed by the Tab
    child.send("\t\t\r")
    index = child.expect([r"THE MACHINE PLAYS AT LEVEL NORMAL", r"IS NOT A MOVE"])
    assert index == 0, "level, not lev"
    expect_prompt(child, MOVE)
    child.sendcontrol("d")
    expect_goodbye(child)


@pytest.mark.slow
def test_one_voice_in_every_message():
    child = started("--variant", "cube3")
    for typed, said in [
        ("abc", "'abc' IS NOT A MOVE."),
        ("level foo", "THERE IS NO LEVEL 'foo'."),
        (
            "level classic",
            "LEVEL CLASSIC PLAYS QUBIC (4x4x4, TWO SIDES, THE FIRST LINE WINS) ONLY.",
        ),
        ("lines q", "LINES TAKES A MARK (X, O) OR NOTHING: 'q' IS NOT ONE."),
        ("2", "YOU PLAY 121 (SQUARE 2)"),  # the numbering HELP describes: row by row
    ]:
        expect_prompt(child, MOVE)
        child.sendline(typed)
        child.expect_exact(said)
    expect_prompt(child, MOVE)
    child.sendline("help")
    child.expect(r"AT YOUR MOVE YOU CAN TYPE:\r\n([\s\S]*?LEAVES AT ONCE)\r\n")
    listed = " ".join(child.match.group(1).split())
    assert "17 PLAY THE SQUARE NUMBERED 17 (1 TO 27, LEVEL BY LEVEL, EACH ROW BY ROW" in listed
    assert "AS SHOW PRINTS" not in listed
    words = set(re.findall(r"[A-Za-z]+", listed)) - {"or", "qubic", "load", "my", "game", "txt"}
    assert all(word.isupper() for word in words), "HELP speaks in capitals"
    expect_prompt(child, MOVE)
    child.sendcontrol("d")
    expect_goodbye(child)
    helped = run_piped("--help").stdout
    assert not re.search(r"\bcells?\b", helped) and "4X4X4" not in helped


@pytest.mark.slow
def test_a_puzzle_names_whose_squares_and_leaving_at_once_counts_nothing():
    board = sitting_puzzle(SEED, 1, 1).board()
    you, machine = board.turn, board.turn.other
    child = spawn("puzzle", "--seed", str(SEED), "--moves", "1", "--no-color")
    for mark, owner in ((you, "YOU"), (machine, "MACHINE")):
        cell = format_cell(next(c for c in board.geometry.cells if board.mark_at(c) is mark))
        expect_prompt(child, MOVE)
        child.sendline(cell)
        child.expect_exact(f"{cell} IS TAKEN BY {mark.name} ({owner}). TRY ANOTHER SQUARE.")
    expect_prompt(child, MOVE)
    child.sendline("quit")
    child.expect("GOODBYE")
    assert "PUZZLES SOLVED" not in child.before, "no puzzle was finished"
    child.expect(pexpect.EOF)
    refused = run_piped("puzzle", "--tui")
    assert "--board and --no-color, not --tui" in refused.stderr
    assert run_piped("puzzle", "--no-color", "--seed", "1", stdin="quit\n").returncode == 0


@pytest.mark.slow
def test_instructions_follow_the_players_and_the_board():
    two = " ".join(run_piped("--players", "2", "--no-record", stdin="yes\nquit\n").stdout.split())
    assert "THE TWO OF YOU PLAY X AND O AT ONE KEYBOARD." in two
    assert "AGAINST THE MACHINE" not in two
    tesseract = run_piped("--variant", "tesseract", "--no-record", stdin="yes\nquit\n").stdout
    said = " ".join(tesseract.split())
    assert "THE BOARD IS A 3x3x3x3 TESSERACT OF 80 SQUARES." in said
    assert said.count("DISABLED") == 2, "the title's board, then the instructions, once each"
    big = run_piped("--size", "5", "--dims", "4", "--no-record", stdin="quit\n").stdout
    assert big.startswith("A VARIANT OF QUBIC\n4-D TIC-TAC-TOE ON A 5x5x5x5 TESSERACT\n")


def test_a_full_cube3_board_says_who_has_the_most_lines():
    piped = run_piped("--variant", "cube3", "--players", "0", "--seed", "0", stdin="no\n")
    assert re.search(r"\n[XO] WINS! THE BOARD IS FULL, AND \d+ LINES ARE THE MOST\. ", piped.stdout)
    assert "FULL AND" not in piped.stdout


@pytest.mark.slow
def test_review_says_its_steps_once_where_it_is_and_who_won(tmp_path):
    game = find_game(Mark.O, NormalPlayer(SEED))
    path = tmp_path / "lost.txt"
    savefile.save(str(path), Settings(seed=SEED), game)
    piped = run_piped("review", str(path))
    blunders = [str(ply + 1) for ply, mark in enumerate(review(game).marks) if mark == "??"]
    assert len(blunders) > 1
    said = (
        f"?? GAVE THE OPPONENT A FORCED WIN: MOVES {', '.join(blunders[:-1])} AND {blunders[-1]}."
    )
    assert said in piped.stdout
    child = spawn("review", str(path), "--no-color")
    question = r"REVIEW \(N, P, F, L, A MOVE NUMBER, MOVES, Q\)\?"
    expect_prompt(child, question)
    child.sendline("sideways")
    child.expect(r"'sideways' IS NOT A REVIEW STEP\.\r\n")
    expect_prompt(child, question)
    assert "REVIEW (" not in child.before, "the question once"
    child.sendline("p")
    child.expect_exact("THIS IS THE START: NO MOVE COMES BEFORE IT.")
    expect_prompt(child, question)
    child.sendline("99")
    child.expect_exact(f"THERE IS NO MOVE 99: THE GAME HAS MOVES 1 TO {len(game.moves)}.")
    expect_prompt(child, question)
    child.sendline("l")
    child.expect_exact("THE GAME IS OVER: O WINS.")
    expect_prompt(child, question)
    child.sendline("n")
    child.expect_exact(f"THIS IS THE END: MOVE {len(game.moves)} WAS THE LAST.")
    expect_prompt(child, question)
    child.sendline("q")
    expect_goodbye(child)


@pytest.mark.slow
def test_the_console_bar_drops_whole_items_as_the_terminal_narrows():
    terminal = Terminal(rows=12)
    terminal.wait("DO YOU WANT INSTRUCTIONS?")
    terminal.type("no\r", "DO YOU WANT TO MOVE FIRST?")
    terminal.type("no\r", "MACHINE PLAYED")
    full = ["MOVE 2", "LEVEL NORMAL", "X TO PLAY (YOU)", "MACHINE PLAYED 111"]
    for columns, kept in [
        (80, full),
        (60, [full[0], *full[2:]]),
        (45, full[2:]),
        (40, full[2:]),
        (70, full),
    ]:
        terminal.child.setwinsize(12, columns)
        terminal.screen.resize(12, columns)
        bar = " " + " | ".join(kept)  # a line of its own: the bar, whole, not a longer one cut
        lines = terminal.wait(lambda bar=bar: bar in terminal.lines())
        assert all(len(line) <= columns for line in lines)
    terminal.close()
