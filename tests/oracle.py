"""A deliberately plain solver for forced wins by threats, to check qubic.threats against.

It uses only the Board API (push, pop, winning_cells) and tries every legal move, so it shares
no code or shortcut with the bitboard search it checks. Depth counts the attacker's moves,
not counting the final completion of a line.
"""

from __future__ import annotations

from qubic.board import Board


def winning_first_moves(board: Board, depth: int) -> set[int]:
    """Every move that starts a forced win by threats for the side to move."""
    me = board.turn
    wins = board.winning_cells(me)
    if wins:
        return set(wins)
    theirs = board.winning_cells(me.other)
    if len(theirs) >= 2 or depth == 0:
        return set()
    found = set()
    for cell in theirs or board.legal_moves():
        board.push(cell)
        threats = board.winning_cells(me)
        if len(threats) >= 2:
            found.add(cell)
        elif len(threats) == 1:
            board.push(threats[0])
            if winning_first_moves(board, depth - 1):
                found.add(cell)
            board.pop()
        board.pop()
    return found
