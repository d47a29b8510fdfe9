"""Forced wins by threats: hand-built and mined positions, checked against a plain solver."""

from __future__ import annotations

import random

import pytest

from qubic.core.board import PASS, Board, IllegalMoveError, winning_mask
from qubic.core.notation import format_cell, parse_cell
from qubic.players.easy import EasyPlayer
from qubic.players.hard import HardPlayer
from qubic.search.threats import OutOfBudget, PureThreatSearch, ThreatSearch, breaks
from tests.oracle import winning_first_moves
from tests.positions import CHAIN_4, COUNTERED, LONG_CHAIN, ONE_SAVING_MOVE, assert_forcing_line
from tests.scripted import moves, position


def forced_win(board: Board, max_threats: int = 16) -> list[int] | None:
    return ThreatSearch().forced_win(*board.pair(), max_threats)


def shortest_depth(board: Board, limit: int = 6) -> tuple[int | None, set[int]]:
    """The oracle's shortest win in own moves, and every first move that achieves it."""
    for depth in range(1, limit + 1):
        first = winning_first_moves(board, depth)
        if first:
            return depth, first
    return None, set()


# Hand-built: X to move on level 1 of the cube.
WIN_IN_ONE = position(x="111 112 113", o="244 343 424")
# Row R1 holds 121 131 and column C1 holds 112 113: both pass through 111, the fork.
DOUBLE_THREAT = position(x="121 131 112 113", o="444 343 234 424")

# Mined from random games, each with exactly one first move that wins by the shortest chain.
CHAIN_3 = Board.from_moves(
    moves("141 323 111 131 144 133 142 143 132 113 123 413 233 114 322 411 412 232 213")
)
CHAIN_5 = Board.from_moves(moves("114 223 144 322 124 134 141 132 133 122 142 422 222 143 323 414"))
# O to move; its winning chain must answer an X counter-threat made by one of X's blocks.
ANSWERS_A_COUNTER = Board.from_moves(
    moves("141 232 144 143 114 233 132 123 133 323 413 134 111 122 332 441 223 121 124 222 424")
)
# X to move. X's threat 212 forces O to 313, which gives O two threats (312 and 413); the
# other threats lead nowhere either. A search that ignored counter-threats would win here.
BROKEN_BY_A_COUNTER = Board.from_moves(
    moves("111 222 114 113 223 332 232 442 112 233 214 241 211 323 411 311 414 314 341 213")
)


def test_win_in_one():
    assert forced_win(WIN_IN_ONE) == [parse_cell("114")]
    assert HardPlayer(seed=1).choose(WIN_IN_ONE).cell == parse_cell("114")


def test_double_threat():
    assert shortest_depth(DOUBLE_THREAT) == (1, {parse_cell("111")})
    line = forced_win(DOUBLE_THREAT)
    assert line == [parse_cell("111")]
    assert_forcing_line(DOUBLE_THREAT, line)


@pytest.mark.parametrize(
    "board, depth, first",
    [
        (CHAIN_3, 3, "333"),
        (CHAIN_4, 4, "233"),
        (CHAIN_5, 5, "424"),
    ],
)
def test_chains_of_threats_find_the_one_winning_first_move(board, depth, first):
    assert shortest_depth(board) == (depth, {parse_cell(first)})
    line = forced_win(board)
    assert format_cell(line[0]) == first
    assert len(line) == 2 * depth - 1, "the shortest chain: own moves and forced replies"
    assert_forcing_line(board, line)
    assert format_cell(HardPlayer(seed=1).choose(board).cell) == first


def test_a_chain_that_must_answer_a_counter_threat():
    line = forced_win(ANSWERS_A_COUNTER)
    assert_forcing_line(ANSWERS_A_COUNTER, line)
    replay, me = ANSWERS_A_COUNTER.copy(), ANSWERS_A_COUNTER.turn
    answered = False
    for i, cell in enumerate(line):
        answered |= i % 2 == 0 and replay.winning_cells(me.other) == [cell]
        replay.push(cell)
    assert answered, "some block threatened, and the next own move was that cell"
    assert line[0] in winning_first_moves(ANSWERS_A_COUNTER, 5)


def test_a_chain_broken_by_a_counter_threat_is_no_win():
    board = BROKEN_BY_A_COUNTER.copy()
    board.push(parse_cell("212"))
    assert board.winning_cells(board.turn.other) == [parse_cell("313")]
    board.push(parse_cell("313"))
    assert board.winning_cells(board.turn.other) == moves("312 413")
    assert forced_win(BROKEN_BY_A_COUNTER) is None
    assert shortest_depth(BROKEN_BY_A_COUNTER, 4) == (None, set())


