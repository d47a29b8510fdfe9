"""benchmarks/opening_exposure.py: the book's move measured beside the least exposed one."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.scripts import load_script

oe = load_script("benchmarks", "opening_exposure")

# Seed 314's entry against greedy-mixed (c01b01e): X's forced win has six stops, and 122
# leaves X far more setups that nothing stops than the least exposed of them.
EXPOSED = "223 233 323 322 144 222 333 -> 122"
FORCED = "144 114 411 111 233 -> 322"  # X's three must be blocked: nothing to measure


def test_the_table_measures_the_book_move_against_the_least_exposed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = tmp_path / "opening.txt"
    book.write_text(f"# two entries\n{EXPOSED}\n{FORCED}\n", encoding="utf-8")
    oe.main(["--book", str(book)])
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("| 223")]
    assert len(rows) == 1, out
    _, entry, kind, ours, ours_found, best, best_found, more, _ = rows[0].split("|")
    assert (entry.strip(), kind.strip(), ours.strip()) == (EXPOSED[:-7], "stops", "122")
    assert best.strip() != "122"
    ours_lost, best_lost = (int(found.split("/")[0]) for found in (ours_found, best_found))
    assert int(more) == ours_lost - best_lost > 0
    assert "not measured: 1 forced" in out
