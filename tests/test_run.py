"""The console loop without a terminal: the turn clock, time running out, the watching pause."""

import io
import os

import pytest

from qubic.play.session import Session
from qubic.play.settings import Settings
from qubic.ui import console
from qubic.ui.console import PipedAsker, TimeUp, run
from qubic.ui.shared import TurnClock
from tests.conftest import run_piped


class Scripted:
    """An asker answering from a list; None stands for time running out, the end for Ctrl-D."""

    def __init__(self, answers: list[str | None]) -> None:
        self.answers = list(answers)
        self.asked: list[tuple[str, float | None]] = []

    def ask(self, question: str, seconds: float | None = None) -> str:
        self.asked.append((question, seconds))
        if not self.answers:
            raise EOFError
        answer = self.answers.pop(0)
        if answer is None:
            raise TimeUp
        return answer


def test_watching_pauses_between_machine_moves_only(monkeypatch):
    sleeps: list[float] = []
    monkeypatch.setattr(console.time, "sleep", sleeps.append)
    out = io.StringIO()
    assert run(Session(Settings(players=0, seed=3)), Scripted(["no"]), out, pause=0.5) == 0
    moves = out.getvalue().count(" MOVES TO ")
    assert moves > 10 and sleeps == [0.5] * (moves - 1)


def test_no_pause_against_a_person(monkeypatch):
    sleeps: list[float] = []
    monkeypatch.setattr(console.time, "sleep", sleeps.append)
    out = io.StringIO()
    run(Session(Settings(seed=3)), Scripted(["no", "no", "111"]), out, pause=0.5)
    assert out.getvalue().count("MACHINE MOVES TO") == 2 and sleeps == []


def test_time_running_out_passes_the_turn_and_the_machine_moves():
    out = io.StringIO()
    asker = Scripted(["no", "yes", None, "moves"])
    run(Session(Settings(seed=3, time_limit=20.0)), asker, out)
    text = out.getvalue()
    assert "TIME IS UP. YOUR TURN PASSES TO THE MACHINE.\nMACHINE MOVES TO " in text
    assert " 1. X PASS (YOU)" in text
    seconds = [left for _, left in asker.asked]
    assert seconds[:2] == [None, None]  # the yes/no questions are untimed
    assert all(0 < left <= 20.0 for left in seconds[2:])


def test_the_turn_clock_runs_through_commands_and_undo_and_restarts_each_turn(monkeypatch):
    now = [100.0]
    monkeypatch.setattr(console.time, "monotonic", lambda: now[0])
    session = Session(Settings(time_limit=10.0))
    clock = TurnClock()
    assert clock.left(session) is None
    session.answer("no")
    session.answer("yes")
    assert clock.left(session) == 10.0
    now[0] += 4
    session.answer("show")
    session.answer("nonsense")
    assert clock.left(session) == 6.0
    session.answer("111")
    session.machine_move()
    assert clock.left(session) == 10.0
    now[0] += 3
    session.answer("undo")
    assert clock.left(session) == 7.0, "UNDO gives no time back"
    session.answer("222")
    session.machine_move()
    assert clock.left(session) == 10.0, "a new turn after UNDO has the whole limit again"


def test_piped_answers_already_read_are_not_waited_for():
    read, write = os.pipe()
    out = io.StringIO()
    asker = PipedAsker(read, out)
    try:
        os.write(write, b"yes\nno\r\n")
        # Both lines arrive in one read; the second must not wait on select for more input.
        assert asker.ask("ONE?", 5.0) == "yes"
        assert asker.ask("TWO?", 5.0) == "no"
        with pytest.raises(TimeUp):
            asker.ask("THREE?", 0.05)
        os.write(write, b"last")
        os.close(write)
        assert asker.ask("FOUR?") == "last"
        with pytest.raises(EOFError):
            asker.ask("FIVE?")
    finally:
        os.close(read)
    assert out.getvalue() == "ONE? yes\nTWO? no\nTHREE? \nFOUR? last\nFIVE? \n"


@pytest.mark.parametrize("args", [["--level", "foo"], ["--size", "12"], ["foo"]])
def test_a_command_line_error_is_one_line_with_a_pointer_to_help(args):
    # The 6-line usage used to come before the reason.
    result = run_piped(*args)
    assert result.returncode == 2
    [line] = result.stderr.splitlines()
    assert line.startswith("qubic: error: ") and line.endswith("(see qubic --help)")


def test_a_command_at_a_yes_no_question_is_answered():
    result = run_piped("--seed", "1", stdin="no\nLEVEL classic\nyes\nquit\n")
    assert "LEVEL WORKS AT YOUR MOVE. HERE, PLEASE ANSWER YES OR NO (OR QUIT)." in result.stdout