def random_positions(count: int, seed: int) -> list[Board]:
    rng = random.Random(seed)
    boards: list[Board] = []
    game = 0
    while len(boards) < count:
        game += 1
        board = Board()
        players = EasyPlayer(game), EasyPlayer(game + 10_000)
        stop = rng.randrange(6, 30)
        while len(board.moves) < stop and not board.is_over():
            board.push(players[len(board.moves) % 2].choose(board).cell)
        if not board.is_over():
            boards.append(board)
    return boards


@pytest.mark.parametrize("board", random_positions(60, seed=5))
def test_agrees_with_the_plain_solver(board):
    depth, first = shortest_depth(board, 3)
    line = forced_win(board, 3)
    if depth is None:
        assert line is None
    else:
        assert line is not None and line[0] in first
        assert len(line) == 2 * depth - 1
        assert_forcing_line(board, line)


@pytest.mark.slow
def test_hard_finds_the_only_moves_that_hold_off_a_forced_win():
    board = ONE_SAVING_MOVE.copy()
    saving = []
    for cell in board.legal_moves():
        board.push(cell)
        if not winning_first_moves(board, 3):
            saving.append(cell)
        board.pop()
    assert saving == [parse_cell("113")]
    # Every move loses; the threes 113 and 143 make X's win longest, so hard plays one.
    assert HardPlayer(seed=1).choose(board).cell in (parse_cell("113"), parse_cell("143"))


def test_a_long_chain_is_found_after_a_shallower_search_of_the_same_position():
    me, you = LONG_CHAIN.pair()
    line = forced_win(LONG_CHAIN)
    assert line is not None and len(line) == 2 * 10 - 1
    assert_forcing_line(LONG_CHAIN, line)
    search = ThreatSearch()
    assert search.forced_win(me, you, 8, shortest=False) is None
    # What the shallow search refuted must not hide the deeper win from the same instance.
    assert search.forced_win(me, you) == line


@pytest.mark.parametrize("board", random_positions(40, seed=9))
def test_one_search_answers_many_questions_as_fresh_ones_would(board):
    shared = ThreatSearch()
    for me, you in ((board.turn, board.turn.other), (board.turn.other, board.turn)):
        for cell in board.legal_moves()[::5]:
            mine = board.bits[me] | 1 << cell
            for max_threats, shortest in ((3, True), (8, False), (16, True), (16, False)):
                fresh = ThreatSearch().forced_win(mine, board.bits[you], max_threats, shortest)
                found = shared.forced_win(mine, board.bits[you], max_threats, shortest)
                assert (found is None) == (fresh is None)
                if shortest and found is not None:
                    assert len(found) == len(fresh)


def test_a_new_budget_counts_from_now():
    me, you = LONG_CHAIN.pair()
    search = ThreatSearch(nodes=10)
    with pytest.raises(OutOfBudget):
        search.forced_win(me, you)
    search.set_budget(nodes=None)
    assert search.forced_win(me, you) is not None
    used = search.nodes
    search.set_budget(nodes=10)
    assert search.node_limit == used + 10


def test_the_pure_search_finds_no_win_that_needs_o_to_make_threes() -> None:
    me, you = Board.from_moves(COUNTERED).bits
    assert ThreatSearch(10**6).forced_win(me, you, shortest=False) is not None
    assert PureThreatSearch(10**6).forced_win(me, you, shortest=False) is None


def test_the_pure_search_s_wins_are_threats_whose_blocks_make_no_three() -> None:
    rng = random.Random(8)
    found = 0
    for _ in range(300):
        cells = rng.sample(range(64), 2 * rng.randrange(4, 9))
        me, you = sum(1 << c for c in cells[0::2]), sum(1 << c for c in cells[1::2])
        if winning_mask(me, you) or winning_mask(you, me):
            continue
        line = PureThreatSearch(10**6).forced_win(me, you, shortest=False)
        if line is None:
            continue
        found += 1
        assert ThreatSearch(10**6).forced_win(me, you, shortest=False) is not None
        for attack, block in zip(line[0::2], line[1::2]):
            me |= 1 << attack
            assert winning_mask(me, you) == 1 << block  # a threat, blocked
            you |= 1 << block
            assert not winning_mask(you, me)  # the block makes no three
        me |= 1 << line[-1]
        wins = winning_mask(me, you)
        assert wins & (wins - 1)  # two threats at once
    assert found >= 5


def test_a_reply_breaks_a_forced_win_exactly_where_the_win_stops_forcing():
    me, you = LONG_CHAIN.pair()
    line = forced_win(LONG_CHAIN)
    assert line is not None
    threes = (winning_mask(me, you), winning_mask(you, me))
    assert breaks(line, me, you, line[0], threes=threes)
    kept = 0
    for cell in LONG_CHAIN.legal_moves():
        after = Board.from_moves([*LONG_CHAIN.moves, PASS, cell])
        if breaks(line, me, you, cell, threes=threes):
            with pytest.raises((AssertionError, IllegalMoveError)):
                assert_forcing_line(after, line)
        else:
            assert_forcing_line(after, line)
            kept += 1
    assert kept > 0
