"""The defence rule against a plain oracle, on positions mined from machine games.

`tests/data/defence_positions.txt` holds positions where the side to move faces a forced win
by threats (`benchmarks/defence_oracle.py --mine` wrote them). In each, every legal move is
classified by `analyze` (its stops and delays; every other move fails) and by
`tests.oracle.DefenceOracle`, which plays every legal move on a plain Board at every turn and
shares no code with the search: the two must agree on every move. A sample runs in the fast
tier and an eighth of the kept positions (less two games' heaviest) in the slow tier; the
benchmark, `benchmarks/defence_oracle.py`, checks them all.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from qubic.core.board import Board
from qubic.core.notation import format_cell, parse_moves
from qubic.play.analysis import analyze
from qubic.search.threats import ThreatSearch
from tests.oracle import DELAYS, FAILS, STOPS, DefenceOracle

POSITIONS = Path(__file__).parent / "data" / "defence_positions.txt"
DEPTH = 16  # the oracle's reach in the attacker's own moves: the search's MAX_THREATS
SAMPLE = 14  # kept positions in the fast tier, spread over the file
# Here, and at every later ply of the same game, the oracle, trying every move at every turn,
# takes a minute or more: the slow tier leaves these to the benchmark.
HEAVY = (
    "141 411 144 441 143 142 114 111 444 414",
    "144 114 441 444 141 411 232 414 111",
)
# 142 and 312 stop X's win here only at the end of a chain of threes, which a rule looking two
# turns past an exchange called delays.
CHAIN = (
    "414 411 444 144 322 114 111 333 141 232 434 424 441 112 432 423 143 231 234 134 124 421 "
    "422 442 222 122 413"
)
ORACLE = DefenceOracle(DEPTH)  # its memory serves every test in the process


def kept() -> list[str]:
    lines = POSITIONS.read_text().splitlines()
    return [line for line in lines if line and not line.startswith("#")]


def sample() -> list[str]:
    texts = kept()
    step = max(1, len(texts) // SAMPLE)
    return [CHAIN, *texts[2::step][:SAMPLE]]


def by_rule(board: Board) -> dict[int, str]:
    analysis = analyze(board, ThreatSearch(geometry=board.geometry))
    found = dict.fromkeys(board.legal_moves(), FAILS)
    found.update(dict.fromkeys(analysis.stops, STOPS))
    found.update(dict.fromkeys(analysis.delays, DELAYS))
    return found


def check(text: str) -> None:
    board = Board.from_moves(parse_moves(text))
    rule = by_rule(board)
    plain = {cell: ORACLE.classify(board, cell) for cell in board.legal_moves()}
    wrong = {format_cell(c): (rule[c], kind) for c, kind in plain.items() if rule[c] != kind}
    assert not wrong, wrong


def test_the_kept_positions_are_enough_and_each_faces_a_forced_win():
    texts = kept()
    assert len(texts) >= 300 and len(set(texts)) == len(texts)
    for text in texts[:: len(texts) // 10]:
        board = Board.from_moves(parse_moves(text))
        me, you = board.pair()
        assert ThreatSearch().forced_win(you, me, shortest=False) is not None, text


@pytest.mark.parametrize("text", sample())
def test_the_rule_agrees_with_the_oracle_on_a_sample(text):
    check(text)


def test_the_oracle_names_the_stops_at_the_end_of_a_chain():
    board = Board.from_moves(parse_moves(CHAIN))
    found = {format_cell(c): ORACLE.classify(board, c) for c in board.legal_moves()}
    assert sorted(c for c, kind in found.items() if kind == STOPS) == ["142", "312"]
    assert sorted(c for c, kind in found.items() if kind == DELAYS) == ["132", "213"]


@pytest.mark.slow
def test_the_rule_agrees_with_the_oracle_on_an_eighth_of_the_kept_positions():
    light = [text for text in kept() if not text.startswith(HEAVY)]
    assert len(light) >= 300
    for text in light[1::8]:
        check(text)
