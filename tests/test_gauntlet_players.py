"""The gauntlet benchmark's own geometry and measuring players (benchmarks/gauntlet.py)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.scripts import load_script

g = load_script("benchmarks", "gauntlet")


def position(text: str) -> Any:
    """The position after the moves in `text`, X first."""
    return g.position_of([g.parse_name(name) for name in text.split()])


def test_geometry() -> None:
    assert len(g.LINES) == 76
    assert all(len(line) == 4 and len(set(line)) == 4 for line in g.LINES)
    assert len(set(map(frozenset, g.LINES))) == 76
    assert sorted({len(through) for through in g.LINES_THROUGH}) == [4, 7]
    assert sum(len(through) == 7 for through in g.LINES_THROUGH) == 16  # 8 corners, 8 centre
    assert [g.cell_name(c) for c in (0, 1, 4, 16, 63)] == ["111", "112", "121", "211", "444"]
    assert all(g.parse_name(g.cell_name(c)) == c for c in g.ALL_CELLS)


@pytest.mark.parametrize("name", list(g.WEIGHTINGS))
def test_greedy_wins_then_blocks(name: str) -> None:
    player = g.GreedyPlayer(name, g.WEIGHTINGS[name], 1)
    # X can win at 114 while O threatens 444: X wins.
    assert g.cell_name(player.choose(position("111 441 112 442 113 443"))) == "114"
    # O threatens 444, X has no three: X blocks.
    assert g.cell_name(player.choose(position("111 441 112 442 133 443"))) == "444"


def test_random_player_blocks_and_wins() -> None:
    for seed in range(5):
        player = g.RandomPlayer(seed)
        assert g.cell_name(player.choose(position("111 441 112 442 133 443"))) == "444"
        assert g.cell_name(player.choose(position("111 441 112 442 113 443"))) == "114"


def test_threat_attacker_finds_a_chain() -> None:
    # No single move makes two threes; 121 forces 124, then 131 makes two (pillar and row).
    moves = "111 344 122 442 123 214 331 443 431 313"
    start = position(moves)
    assert not g.threes(start.x, start.o) and not g.threes(start.o, start.x)
    assert all(len(g.threats_made(start.x, start.o, c)) < 2 for c in start.empty())
    chain = g.ThreatSearch().find(start.x, start.o)
    assert chain is not None and len(chain) >= 3
    replay = start.copy()
    for index, cell in enumerate(chain):
        if index % 2 == 0:
            made = g.threats_made(replay.x, replay.o, cell)
            assert len(made) == (2 if index == len(chain) - 1 else 1)
            if index < len(chain) - 1:
                assert made == {chain[index + 1]}  # O's reply is the forced block
        replay.push(cell)
    assert not g.threes(replay.o, replay.x)  # O cannot win first
    assert g.ThreatPlayer(1).choose(start.copy()) == chain[0]
    assert g.chain_text(start.moves, chain).endswith("(two threats)")


def test_threat_search_finds_nothing_on_an_empty_cube() -> None:
    assert g.ThreatSearch(2_000).find(0, 0) is None


def stones(text: str) -> int:
    """The bitboard of the cells named in `text`."""
    return sum(1 << g.parse_name(name) for name in text.split())


def test_post_mortem_wins_only_with_x_to_move() -> None:
    # O's 332 makes a three (114 441 332, 223 empty): X must block it, and its block makes
    # no three, so O moves next. X has no forced win here, though it would have one if the
    # block were free.
    moves = [g.parse_name(name) for name in ["144", "114", "444", "441", "111", "332"]]
    assert g.forced_win(moves, 20_000) is None
    # One O move later, X, to move, has one: the post-mortem names it.
    later = "144 114 444 441 111 332 223 322 222 333 411 311 344 244 323 121"
    chain = g.forced_win([g.parse_name(name) for name in later.split()], 20_000)
    assert chain is not None and g.cell_name(chain[0]) == "122"


def test_post_mortem_counts_an_o_three_that_only_puts_the_win_off() -> None:
    # After X's quiet 323, O's threes 312, 331, 334 and 342 each start an exchange after
    # which X would still win by threats were it to move: none of them holds.
    before = "144 114 444 441 111 332 223 322 222 333 411 311 344 244 323"
    said = g._alternatives([g.parse_name(name) for name in before.split()], 20_000)
    assert said.startswith("no O move at ply 16 left X without a forced win")
    assert "4 O threes only put it off: 312 331 334 342" in said
    # O's three 123 is blocked at 124, which makes X's three 124 134 144: O blocks at 114.
    start = position("134 121 144 122 333")
    after = g.exchange(start.x, start.o, g.parse_name("123"))
    assert after == (stones("134 144 333 124"), stones("121 122 123 114"))
