"""The engine protocol, through the real `qubic engine` process, one command at a time."""

from __future__ import annotations

import re
import subprocess

import pytest

from qubic.core.board import Board
from qubic.core.notation import parse_cell, parse_moves
from qubic.players.levels import LEVELS
from tests.conftest import program_env, qubic_command, run_piped


class EngineProcess:
    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen(
            [qubic_command(), "engine", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
            env=program_env(),
        )

    def ask(self, command: str) -> str:
        """Send one command and read its one-line answer."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        return self.process.stdout.readline().rstrip("\n")

    def quit(self) -> int:
        assert self.process.stdin is not None
        self.process.stdin.write("quit\n")
        self.process.stdin.flush()
        return self.process.wait(timeout=30)


@pytest.fixture
def engine():
    process = EngineProcess("--seed", "4")
    yield process
    if process.process.poll() is None:
        process.process.kill()
    process.process.wait()


def test_isready_and_quit(engine):
    assert engine.ask("isready") == "readyok"
    assert engine.quit() == 0
    assert engine.process.stderr.read() == ""


def test_go_from_the_start_and_from_a_position(engine):
    first = engine.ask("go")
    assert re.fullmatch(r"bestmove [1-4]{3}", first)
    engine.process.stdin.write("position startpos moves 111 112 222 113 333\n")
    answer = engine.ask("go")
    cell = parse_cell(answer.split()[1])
    assert cell not in {parse_cell(m) for m in ("111", "112", "222", "113", "333")}
    assert cell == parse_cell("444"), "O must block X's space diagonal"


@pytest.mark.slow
@pytest.mark.parametrize("level", list(LEVELS))
def test_every_level_answers_with_a_legal_move(engine, level):
    moves = "111 112 222 221 141"
    engine.process.stdin.write(f"position startpos moves {moves}\n")
    answer = engine.ask(f"go level {level} movetime 500")
    board = Board.from_moves(parse_moves(moves))
    assert board.is_legal(parse_cell(answer.removeprefix("bestmove ")))


def test_hard_takes_a_forced_win(engine):
    # X: 121 131 112 113 meet at 111 (row R1 and column C1 of level 1); O scattered.
    engine.process.stdin.write("position startpos moves 121 444 131 343 112 234 113 424\n")
    assert engine.ask("go level hard") == "bestmove 111"


@pytest.mark.slow
@pytest.mark.parametrize(
    "command, reason",
    [
        ("fly", "unknown command 'fly'"),
        ("position", "expected: position startpos"),
        ("position somewhere", "expected: position startpos"),
        ("position startpos 111", "expected 'moves' after startpos"),
        ("position startpos moves 111 111", "move 2 '111': that square is taken"),
        ("position startpos moves 111 5111", "move 2 '5111': moves need three coordinates"),
        ("position startpos moves 111 65", "move 2 '65': cells are numbered 1 to 64"),
        ("variant chess", "there is no variant 'chess'"),
        ("variant qubic size 12", "size must be 3 to 9"),
        ("variant qubic no-centre", "no-centre needs an odd size"),
        ("variant tesseract sides 5", "sides must be 2 to 4"),
        ("variant qubic target", "target needs a whole number"),
        ("position startpos moves 111 511", "move 2 '511': coordinates run from 1 to 4"),
        ("go level grandmaster", "unknown level 'grandmaster'"),
        ("go movetime soon", "movetime must be a positive whole number"),
        ("go movetime 0", "movetime must be a positive whole number"),
        ("go level", "go level needs a value"),
        ("go depth 3", "unknown go option 'depth'; go takes level NAME, elo RATING, movetime MS"),
        (
            "go infinite",
            "unknown go option 'infinite'; go takes level NAME, elo RATING, movetime MS",
        ),
    ],
)
def test_errors_say_why_and_change_nothing(engine, command, reason):
    engine.process.stdin.write("position startpos moves 111 112 222 113 333\n")
    answer = engine.ask(command)
    assert answer.startswith("error ") and reason in answer
    assert engine.ask("go") == "bestmove 444", "the position is unchanged"
    assert engine.ask("isready") == "readyok"


def test_a_finished_game_has_no_best_move(engine):
    engine.process.stdin.write("position startpos moves 111 112 222 113 333 114 444\n")
    assert engine.ask("go") == "error the game is over"
    assert engine.ask("position startpos moves 111 112 222 113 333 114 444 121") == (
        "error move 8 '121': the game is already over"
    )


def test_newgame_returns_to_the_start(engine):
    engine.process.stdin.write("position startpos moves 111 112 222 113 333 114 444\n")
    engine.process.stdin.write("newgame\n")
    assert re.fullmatch(r"bestmove [1-4]{3}", engine.ask("go"))


def test_piped_script_and_end_of_input():
    script = "isready\nposition startpos moves 111\n\ngo level normal\n"
    first = run_piped("engine", "--seed", "8", stdin=script)
    again = run_piped("engine", "--seed", "8", stdin=script)
    assert first.returncode == 0 and first.stderr == ""
    assert first.stdout.splitlines()[0] == "readyok"
    assert re.fullmatch(r"bestmove [1-4]{3}", first.stdout.splitlines()[1])
    assert len(first.stdout.splitlines()) == 2
    assert first.stdout == again.stdout, "same seed, same replies"


def test_variant_selects_a_game_resets_and_names_itself(engine):
    assert engine.ask("variant") == "variant qubic size 4 dims 3 target 1 sides 2"
    engine.process.stdin.write("position startpos moves 111\n")
    engine.process.stdin.write("variant TESSERACT sides 4\n")
    assert engine.ask("variant") == "variant tesseract size 3 dims 4 target 9 sides 4 no-centre"
    # Reset: the first move is X's again, and moves are four digits or a tile number.
    engine.process.stdin.write("position startpos moves 1111 1223 3 81 2\n")
    assert re.fullmatch(r"bestmove [1-3]{4}", engine.ask("go level shrewd"))
    assert engine.ask("position startpos moves 2222") == (
        "error move 1 '2222': 2222 is the centre, which is disabled"
    )
    assert engine.ask("go level hard") == (
        "error level hard plays two-sided games where the first line wins only"
    )
    assert engine.ask("go level classic").startswith("error level classic plays QUBIC")
    engine.process.stdin.write("variant cube3 target 3 sides 3\n")
    assert engine.ask("variant") == "variant cube3 size 3 dims 3 target 3 sides 3"
    assert re.fullmatch(r"bestmove [1-3]{3}", engine.ask("go"))


def test_every_level_that_plays_a_variant_answers_in_it(engine):
    for spec, levels in (
        ("cube3", ["easy", "normal", "shrewd"]),
        ("qubic size 3", ["hard", "expert"]),
    ):
        engine.process.stdin.write(f"variant {spec}\n")
        engine.process.stdin.write("position startpos moves 111 222\n")
        for level in levels:
            answer = engine.ask(f"go level {level}")
            assert re.fullmatch(r"bestmove [1-3]{3}", answer), (spec, level, answer)
            assert answer not in ("bestmove 111", "bestmove 222")


def test_help_lists_every_command_the_engine_takes(engine):
    engine.process.stdin.write("help\nisready\n")
    engine.process.stdin.flush()
    lines = []
    while (line := engine.process.stdout.readline().rstrip("\n")) != "readyok":
        lines.append(line)
    listed = {line.split()[1].rstrip(":") for line in lines}
    assert all(line.startswith("help ") for line in lines)
    for command in ("isready", "variant", "position", "go", "newgame", "analyze", "help", "quit"):
        assert command in listed
        if command != "quit":  # each is known: its answer (some answer nothing) is no such error
            engine.process.stdin.write(f"{command}\nisready\n")
            engine.process.stdin.flush()
            while (line := engine.process.stdout.readline().rstrip("\n")) != "readyok":
                assert not line.startswith("error unknown command"), command
    assert engine.quit() == 0
