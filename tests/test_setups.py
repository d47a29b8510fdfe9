"""The setup search (`qubic.search.setups`): the order it tries X's moves in.

Each claim is checked in the test itself with the threat search, as in test_expert.
"""

import pytest

from qubic.core.board import Board
from qubic.core.notation import parse_cell
from qubic.proof.book import fewest_setups
from qubic.search.setups import SetupSearch
from qubic.search.threats import PureThreatSearch, ThreatSearch
from tests.positions import is_quiet, replay, setup_wins, wins_by_threats

NODES = 2_000_000

# X 111 114 141, O 113 212 414, X to move: no forced win by threats. Lowest cell first, the
# first win is the threat 121 (O blocks at 131, and X then needs a setup: two quiet moves
# for a strategy book to hold); a quiet setup wins alike, on its own.
THREAT_FIRST = ["111", "113", "114", "212", "141", "414"]


def test_lowest_cell_first_the_setup_search_finds_a_threat_before_a_quiet_win():
    board = replay(THREAT_FIRST)
    x, o = board.bits
    move = SetupSearch(ThreatSearch(NODES)).forced_win(x, o, 2)
    assert move == parse_cell("121")
    assert not is_quiet(board, move)


def test_quiet_first_the_setup_search_finds_a_quiet_setup_that_wins_alone():
    board = replay(THREAT_FIRST)
    x, o = board.bits
    assert ThreatSearch(NODES).forced_win(x, o) is None
    move = SetupSearch(ThreatSearch(NODES), quiet_first=True).forced_win(x, o, 2)
    assert move is not None
    assert is_quiet(board, move)
    assert setup_wins(board, move)


# X 111 114 411, O 444 141 414: X to move, no forced win by threats alone, and no win with one
# setup in which each three of O's blocked counts as a setup of X's. Blocks are forced, so a
# strategy book holds no entry for them: counted so, a single setup wins.
FORCED_BLOCKS = ["111", "444", "114", "141", "411", "414"]


def wins_through_blocks(board: Board, cell: int) -> bool:
    """After the side to move plays `cell`, every reply leaves it a win by threats alone, or
    a single three of the opponent's whose block does the same."""
    board.push(cell)
    try:
        for reply in board.legal_moves():
            board.push(reply)
            try:
                if board.is_over():
                    return False
                if wins_by_threats(board, lambda: PureThreatSearch(NODES)):
                    continue
                blocks = board.winning_cells(board.turn.other)
                if len(blocks) != 1 or not wins_through_blocks(board, blocks[0]):
                    return False
            finally:
                board.pop()
        return True
    finally:
        board.pop()


@pytest.mark.slow  # some 2 s: three setup searches in Python
def test_a_block_that_costs_no_setup_finds_a_win_with_one():
    board = replay(FORCED_BLOCKS)
    x, o = board.bits
    assert PureThreatSearch(NODES).forced_win(x, o) is None
    assert SetupSearch(PureThreatSearch(NODES), True).forced_win(x, o, 1) is None
    move = SetupSearch(PureThreatSearch(NODES), True, free_blocks=True).forced_win(x, o, 1)
    assert move is not None
    assert is_quiet(board, move)
    assert not setup_wins(board, move)  # some reply is a three, and the win runs through its block
    assert wins_through_blocks(board, move)


def test_the_book_for_patashniks_rule_spends_no_setup_on_a_block():
    x, o = replay(FORCED_BLOCKS).bits
    move = fewest_setups(x, o, 1, fast=False, pure=True)
    assert move is not None
    assert move == SetupSearch(PureThreatSearch(NODES), True, free_blocks=True).forced_win(x, o, 1)
