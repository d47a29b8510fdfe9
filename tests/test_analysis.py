"""ANALYZE: its verdicts on positions mined from machine games, checked independently.

A claimed win is replayed move by move on a plain Board (every reply the defender's only
one); a claimed stop leaves the plain solver nothing; every other move is refuted by a line
that replays the same way; positions called quiet give the plain solver nothing either.
"""

from __future__ import annotations

import random

import pytest

from qubic.analysis import Analysis, Verdict, analyze, describe
from qubic.board import Board, Mark
from qubic.game import Session
from qubic.levels import make_player
from qubic.notation import format_cell, parse_cell
from qubic.settings import Settings
from tests.oracle import winning_first_moves
from tests.scripted import position
from tests.test_engine import EngineProcess
from tests.test_threats import CHAIN_4, ONE_SAVING_MOVE, assert_forcing_line

ORACLE_DEPTH = 2  # own moves the plain solver looks ahead: it tries every move at each


def mined_games(count: int = 6, seed: int = 14) -> list[Board]:
    """Whole games between seeded machine players at mixed levels."""
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        players = [make_player(rng.choice(["easy", "normal"]), rng.randrange(1000)) for _ in Mark]
        board = Board()
        while not board.is_over():
            board.push(players[board.turn].choose(board).cell)
        games.append(board)
    return games


def positions() -> list[tuple[Board, int]]:
    """Every unfinished position of the mined games, with the move the game played there."""
    found = []
    for game in mined_games():
        for ply, cell in enumerate(game.moves):
            found.append((Board.from_moves(game.moves[:ply]), cell))
    return found


POSITIONS = positions()


def after(board: Board, cell: int) -> Board:
    board = board.copy()
    board.push(cell)
    return board


def flipped(board: Board) -> Board:
    """The position with the other side to move (a pass), for asking about its wins."""
    board = board.copy()
    board.push_pass()
    return board


@pytest.mark.parametrize("board, played", POSITIONS[::3])
def test_verdicts_hold_up_on_mined_positions(board, played):
    moves = list(board.moves)
    analysis = analyze(board)
    assert board.moves == moves, "the board is not changed"
    if analysis.verdict is Verdict.WIN:
        assert_forcing_line(board, list(analysis.line))
        return
    assert not winning_first_moves(board.copy(), ORACLE_DEPTH), "no win is missed"
    if analysis.verdict is Verdict.QUIET:
        assert not winning_first_moves(flipped(board), ORACLE_DEPTH)
        return
    assert_forcing_line(flipped(board), list(analysis.line))
    # The move the game played: a stop leaves the opponent nothing, any other loses.
    next_analysis = analyze(after(board, played))
    if played in analysis.stops:
        assert next_analysis.verdict is not Verdict.WIN
        assert not winning_first_moves(after(board, played), ORACLE_DEPTH)
    else:
        assert next_analysis.verdict is Verdict.WIN
        assert_forcing_line(after(board, played), list(next_analysis.line))


def defending_positions(count: int) -> list[Board]:
    return [board for board, _ in POSITIONS
            if analyze(board).verdict in (Verdict.DEFEND, Verdict.LOST)][:count]


@pytest.mark.parametrize("board", defending_positions(6))
def test_every_move_either_stops_the_opponent_or_loses_to_a_line_that_replays(board):
    analysis = analyze(board)
    assert (analysis.verdict is Verdict.LOST) == (not analysis.stops)
    for cell in board.legal_moves():
        reply = analyze(after(board, cell))
        if cell in analysis.stops:
            assert reply.verdict is not Verdict.WIN
            assert not winning_first_moves(after(board, cell), ORACLE_DEPTH)
        else:
            assert reply.verdict is Verdict.WIN, format_cell(cell)
            assert_forcing_line(after(board, cell), list(reply.line))


def test_the_mined_positions_hold_every_verdict():
    verdicts = {analyze(board).verdict for board, _ in POSITIONS}
    assert verdicts == set(Verdict)


