"""What a defence is: a move stops a forced win by threats, or a three only delays it.

The rule lives in `qubic.search.defence`; ANALYZE, the engine's `analyze`, HINT and the levels
use it. These tests check it against `tests.oracle`, a plain solver over the Board API that
shares no code with the search, in positions where a three only delays and where a three is
a real stop, through the API, through ANALYZE in a pseudo-terminal and through `analyze` in
the engine protocol.
"""

from __future__ import annotations

from typing import NamedTuple

import pytest

from qubic.core.board import Board
from qubic.core.notation import format_cell, parse_cell
from qubic.play import savefile
from qubic.play.analysis import Verdict, analyze
from qubic.play.review import BLUNDER, review
from qubic.play.settings import Settings
from qubic.players.levels import make_player
from qubic.search.defence import best_defence, defences, stopping
from qubic.search.threats import ThreatSearch
from tests.conftest import expect_goodbye, expect_prompt, spawn
from tests.oracle import wins_within
from tests.scripted import engine_position, moves
from tests.test_engine import EngineProcess

WITHIN = 16  # the attacker's own moves the plain solver looks through (the search's reach)

# After 112 (a three) and X's forced block at 142, O to move has no stop: 112 only delays.
# 142, 222 and 411 stop X's forced win 222 444 211 244 411.
DELAYED = "133 113 111 331 144 122 333 132 233 433 221"
# A three that is a real stop (323: its forced block leaves O no forced win) beside threes
# that only delay (213, 423), found in the benchmark's defence positions.
MIXED = "144 233 111 133 114 333 112 113 433 123 143 223 443"
# 132 is a three whose forced block leaves X a forced win, but O, to move again, has a stop:
# so 132 stops too (one turn later), where 432 only delays.
LATER = "141 232 411 233 234 332 134 434 321 231 131"
# 142 and 312 stop X's win only further on: 142's exchange (142 132) leaves X's win standing
# with O to move, and O's three 242 (242 342) does too, before 312 stops it. 132 and 213 delay.
CHAIN = (
    "414 411 444 144 322 114 111 333 141 232 434 424 441 112 432 423 143 231 234 134 124 421 "
    "422 442 222 122 413"
)
# Every move loses: the two threes 113 and 143 only delay X's win.
LOST = "144 114 111 133 414 141 444 123 411 441 132 233 333 222 244 344 234 324 223 241 341 334 314"


def board_of(text: str) -> Board:
    return Board.from_moves(moves(text))


def exchanged(board: Board, cell: int) -> Board:
    """A copy of `board` after `cell` and the forced exchange: each three answered by its
    block, by the Board API alone."""
    board = board.copy()
    board.push(cell)
    while not board.is_over():
        mover = board.mover(len(board.moves) - 1)
        threes = board.winning_cells(mover)
        if len(threes) != 1:
            break
        board.push(threes[0])
    return board


def attacker_wins(board: Board, attacker: object) -> bool:
    """Whether `attacker` wins by threats within WITHIN own moves, as if it were to move."""
    board = board.copy()
    if board.turn is not attacker:
        board.push_pass()
    return wins_within(board, WITHIN)


def plain_delay(board: Board, cell: int) -> bool:
    """The plain solver's view that the attacker's win stands after `cell` and its exchange:
    the attacker, to move, wins by threats, or the defender, to move, has no move after which
    the attacker does not."""
    attacker = board.turn.other
    after = exchanged(board, cell)
    if after.is_over() or not attacker_wins(after, attacker):
        return False
    if after.turn is attacker:
        return True
    return all(attacker_wins(exchanged(after, reply), attacker) for reply in after.legal_moves())


def plain_stop(board: Board, cell: int) -> bool:
    """The plain solver's view that `cell` stops: after it and its exchange the attacker has
    no forced win by threats within WITHIN own moves."""
    after = exchanged(board, cell)
    if after.is_over():
        return after.winner is board.turn
    return not attacker_wins(after, board.turn.other)


class Facing(NamedTuple):
    """A position whose side to move faces a forced win by threats: the board, the side's
    bits and the opponent's, a search, and the opponent's win."""

    board: Board
    me: int
    you: int
    search: ThreatSearch
    line: list[int]


