"""ANALYZE and the engine's analyze: verdicts on positions mined from machine games, checked
independently.

A claimed win is replayed move by move on a plain Board (every reply the defender's only
one) and the plain solver finds none shorter; where no win is claimed the plain solver finds
none within 12 own moves; a claimed stop leaves the plain solver nothing, and every other
move loses to a line that replays; positions called quiet give the plain solver nothing for
either side, nor a search twice as deep.
"""

from __future__ import annotations

import random
from functools import cache

import pytest

from qubic.core.board import Board, Mark
from qubic.core.geometry import CUBE
from qubic.core.notation import format_cell, parse_cell
from qubic.core.variant import CUBE3, QUBIC, TESSERACT
from qubic.play.analysis import Analysis, Unanswered, Verdict, analyze, describe, own_moves
from qubic.play.puzzles import machine_game
from qubic.play.session import Session
from qubic.play.settings import Settings
from qubic.search.threats import MAX_THREATS, ThreatSearch
from tests.oracle import wins_within
from tests.positions import CHAIN_4, LONG_CHAIN, ONE_SAVING_MOVE, assert_forcing_line
from tests.scripted import engine_position, moves, position
from tests.test_defence import plain_delay
from tests.test_engine import EngineProcess

WITHIN = 12  # own moves: no forced win that long is missed
GAMES = 8
LOST = position(x="111 112 113 121 131", o="444 332 223 342")  # X: 114 and 141, O to move
FIRST_LINE_CUBE3 = CUBE3.with_options(target=1)


@cache
def mined_game(seed: int) -> tuple[int, ...]:
    """A whole game between seeded machine players at mixed levels."""
    return tuple(machine_game(random.Random(seed)))


def mined_positions() -> list[Board]:
    return [
        Board.from_moves(mined_game(seed)[:ply])
        for seed in range(GAMES)
        for ply in range(len(mined_game(seed)))
    ]


def after(board: Board, cell: int) -> Board:
    board = board.copy()
    board.push(cell)
    return board


def flipped(board: Board) -> Board:
    """The position with the other side to move (a pass), for asking about its wins."""
    board = board.copy()
    board.push_pass()
    return board


def check_win(board: Board, analysis: Analysis) -> None:
    assert_forcing_line(board, list(analysis.line))
    length = own_moves(analysis.line)
    assert analysis.at_once == bool(board.winning_cells(board.turn))
    assert wins_within(board, length)
    assert analysis.at_once or not wins_within(board, length - 1), "the line is the shortest"


def check_moves_against_the_threat(board: Board, analysis: Analysis) -> None:
    """Every stop leaves the opponent nothing; every delay leaves its win standing after the
    forced exchange (by the plain solver); every other move loses to a line that replays."""
    assert (analysis.verdict is Verdict.LOST) == (not analysis.stops)
    for cell in board.legal_moves():
        reply = analyze(after(board, cell))
        if cell in analysis.stops:
            assert reply.verdict is not Verdict.WIN
            assert not wins_within(after(board, cell), WITHIN), format_cell(cell)
        elif cell in analysis.delays:
            assert plain_delay(board, cell), format_cell(cell)
        else:
            assert reply.verdict is Verdict.WIN, format_cell(cell)
            assert_forcing_line(after(board, cell), list(reply.line))


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(GAMES))
def test_verdicts_hold_up_on_every_position_of_a_mined_game(seed):
    game = mined_game(seed)
    for ply in range(len(game)):
        board = Board.from_moves(game[:ply])
        analysis = analyze(board)
        assert board.moves == list(game[:ply]), "the board is not changed"
        if analysis.verdict is Verdict.WIN:
            check_win(board, analysis)
            continue
        assert not wins_within(board, WITHIN), f"a win is missed after {ply} moves"
        me, you = board.pair()
        if analysis.verdict is Verdict.QUIET:
            assert not wins_within(flipped(board), WITHIN)
            deeper = ThreatSearch()
            assert deeper.forced_win(me, you, 2 * MAX_THREATS, shortest=False) is None
            assert deeper.forced_win(you, me, 2 * MAX_THREATS, shortest=False) is None
            continue
        assert_forcing_line(flipped(board), list(analysis.line))
        check_win(flipped(board), analyze(flipped(board)))


