"""The df-pn prover, the symmetries it merges positions by, and the vetting of O's moves by
short searches of it."""

import pytest

from qubic.core.board import winning_mask
from qubic.core.geometry import CUBE
from qubic.core.notation import parse_cell
from qubic.core.symmetry import orbits, stabilizer
from qubic.search.budget import Budget
from qubic.search.prover import DISPROVED, PROVED, UNKNOWN, Prover
from qubic.search.threats import ThreatSearch
from qubic.search.vetting import REFUTE_NODES, least_lost
from tests.positions import QUIET_WIN, bits


def test_the_empty_cube_is_fixed_by_every_symmetry_and_has_two_kinds_of_cell():
    assert len(stabilizer(CUBE, 0, 0)) == 192
    assert orbits(CUBE.full_mask, stabilizer(CUBE, 0, 0)) == {0: 16, 1: 48}


def test_a_corner_is_fixed_by_twelve_symmetries_and_merges_replies():
    x, o = bits("111")
    group = stabilizer(CUBE, x, o)
    assert len(group) == 12
    replies = list(orbits(CUBE.full_mask & ~x, group))
    assert 0 not in replies
    covered = {s[c] for c in replies for s in group}
    assert covered == set(range(1, 64))  # every reply is an image of a representative


def test_a_forced_win_by_threats_is_proved_at_once():
    x, o = bits("111 222 112 333 113 444 121 242 131 343")
    assert ThreatSearch().forced_win(x, o) is not None
    result = Prover().prove(x, o, 10)
    assert (result.status, result.expanded) == (PROVED, 1)


def test_a_win_needing_quiet_moves_is_proved_with_them():
    x, o = bits(QUIET_WIN)
    assert ThreatSearch().forced_win(x, o) is None
    prover = Prover()
    result = prover.prove(x, o, 5_000)
    assert result.status == PROVED
    quiet = list(prover.strategy(x, o))
    assert quiet
    for px, po, cell in quiet:
        assert px.bit_count() == po.bit_count()  # X to move
        assert px & x == x and po & o == o  # reached from the root
        assert not (px | po) >> cell & 1
        assert not winning_mask(px, po) and not winning_mask(po, px)


def test_a_position_o_wins_is_disproved():
    # O to move with a three of its own and no X three to block.
    x, o = bits("111 222 112 233 144 244 411")
    assert winning_mask(o, x)
    assert Prover().prove(x, o, 100).status == DISPROVED


def test_the_budget_stops_the_search():
    result = Prover().prove(0, 0, 50)
    assert result.status == UNKNOWN
    assert 50 <= result.expanded <= 60


def test_the_time_budget_stops_the_search():
    result = Prover().prove(0, 0, 1_000_000, seconds=0.0)
    assert result.status == UNKNOWN
    assert result.expanded <= 2


def test_the_threat_searches_positions_stop_the_search_after_the_expansion_that_spends_them():
    # Late in a game one expansion's threat searches can cost thousands of positions.
    x, o = bits("333 332 233 223 433 133 441 111 144 444")
    free = Prover()
    unbounded = free.prove(x, o, REFUTE_NODES)
    limit = free.threats.nodes // 4
    capped = Prover()
    result = capped.prove(x, o, REFUTE_NODES, positions=limit)
    assert result.status == UNKNOWN and result.expanded < unbounded.expanded
    assert limit < capped.threats.nodes < free.threats.nodes


@pytest.mark.slow
def test_least_lost_prefers_a_move_not_shown_lost_then_the_one_longest_to_refute():
    # O to move in a game normal (X) won against expert: 134 loses at once to a forced win by
    # threats, 322 after about a hundred expansions, and 444 is not shown lost.
    x, o = bits("333 332 233 223 433 133 441 111 144")
    at_once, later, still_open = (parse_cell(c) for c in ("134", "322", "444"))
    assert Prover().prove(x, o | 1 << at_once, 1).status == PROVED
    assert Prover().prove(x, o | 1 << later, REFUTE_NODES).status == PROVED
    assert Prover().prove(x, o | 1 << still_open, REFUTE_NODES).status != PROVED
    assert least_lost(x, o, [at_once, later, still_open], 6_000) == still_open
    assert least_lost(x, o, [at_once, later], 6_000) == later
    assert least_lost(x, o, [later, at_once], 6_000) == later


class NoTimeLeft(Budget):
    """A time cap with no time left as each test starts, though not yet past for the loops
    that decide whether a test starts."""

    def expired(self) -> bool:
        return False

    def seconds_left(self) -> float:
        return 0.0


def test_least_lost_ends_a_test_at_the_time_cap_after_its_current_expansion(monkeypatch):
    # Without the cap, 322 is shown lost in about a hundred expansions (above) and 444 is
    # played; with none left, each test stops after one expansion and shows nothing, and the
    # first cell not shown lost is played. One expansion can take seconds of threat search: a
    # test that ran on past the cap made a move of perfect's take 5.5 s against a 4 s cap.
    x, o = bits("333 332 233 223 433 133 441 111 144")
    later, still_open = parse_cell("322"), parse_cell("444")
    expanded = []
    prove = Prover.prove

    def counting(self, x, o, nodes, seconds=None, positions=None):
        result = prove(self, x, o, nodes, seconds, positions)
        expanded.append(result.expanded)
        return result

    monkeypatch.setattr(Prover, "prove", counting)
    assert least_lost(x, o, [later, still_open], 6_000) == still_open
    assert max(expanded) > 1
    expanded.clear()
    assert least_lost(x, o, [later, still_open], 6_000, NoTimeLeft()) == later
    assert expanded == [1, 1, 1, 1]
