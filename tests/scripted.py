"""Scripted games for the tests, found by simulation rather than typed in.

The machine's reply depends only on its seed and the position, so a game found here with the
engine replays move for move against the real program run with the same --seed.
"""

from __future__ import annotations

from qubic.core.board import Board, Mark
from qubic.core.notation import format_cell, parse_moves
from qubic.players.base import Player
from qubic.players.expert import ExpertPlayer
from qubic.players.levels import make_player
from qubic.players.normal import NormalPlayer
from qubic.players.perfect import PerfectPlayer

HUMAN, MACHINE = Mark.X, Mark.O


def thinks(level: str) -> bool:
    """Whether `level` plays expert's way (expert, perfect and the ladder's steps between them),
    seconds a move."""
    return isinstance(make_player(level, seed=0), ExpertPlayer | PerfectPlayer)


def play_out(
    human: Player, machine: Player, human_first: bool = True, start: Board | None = None
) -> Board:
    """A whole game between two players, or the rest of one from `start` (not changed); the
    human is X."""
    board = Board(first=HUMAN if human_first else MACHINE) if start is None else start.copy()
    while not board.is_over():
        player = human if board.turn is HUMAN else machine
        board.push(player.choose(board).cell)
    return board


def find_game(
    outcome: Mark | None, machine: Player, human_first: bool = True, tries: int = 500
) -> Board:
    """A finished game against `machine` that `outcome` wins (None: a draw)."""
    for seed in range(tries):
        board = play_out(NormalPlayer(10_000 + seed), machine, human_first)
        if board.winner is outcome:
            return board
    raise AssertionError(f"no game ending {outcome} in {tries} tries")


def human_moves(board: Board) -> list[int]:
    """The cells the human (X) played, in order."""
    offset = 0 if board.first is HUMAN else 1
    return board.moves[offset::2]


def moves(text: str) -> list[int]:
    """The cells of space-separated moves in our notation, `111 214`."""
    return parse_moves(text)


def position(x: str, o: str) -> Board:
    """A board holding X on the cells `x` and O on `o` (space-separated, our notation).

    X moves first, so X is to move when both hold as many cells, O when X holds one more.
    """
    xs, os_ = parse_moves(x), parse_moves(o)
    assert len(xs) - len(os_) in (0, 1), "X holds as many cells as O, or one more"
    moves = [cell for pair in zip(xs, os_) for cell in pair] + xs[len(os_) :]
    return Board.from_moves(moves)


def winning_line(board: Board) -> tuple[int, ...]:
    """The cells of the winner's (first) line, in order along it."""
    outcome = board.outcome()
    assert outcome is not None and outcome.lines, "the game has a winner"
    return board.geometry.lines[outcome.lines[0]].cells


def engine_position(board: Board) -> str:
    """The engine protocol's command for `board`'s position."""
    return "position startpos moves " + " ".join(format_cell(cell) for cell in board.moves)
