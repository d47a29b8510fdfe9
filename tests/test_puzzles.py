"""Puzzles: each length made and checked against the plain solver, moves judged against the
best defence, reproducible sittings, and the sitting's flow through its answers."""

from __future__ import annotations

from datetime import date
from functools import cache

import pytest

from qubic.core.board import Board
from qubic.core.notation import format_cell
from qubic.play.analysis import own_moves
from qubic.play.puzzle_session import ANOTHER, PuzzleSession
from qubic.play.puzzles import (
    LENGTHS,
    MIXED,
    WINNING,
    Effect,
    Puzzle,
    daily_seed,
    judge,
    sitting_puzzle,
)
from qubic.play.render import Picture
from qubic.play.sitting import GOODBYE
from qubic.search.threats import ThreatSearch
from tests.oracle import wins_within
from tests.positions import assert_forcing_line

SEED = 14


@cache
def puzzle(length: int, seed: int = SEED, number: int = 1) -> Puzzle:
    return sitting_puzzle(seed, number, length)


def after(board: Board, *cells: int) -> Board:
    board = board.copy()
    for cell in cells:
        board.push(cell)
    return board


def slip(board: Board) -> tuple[int, Effect, int]:
    """The first move (lowest cell) that lets the win slip, its outcome and the reply."""
    search = ThreatSearch()
    for cell in board.legal_moves():
        judgement = judge(board, cell, search)
        if judgement.outcome not in WINNING:
            assert judgement.reply is not None
            return cell, judgement.outcome, judgement.reply
    raise AssertionError("every move wins")


@pytest.mark.parametrize("length", LENGTHS)
def test_a_puzzle_of_each_length_has_exactly_that_win_and_a_move_that_misses_it(length):
    board = puzzle(length).board()
    assert not board.is_over() and not board.winning_cells(board.turn)
    assert own_moves(puzzle(length).solution) == length
    assert_forcing_line(board, list(puzzle(length).solution))
    assert wins_within(board, length) and not wins_within(board, length - 1)
    cell, outcome, reply = slip(board)
    if outcome is Effect.LOSES:
        assert reply in after(board, cell).winning_cells(board.turn.other)
    else:
        assert not wins_within(after(board, cell, reply), 12)


@pytest.mark.parametrize("length", [1, 5, 12])
def test_playing_the_solution_meets_the_forced_blocks_and_solves(length):
    board = puzzle(length).board()
    solution = puzzle(length).solution
    search = ThreatSearch()
    for index in range(0, len(solution) - 1, 2):
        judgement = judge(board, solution[index], search)
        assert judgement.outcome is Effect.GOES_ON and judgement.reply == solution[index + 1]
        board = after(board, solution[index], solution[index + 1])
    assert judge(board, solution[-1], search).outcome is Effect.SOLVED


@pytest.mark.slow
def test_the_same_seed_gives_the_same_puzzles_and_another_seed_others():
    assert sitting_puzzle(SEED, 1, 6) == puzzle(6)
    assert sitting_puzzle(SEED, 2, 6) != puzzle(6)
    assert sitting_puzzle(SEED + 1, 1, 6) != puzzle(6)
    mixed = [sitting_puzzle(SEED, number) for number in (1, 2, 3)]
    assert mixed == [sitting_puzzle(SEED, number) for number in (1, 2, 3)]
    assert all(p.length in MIXED for p in mixed)


def test_the_daily_seed_is_the_date():
    assert daily_seed(date(2026, 3, 14)) == 20260314
    assert sitting_puzzle(daily_seed(date(2026, 3, 14)), 1) != sitting_puzzle(
        daily_seed(date(2026, 3, 15)), 1
    )


def test_no_puzzle_outside_the_lengths():
    with pytest.raises(ValueError, match="1 to 12 moves long, not 13"):
        sitting_puzzle(SEED, 1, 13)


def words(output: list) -> list[str]:
    return [item for item in output if not isinstance(item, Picture)]


def sitting(length: int = 3) -> PuzzleSession:
    session = PuzzleSession(SEED, length)
    session.start()
    return session