@pytest.mark.slow
def test_the_mined_positions_hold_every_verdict():
    verdicts = {analyze(board).verdict for board in mined_positions()}
    assert verdicts == set(Verdict)


@pytest.mark.slow
@pytest.mark.parametrize("index", range(6))
def test_every_move_either_stops_the_opponent_or_loses_to_a_line_that_replays(index):
    defending = [
        board
        for board in mined_positions()
        if analyze(board).verdict in (Verdict.DEFEND, Verdict.LOST)
    ]
    board = defending[index * len(defending) // 6]
    check_moves_against_the_threat(board, analyze(board))


def test_a_long_win_is_found_whole():
    analysis = analyze(LONG_CHAIN)
    assert analysis.verdict is Verdict.WIN and own_moves(analysis.line) == 10
    check_win(LONG_CHAIN, analysis)


def test_threes_that_only_delay_are_named_apart_and_stop_nothing():
    # 113 and 143, each a three, were once called stops: after the forced block X's forced
    # win stands and every move of O's loses to it.
    analysis = analyze(ONE_SAVING_MOVE)
    assert analysis.verdict is Verdict.LOST
    assert analysis.stops == ()
    assert analysis.delays == (parse_cell("113"), parse_cell("143"))
    assert describe(analysis)[-2:] == [
        "MOVES THAT STOP IT: NONE. EVERY MOVE LOSES TO IT.",
        "ONLY DELAYS IT: 113 143.",
    ]
    check_moves_against_the_threat(ONE_SAVING_MOVE, analysis)


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
        f"  4. {mover} {cells[6]}  TWO THREATS AT ONCE",
    ]


def test_a_threat_nobody_can_stop_is_lost():
    analysis = analyze(LOST)
    assert analysis.verdict is Verdict.LOST and analysis.at_once
    assert describe(analysis) == [
        f"O TO MOVE HAS NO FORCED WIN; X THREATENS TO WIN AT {format_cell(analysis.line[0])}.",
        "MOVES THAT STOP IT: NONE. EVERY MOVE LOSES TO IT.",
    ]
    check_moves_against_the_threat(LOST, analysis)


PROOF = "X WINS WITH PERFECT PLAY (THE PROOF'S STRATEGY)."


def book_holding(board: Board) -> dict[tuple[int, int], int]:
    """A strategy book with one entry: `board` (X to move), in its canonical image."""
    key, symmetry = CUBE.orient(board.bits[Mark.X], board.bits[Mark.O])
    return {key: symmetry[board.legal_moves()[0]]}


def test_the_start_is_quiet_and_the_proof_is_named_where_its_book_holds_the_position():
    assert describe(analyze(Board(), book={})) == [
        "NEITHER SIDE HAS A FORCED WIN BY THREATS (THE SEARCH LOOKS 16 MOVES DEEP)."
    ]
    analysis = analyze(Board(), book=book_holding(Board()))
    assert analysis == Analysis(Verdict.QUIET, Mark.X, perfect=Mark.X)
    assert describe(analysis)[-1] == PROOF


def test_the_book_is_read_under_the_cube_s_symmetries_and_only_for_the_first_mover():
    board = Board.from_moves(moves("111 222"))
    mirrored = Board.from_moves(moves("444 333"))  # the same position turned about the centre
    book = book_holding(board)
    assert analyze(mirrored, book=book).perfect is Mark.X
    assert analyze(Board.from_moves(moves("111 223")), book=book).perfect is None
    assert analyze(after(board, parse_cell("114")), book=book).perfect is None  # O to move
    # With O moving first, the proof's first mover is O.
    o_first = Board.from_moves(moves("111 222"), first=Mark.O)
    assert analyze(o_first, book=book).perfect is Mark.O
    assert describe(analyze(o_first, book=book))[-1] == PROOF.replace("X", "O", 1)