def facing(text: str) -> Facing:
    board = board_of(text)
    me, you = board.pair()
    search = ThreatSearch(400_000)
    line = search.forced_win(you, me)
    assert line is not None
    return Facing(board, me, you, search, line)


def classified(text: str) -> dict[str, str]:
    _, me, you, search, line = facing(text)
    return {format_cell(c): d.value for c, d in defences(search, me, you, line).items()}


def test_the_best_defence_is_the_first_ranked_stop_and_stopping_finds_them_all():
    board, me, you, search, line = facing(DELAYED)
    ranked = moves("112 411 222 142") + [
        c for c in board.legal_moves() if c not in moves("112 411 222 142")
    ]
    assert best_defence(search, me, you, ranked, line) == (parse_cell("411"), True)
    stops, others = stopping(search, me, you, ranked, line)
    assert stops == moves("411 222 142")
    assert others[0] == parse_cell("112")  # the delay, first ranked of the rest


def test_with_no_stop_the_best_defence_holds_out_by_the_callers_measure():
    board, me, you, search, line = facing(LOST)
    ranked = board.legal_moves()
    cell, stops = best_defence(search, me, you, ranked, line)
    assert not stops and cell in moves("113 143")  # a delay makes the win longest
    last = ranked[-1]
    assert best_defence(search, me, you, ranked, line, lambda a, b: last) == (last, False)


def test_a_three_whose_block_leaves_the_win_standing_only_delays():
    found = classified(DELAYED)
    assert found["112"] == "delays"
    assert sorted(c for c, d in found.items() if d == "stops") == ["142", "222", "411"]
    assert plain_delay(board_of(DELAYED), parse_cell("112"))


def test_a_three_whose_block_leaves_no_win_is_a_stop():
    found = classified(MIXED)
    assert found["323"] == "stops"
    assert found["213"] == found["423"] == "delays"
    board = board_of(MIXED)
    assert plain_stop(board, parse_cell("323"))
    assert plain_delay(board, parse_cell("213")) and plain_delay(board, parse_cell("423"))


def test_a_three_followed_by_a_stop_is_a_stop():
    found = classified(LATER)
    assert found["132"] == "stops" and found["432"] == "delays"
    board = board_of(LATER)
    after = exchanged(board, parse_cell("132"))
    assert attacker_wins(after, board.turn.other)  # the win stands after the block...
    assert any(  # ...but the defender, to move, has a move that leaves it none
        not attacker_wins(exchanged(after, reply), board.turn.other)
        for reply in after.legal_moves()
    )
    assert plain_delay(board, parse_cell("432"))


def test_a_chain_of_threes_that_ends_in_a_stop_is_a_stop():
    found = classified(CHAIN)
    assert sorted(c for c, d in found.items() if d == "stops") == ["142", "312"]
    assert sorted(c for c, d in found.items() if d == "delays") == ["132", "213"]
    found = classified(CHAIN + " 142 132")
    assert found["242"] == "stops" and found["312"] == "stops"
    assert classified(CHAIN + " 142 132 242 342")["312"] == "stops"


@pytest.mark.slow
@pytest.mark.parametrize("level", ["hard", "expert", "perfect"])
def test_the_levels_hold_where_a_chain_of_threes_ends_in_a_stop(level):
    board = board_of(CHAIN)
    cell = make_player(level, seed=1).choose(board.copy()).cell
    assert format_cell(cell) in ("142", "312")


@pytest.mark.parametrize("text", [DELAYED, MIXED, LATER, LOST])
def test_analysis_never_lists_a_delay_as_a_stop(text):
    board = board_of(text)
    analysis = analyze(board)
    assert analysis.verdict in (Verdict.DEFEND, Verdict.LOST)
    for cell in analysis.stops:
        assert not plain_delay(board, cell), format_cell(cell)
    for cell in analysis.delays:
        assert plain_delay(board, cell), format_cell(cell)
    assert not set(analysis.stops) & set(analysis.delays)