def test_a_slip_is_refused_with_its_reason_and_changes_nothing():
    session = sitting()
    moves = list(session.board.moves)
    cell, _, reply = slip(session.board)
    output = words(session.answer(format_cell(cell)))
    assert len(output) == 1 and output[0].startswith(f"{format_cell(cell)} LETS THE WIN SLIP: ")
    assert format_cell(reply) in output[0]
    assert output[0].endswith("THE POSITION IS AS IT WAS: TRY AGAIN.")
    assert session.board.moves == moves and session.prompt == "YOUR MOVE?"


def play(session: PuzzleSession, moves: tuple[int, ...]) -> list[str]:
    """Type the attacker's moves of a line; everything said."""
    said = []
    for cell in moves[::2]:
        said += words(session.answer(format_cell(cell)))
    return said


def test_a_sitting_counts_the_puzzles_solved_and_tried():
    session = sitting()
    first = puzzle(3)
    said = play(session, first.solution)
    assert said[0].startswith(f"THE MACHINE BLOCKS AT {format_cell(first.solution[1])}")
    assert said[-2:] == [
        "SOLVED! TWO THREATS AT ONCE: THE MACHINE CANNOT BLOCK BOTH.",
        "PUZZLES SOLVED: 1 OF 1.",
    ]
    assert session.prompt == ANOTHER
    assert session.answer("maybe") == ["PLEASE ANSWER YES OR NO."] and session.prompt == ANOTHER
    assert words(session.answer("yes"))[0].startswith("PUZZLE 2: YOU PLAY")
    second = puzzle(3, number=2)
    solution = session.answer("SOLUTION")
    assert solution[0] == "THE WIN FROM HERE (THIS PUZZLE NO LONGER COUNTS AS SOLVED):"
    assert solution[1].startswith(
        f"  1. {session.board.turn.name} {format_cell(second.solution[0])}  "
    )
    assert len(solution) == 1 + own_moves(second.solution)
    assert play(session, second.solution)[-1] == "PUZZLES SOLVED: 1 OF 2."
    session.answer("yes")
    assert words(session.answer("SKIP"))[-1] == "PUZZLES SOLVED: 1 OF 3."
    assert session.answer("no") == [GOODBYE] and session.done


def test_a_puzzle_solved_with_a_hint_is_done_with_help_and_the_moves_left_count_down():
    session = sitting()
    first = puzzle(3)
    assert "| 3 MOVES LEFT |" in session.status
    hint = session.answer("hint")
    assert hint == [
        f"HINT: {format_cell(first.solution[0])} (THIS PUZZLE NO LONGER COUNTS AS SOLVED)"
    ]
    session.answer(format_cell(first.solution[0]))
    assert "| 2 MOVES LEFT |" in session.status
    said = play(session, first.solution[2:])
    assert said[-2:] == [
        "DONE, WITH HELP! TWO THREATS AT ONCE: THE MACHINE CANNOT BLOCK BOTH.",
        "PUZZLES SOLVED: 0 OF 1.",
    ]


@pytest.mark.parametrize("answer", ["", "999", "hello", "HINT NOW", "SKIP IT", "UNDO", "SAVE x"])
def test_bad_input_at_the_move_gets_one_line_and_the_same_question(answer):
    session = sitting()
    moves = list(session.board.moves)
    assert len(session.answer(answer)) == 1
    assert session.prompt == "YOUR MOVE?" and session.board.moves == moves


def test_quit_leaves_with_the_tally_at_any_question():
    session = sitting()
    assert session.answer("quit") == [GOODBYE] and session.done, "no puzzle tried: no tally"
    session = sitting()
    session.answer("skip")
    assert session.answer("EXIT") == ["PUZZLES SOLVED: 0 OF 1.", GOODBYE] and session.done


def test_help_lists_the_puzzle_commands():
    help_lines = sitting().answer("HELP")
    for command in ("SHOW", "HINT", "SOLUTION", "SKIP", "QUIT"):
        assert any(line.startswith(f"  {command}") for line in help_lines), command
    assert not any(line.startswith(("  UNDO", "  SAVE", "  LEVEL")) for line in help_lines)
