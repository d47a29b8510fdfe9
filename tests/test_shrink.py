"""The book made smaller (`qubic.proof.shrink`): heavy entries asked again with one more setup."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from qubic.proof.book import SCAN_NODES, new_setup_search, setup_first
from qubic.proof.leaf import StrategyMover
from qubic.proof.pool import Journal
from qubic.proof.shrink import Reach, line_to, shrink
from qubic.proof.walk import walk_lines
from qubic.search.strategy import parse_entries

pytest.importorskip("numba")  # the setup searches are the compiled ones, as in a build

# X 111 114 141, O 144 234 323 (a canonical image): the book shipped before 37bf368 played
# the proof's move 51 there, and these 14 entries below it.
ROOT = 0x1009, 0x4008008000
HEAVY_ENTRY = parse_entries("""
1009 4008008000 51
2004600000 1000002002010 0
2004600000 1000002002080 0
2004600000 1000002102000 0
2004600000 1000002802000 0
2004600000 1004000014000 0
2004600000 1004000044000 3
2004600000 1004000084000 0
2004600000 1004002002000 16
2004600080 14004002008000 5
20046000a0 34004002008000 4
20046000b0 34004002008040 23
20047d0000 10040c2822000 28
20147d0000 10040c3822000 12
""")


def walked(entries: dict[tuple[int, int], int]) -> tuple[set[tuple[int, int]], int]:
    """The entries a verifier's walk from ROOT meets with `entries`, and its failures."""
    walk = walk_lines([line_to(*ROOT)], entries, mover=StrategyMover(fast=True))
    return set(walk.quiet), len(walk.failures)


def test_reach_meets_the_entries_the_verifiers_walk_meets() -> None:
    met, failures = walked(HEAVY_ENTRY)
    assert failures == 0 and met == set(HEAVY_ENTRY)
    assert Reach(HEAVY_ENTRY).below(*ROOT) == met
    # Below each of O's replies (met in the orientation the moves leave, not the canonical
    # image), the entries of that subtree: together, all but the root's own.
    x, o = ROOT
    x |= 1 << HEAVY_ENTRY[ROOT]
    reach = Reach(HEAVY_ENTRY)
    below = [reach.below(x, o | 1 << reply) for reply in range(64) if not (x | o) >> reply & 1]
    assert set().union(*below) == met - {ROOT}
    assert sum(bool(entries) for entries in below) > 1
    assert Reach({}).below(*ROOT) == set()


def shrunk(
    tmp_path: Path, chosen: set[tuple[int, int]] | None = None
) -> dict[tuple[int, int], int]:
    """HEAVY_ENTRY's book shrunk as a build shrinks it, its journal in `tmp_path`."""
    return shrink(
        HEAVY_ENTRY,
        HEAVY_ENTRY,
        [ROOT],
        partial(setup_first, fast=True, scan=SCAN_NODES),
        partial(new_setup_search, True),
        Journal(tmp_path / "book.journal"),
        chosen=chosen or set(),
    )


@pytest.mark.slow
def test_a_heavy_entry_gives_way_to_a_win_with_three_setups_that_needs_fewer(
    tmp_path: Path,
) -> None:
    book = shrunk(tmp_path)
    assert book[ROOT] != HEAVY_ENTRY[ROOT]
    assert len(book) < len(HEAVY_ENTRY)
    met, failures = walked(book)
    assert failures == 0 and met == set(book)  # X still wins, and every entry is met
    assert (tmp_path / "book.journal").stat().st_size > 0
    assert shrunk(tmp_path) == book  # resumed from the journal: the same book


def test_a_chosen_entry_is_not_asked_again(tmp_path: Path) -> None:
    # The heavy entry above, chosen: its move stays, as do the entries below it.
    assert shrunk(tmp_path, chosen={ROOT}) == HEAVY_ENTRY