def test_when_every_move_loses_the_delays_are_named():
    analysis = analyze(board_of(LOST))
    assert analysis.verdict is Verdict.LOST
    assert sorted(format_cell(c) for c in analysis.delays) == ["113", "143"]


@pytest.mark.slow
@pytest.mark.parametrize("level", ["hard", "expert", "perfect"])
def test_the_levels_play_a_stop_and_never_a_delay_when_a_stop_exists(level):
    for text in (DELAYED, MIXED, LATER):
        board = board_of(text)
        cell = make_player(level, seed=1).choose(board.copy()).cell
        assert cell in analyze(board).stops, (level, text, format_cell(cell))


def test_hint_suggests_a_stop_not_a_delay():
    board = board_of(DELAYED)
    hint = make_player("hard", seed=7).choose(board.copy()).cell  # the level HINT asks
    assert format_cell(hint) in ("142", "222", "411")


def test_the_engine_names_the_delays_apart():
    engine = EngineProcess()
    try:
        for text, answer in [
            (CHAIN, "analysis defend 142 312 delays 132 213"),
            (CHAIN + " 142 132", "analysis defend 242 312 delays 213 342"),
            (DELAYED, "analysis defend 142 222 411 delays 112"),
            (LOST, "analysis lost"),
        ]:
            engine.process.stdin.write(engine_position(board_of(text)) + "\n")
            reply = engine.ask("analyze")
            assert reply.startswith(answer), reply
        assert reply.endswith("delays 113 143")
        assert engine.quit() == 0
    finally:
        engine.process.kill()
        engine.process.wait()


def test_analyze_in_the_console_lists_delays_apart_from_stops(tmp_path):
    path = tmp_path / "delayed.txt"
    savefile.save(str(path), Settings(players=2), board_of(DELAYED))
    child = spawn("--load", str(path), "--no-color")
    try:
        expect_prompt(child, "O, YOUR MOVE?")
        child.sendline("ANALYZE")
        child.expect("MOVES THAT STOP IT: 142 222 411\\.")
        child.expect("ONLY DELAYS IT: 112\\.")
        expect_prompt(child, "O, YOUR MOVE?")
        child.sendline("QUIT")  # nothing played since the load: nothing to offer to save
        expect_goodbye(child)
    finally:
        child.close(force=True)


@pytest.mark.slow
def test_analyze_in_the_console_names_the_stops_at_the_end_of_a_chain(tmp_path):
    path = tmp_path / "chain.txt"
    savefile.save(str(path), Settings(players=2), board_of(CHAIN))
    # From its folder: the question at QUIT names the file, and a long path would wrap it.
    child = spawn("--load", path.name, "--no-color", cwd=str(tmp_path))
    try:
        expect_prompt(child, "O, YOUR MOVE?")
        child.sendline("ANALYZE")
        child.expect("MOVES THAT STOP IT: 142 312\\.")
        child.expect("ONLY DELAYS IT: 132 213\\.")
        expect_prompt(child, "O, YOUR MOVE?")
        child.sendline("142")
        expect_prompt(child, "X, YOUR MOVE?")
        child.sendline("132")
        expect_prompt(child, "O, YOUR MOVE?")
        child.sendline("ANALYZE")
        child.expect("MOVES THAT STOP IT: 242 312\\.")
        child.expect("ONLY DELAYS IT: 213 342\\.")
        expect_prompt(child, "O, YOUR MOVE?")
        child.sendline("QUIT")
        expect_prompt(child, r"BEFORE YOU GO\?")
        child.sendline("NO")
        expect_goodbye(child)
    finally:
        child.close(force=True)


@pytest.mark.slow
def test_the_review_marks_the_move_that_passed_over_a_stop_and_not_the_stops():
    held = review(board_of(CHAIN + " 142 132 242 342 312 213 212 412 221 211"))
    stops = {28: "142", 30: "242", 32: "312"}  # plies, counted from 1, of O's stops
    for ply, name in stops.items():
        assert format_cell(held.moves[ply - 1]) == name
        assert held.marks[ply - 1] != BLUNDER, name
    lost = review(board_of(CHAIN + " 323"))  # 323 gives X its forced win back
    assert lost.marks[-1] == BLUNDER
