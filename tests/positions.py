"""Positions and position helpers that several test modules share."""

from __future__ import annotations

import random
from collections.abc import Callable

from qubic.core.board import Board
from qubic.core.notation import parse_cell, parse_moves
from qubic.search.threats import ThreatSearch, new_threats
from tests.scripted import moves

# X to move, twelve stones in: X wins, but only after quiet moves (found by hard v hard).
QUIET_WIN = "144 233 141 441 111 133 333 323 223 143 413 113"

# Six plies on along QUIET_WIN's strategy: X to move, two quiet moves from its win, each a three
# the threat search does not follow to a forced win (a smaller tree, for the proof's tools).
QUIET_END = "111 113 114 121 123 132 141 133 144 143 222 233 223 323 333 441 413 444"

# O to move: QUIET_END two plies on without O's 441; X wins after each of O's 45 kinds of reply,
# after some only with a quiet move.
QUIET_O_TO_MOVE = "111 113 114 121 123 124 134 132 141 133 144 143 222 233 223 323 333 444 413"

# X's only forced win here needs O's blocks to make threes, which X blocks with threats.
COUNTERED = [57, 3, 47, 13, 33, 39, 24, 6, 32, 19]


def bits(moves: str) -> tuple[int, int]:
    """X's and O's stones after `moves` (squares in the game's notation, X first)."""
    board = Board.from_moves(parse_moves(moves))
    return board.bits[0], board.bits[1]


def replay(moves: list[str]) -> Board:
    """The board after `moves`, X first."""
    board = Board()
    for move in moves:
        board.push(parse_cell(move))
    return board


def random_positions(count: int, seed: int = 7) -> list[Board]:
    """Positions from random play, stopped at a random point before the end."""
    rng = random.Random(seed)
    boards: list[Board] = []
    while len(boards) < count:
        board = Board()
        stop = rng.randrange(4, 40)
        while len(board.moves) < stop and not board.is_over():
            board.push(rng.choice(board.legal_moves()))
        if not board.is_over():
            boards.append(board)
    return boards


POSITIONS = random_positions(300)


def wins_by_threats(board: Board, search: Callable[[], ThreatSearch] = ThreatSearch) -> bool:
    """The side to move wins at once or by a forced chain of threats, found by a new
    `search()` (one of `PureThreatSearch` for chains of threats alone)."""
    me, you = board.turn, board.turn.other
    return (
        bool(board.winning_cells(me))
        or search().forced_win(board.bits[me], board.bits[you]) is not None
    )


def is_quiet(board: Board, cell: int) -> bool:
    """`cell` makes the side to move no three."""
    me, you = board.pair()
    return not new_threats(me | 1 << cell, you, cell)


def setup_wins(board: Board, cell: int) -> bool:
    """After the side to move plays `cell`, every reply leaves it a win by threats."""
    board.push(cell)
    try:
        for reply in board.legal_moves():
            board.push(reply)
            won = wins_by_threats(board)
            board.pop()
            if not won:
                return False
        return True
    finally:
        board.pop()


# Mined from random games, with exactly one first move that wins by the shortest chain.
CHAIN_4 = Board.from_moves(moves("111 141 441 221 144 122 243 342 444 333 244 344 322 443"))

# O to move. X threatens a forced win; of O's 41 moves only 113 leaves X without one at once
# (the plain solver looks 3 own moves deep; the bitboard search agrees at any depth). 113 is
# a three, and after X's forced block X's win stands: it only delays (tests/test_defence.py).
ONE_SAVING_MOVE = Board.from_moves(
    moves(
        "144 114 111 133 414 141 444 123 411 441 132 233 333 222 244 344 234 324 223 241 341 "
        "334 314"
    )
)

# X to move; its shortest forced win by threats takes 10 own moves.
LONG_CHAIN = Board.from_moves(moves("111 141 114 112 411 144 441 142 143 332"))


def assert_forcing_line(board: Board, line: list[int]) -> None:
    """Replay `line` and check every attacker move forces the next reply and the last wins."""
    board = board.copy()
    me = board.turn
    for i, cell in enumerate(line):
        if i % 2 == 1:  # the defender's reply: the one cell it must take
            assert [cell] == board.winning_cells(me), "the defender's reply is its forced block"
            board.push(cell)
            continue
        counters = board.winning_cells(me.other)
        board.push(cell)
        if board.winner is me:
            assert i == len(line) - 1, "a completed line ends the chain"
            continue
        assert len(counters) <= 1 and set(counters) <= {cell}, "counter-threats are answered"
        threats = board.winning_cells(me)
        if i == len(line) - 1:
            assert len(threats) >= 2, "the chain ends in a win or a fork"
        else:
            assert len(threats) == 1, "every move before the last is a single threat"
