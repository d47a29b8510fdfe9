"""The setup search (`qubic.search.setups`): the order it tries X's moves in.

Each claim is checked in the test itself with the threat search, as in test_expert.
"""

from qubic.core.notation import parse_cell
from qubic.search.setups import SetupSearch
from qubic.search.threats import ThreatSearch
from tests.positions import is_quiet, replay, setup_wins

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