def test_the_only_saving_move_is_named():
    analysis = analyze(ONE_SAVING_MOVE)
    assert analysis.verdict is Verdict.DEFEND
    assert analysis.stops == (parse_cell("113"),)
    assert describe(analysis)[-1] == "MOVES THAT STOP IT: 113."


def test_a_win_is_described_with_every_move_and_reply():
    analysis = analyze(CHAIN_4)
    assert analysis.verdict is Verdict.WIN and len(analysis.line) == 7
    mover, other = CHAIN_4.turn.name, CHAIN_4.turn.other.name
    cells = [format_cell(cell) for cell in analysis.line]
    assert describe(analysis) == [
        f"{mover} TO MOVE HAS A FORCED WIN BY THREATS IN 4 MOVES:",
        f"  1. {mover} {cells[0]}  {other} {cells[1]}",
        f"  2. {mover} {cells[2]}  {other} {cells[3]}",
        f"  3. {mover} {cells[4]}  {other} {cells[5]}",
        f"  4. {mover} {cells[6]}  TWO THREATS AT ONCE"]


def test_a_threat_nobody_can_stop_is_lost():
    board = position(x="111 112 113 121 131", o="444 332 223 342")  # X: 114 and 141, O to move
    analysis = analyze(board)
    assert analysis.verdict is Verdict.LOST
    assert analysis.at_once
    assert describe(analysis) == [
        f"O TO MOVE HAS NO FORCED WIN; X THREATENS TO WIN AT {format_cell(analysis.line[0])}.",
        "MOVES THAT STOP IT: NONE. EVERY MOVE LOSES TO IT."]


def test_the_start_is_quiet_and_a_proof_is_reported_when_it_knows():
    assert describe(analyze(Board(), book={})) == [
        "NEITHER SIDE HAS A FORCED WIN BY THREATS (THE SEARCH LOOKS 16 MOVES DEEP)."]
    analysis = analyze(Board(), book={(0, 0): 0})
    assert analysis == Analysis(Verdict.QUIET, Mark.X, perfect=Mark.X)
    assert describe(analysis)[-1] == "X WINS WITH PERFECT PLAY (THE PROOF'S STRATEGY)."


def test_analyze_at_the_move_prompt_changes_nothing():
    session = Session(Settings(players=2))
    session.start()
    session.answer("no")
    for move in ("111", "444", "112", "443", "113"):
        session.answer(move)
    moves = list(session.board.moves)
    assert session.answer("ANALYZE") == describe(analyze(session.board))
    assert session.answer("analyze") == describe(analyze(session.board))
    assert session.board.moves == moves and session.prompt == "O, YOUR MOVE?"
    assert session.answer("ANALYZE NOW") == ["ANALYZE TAKES NOTHING AFTER IT."]


def engine_position(board: Board) -> str:
    return "position startpos moves " + " ".join(format_cell(cell) for cell in board.moves)


def test_the_engine_answers_analyze_in_one_line():
    lost = position(x="111 112 113 121 131", o="444 332 223 342")
    engine = EngineProcess()
    try:
        expected = {
            Board(): "analysis quiet",
            ONE_SAVING_MOVE: "analysis defend 113",
            CHAIN_4: "analysis win " + " ".join(map(format_cell, analyze(CHAIN_4).line)),
            lost: f"analysis lost {format_cell(analyze(lost).line[0])}",
        }
        for board, answer in expected.items():
            engine.process.stdin.write(engine_position(board) + "\n")
            assert engine.ask("analyze") == answer
        assert engine.ask("analyze deeply") == "error analyze takes nothing after it"
        engine.process.stdin.write("position startpos moves 111 112 222 113 333 114 444\n")
        assert engine.ask("analyze") == "error the game is over"
        assert engine.quit() == 0
    finally:
        engine.process.kill()
        engine.process.wait()