def test_analyze_at_the_move_prompt_changes_nothing():
    session = Session(Settings(players=2))
    session.start()
    session.answer("no")
    for move in ("111", "444", "112", "443", "113"):
        session.answer(move)
    moves_before = list(session.board.moves)
    assert session.answer("ANALYZE") == describe(analyze(session.board))
    assert session.answer("analyze") == describe(analyze(session.board))
    assert session.board.moves == moves_before and session.prompt == "O, YOUR MOVE?"
    assert session.answer("ANALYZE NOW") == ["ANALYZE TAKES NOTHING AFTER IT."]


def test_a_first_line_variant_is_analysed_on_its_own_cube():
    board = Board.from_moves([0, 13, 1], FIRST_LINE_CUBE3)  # X 111 112 and O 222, O to move
    analysis = analyze(board)  # O blocks at 113 with a threat of its own, and wins on
    assert analysis.verdict is Verdict.WIN and analysis.line[0] == parse_cell("113", board.geometry)
    check_win(board, analysis)
    words = describe(analysis, board.geometry)
    assert words[0] == f"O TO MOVE HAS A FORCED WIN BY THREATS IN {own_moves(analysis.line)} MOVES:"
    assert words[1].startswith("  1. O 113  X ")
    session = Session(Settings(players=2, variant=FIRST_LINE_CUBE3))
    session.start()
    session.answer("no")
    for move in ("111", "222", "112"):
        session.answer(move)
    assert session.answer("ANALYZE") == words


ONE_LINE = "analysis is for two-sided games where the first line wins"


@pytest.mark.parametrize(
    "variant", [CUBE3, TESSERACT.with_options(sides=4), QUBIC.with_options(sides=3)]
)
def test_scoring_and_many_sided_games_get_one_line(variant):
    with pytest.raises(Unanswered, match=ONE_LINE):
        analyze(Board(variant))
    session = Session(Settings(players=variant.sides, variant=variant))
    session.start()
    session.answer("no")
    assert session.answer("ANALYZE") == [ONE_LINE.upper() + "."]


def test_a_search_out_of_budget_says_so_rather_than_guess():
    with pytest.raises(Unanswered, match="the search ran out of its budget on this board"):
        analyze(LONG_CHAIN, ThreatSearch(nodes=100))


def test_the_engine_answers_analyze_in_one_line():
    engine = EngineProcess()
    try:
        expected = {
            Board(): "analysis quiet",
            ONE_SAVING_MOVE: "analysis lost "
            + " ".join(map(format_cell, analyze(ONE_SAVING_MOVE).line))
            + " delays 113 143",
            CHAIN_4: "analysis win " + " ".join(map(format_cell, analyze(CHAIN_4).line)),
            LOST: f"analysis lost {format_cell(analyze(LOST).line[0])}",
        }
        for board, answer in expected.items():
            engine.process.stdin.write(engine_position(board) + "\n")
            assert engine.ask("analyze") == answer
        assert engine.ask("analyze deeply") == "error analyze takes nothing after it"
        engine.process.stdin.write("position startpos moves 111 112 222 113 333 114 444\n")
        assert engine.ask("analyze") == "error the game is over"
        engine.process.stdin.write("variant cube3 target 1\n")
        engine.process.stdin.write("position startpos moves 111 222 112\n")
        assert engine.ask("analyze").startswith("analysis win 113 ")
        engine.process.stdin.write("variant cube3\n")
        assert engine.ask("analyze") == f"error {ONE_LINE}"
        assert engine.quit() == 0
    finally:
        engine.process.kill()
        engine.process.wait()
