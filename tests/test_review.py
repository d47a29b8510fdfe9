"""Reviewing a game: `qubic review` through a pipe, REVIEW at a game's end in the console, and
the `??` marks checked against an independent threat solver (tests/oracle.py)."""

from __future__ import annotations

import re

import pytest

from qubic.core.board import Board, Mark
from qubic.core.notation import format_cell
from qubic.play import savefile
from qubic.play.navigator import REVIEW_KEYS
from qubic.play.session import Session
from qubic.play.settings import Settings
from qubic.play.sitting import Stage
from qubic.players.normal import NormalPlayer
from tests.conftest import expect_goodbye, expect_prompt, run_piped, spawn
from tests.oracle import wins_within
from tests.scripted import find_game

SEED = 5
DEPTH = 8  # the oracle's reach, in own moves


def oracle_blunders(game: Board) -> list[int]:
    """The moves (1-based) after which the opponent wins by threats, when before them some
    move left the opponent without such a win: found by trying every move, plainly."""
    found = []
    for ply in range(len(game.moves)):
        after = Board.from_moves(game.moves[: ply + 1], first=game.first)
        if after.is_over() or not wins_within(after, DEPTH):
            continue
        before = Board.from_moves(game.moves[:ply], first=game.first)
        for cell in before.legal_moves():
            before.push(cell)
            stopped = before.is_over() or not wins_within(before, DEPTH)
            before.pop()
            if stopped:
                found.append(ply + 1)
                break
    return found


def test_review_through_a_pipe_marks_the_blunders_where_an_independent_check_does():
    game = find_game(Mark.O, NormalPlayer(SEED))
    line = savefile.export(Settings(seed=SEED), game)
    result = run_piped("review", line)
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    listed = lines[: len(game.moves)]
    for ply, (text, cell) in enumerate(zip(listed, game.moves, strict=True)):
        assert re.fullmatch(rf" *{ply + 1}\. [XO] {format_cell(cell)}(\?\?|\?!)?", text), text
    marked = [ply + 1 for ply, text in enumerate(listed) if text.endswith("??")]
    assert marked and marked == oracle_blunders(game)
    assert any(text.startswith("X LEFT THE WINNING STRATEGY AT MOVE ") for text in lines)


def test_review_refuses_what_it_cannot_read_in_one_line():
    result = run_piped("review", "no-such-game.txt")
    assert result.returncode == 2
    said = "qubic: cannot review no-such-game.txt: there is no such file or folder"
    assert result.stderr.strip() == said


def test_review_steps_through_the_game_and_done_returns_to_its_end():
    session = Session(Settings(players=2))
    session.start()
    session.answer("no")
    for move in ("111", "211", "112", "212", "113", "213", "114"):
        session.answer(move)
    end = list(session.board.moves)
    said = session.answer("REVIEW")
    assert REVIEW_KEYS in said and "THE START." in said and session.board.moves == []
    assert session.prompt == Stage.REVIEW.value
    assert session.answer("p") == ["THIS IS THE START: NO MOVE COMES BEFORE IT."]
    assert session.answer("3")[1].startswith("MOVE 3. X 112 (3 OF 7)")
    assert session.board.moves == end[:3]
    assert session.answer("8") == ["THERE IS NO MOVE 8: THE GAME HAS MOVES 1 TO 7."]
    assert session.answer("sideways") == ["'sideways' IS NOT A REVIEW STEP."]
    session.answer("L")
    assert session.answer("n") == ["THIS IS THE END: MOVE 7 WAS THE LAST."]
    assert session.answer("q") == [] and session.stage is Stage.PLAY_AGAIN
    assert session.board.moves == end


@pytest.mark.slow
def test_review_at_the_end_of_a_console_game_steps_through_it():
    game = find_game(Mark.X, NormalPlayer(SEED))
    before_the_win = Board.from_moves(game.moves[:-1])
    child = spawn("--load", savefile.export(Settings(seed=SEED), before_the_win), "--no-color")
    expect_prompt(child, r"YOUR MOVE\?")
    child.sendline(format_cell(game.moves[-1]))
    child.expect("YOU WIN!")
    expect_prompt(child, r"ANOTHER GAME\?")
    child.sendline("review")
    child.expect_exact("THE START.")
    expect_prompt(child, r"REVIEW \(N, P, F, L, A MOVE NUMBER, MOVES, Q\)\?")
    child.sendline("n")
    child.expect_exact(f"MOVE 1. X {format_cell(game.moves[0])}")
    expect_prompt(child, r"REVIEW")
    child.sendline("sideways")
    child.expect_exact("'sideways' IS NOT A REVIEW STEP.")
    expect_prompt(child, r"REVIEW")
    child.sendline("L")
    child.expect_exact("THE GAME IS OVER: X WINS.")
    expect_prompt(child, r"REVIEW")
    child.sendline("q")
    expect_prompt(child, r"ANOTHER GAME\?")
    child.sendline("no")
    expect_goodbye(child)
