"""A deliberately plain solver for forced wins by threats, to check qubic.search.threats against.

It uses only the Board API (push, pop, winning_cells) and tries every legal move, so it shares
no code or shortcut with the bitboard search it checks. Depth counts the attacker's moves,
not counting the final completion of a line.
"""

from __future__ import annotations

from qubic.core.board import Board


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


def wins_within(board: Board, depth: int) -> bool:
    """Whether the side to move has a forced win by threats within `depth` own moves, by the
    rules of `winning_first_moves`, remembering the positions judged so that 12 moves deep
    stays quick. The board is not changed."""
    return _wins(board, depth, {})


def _wins(board: Board, depth: int, memo: dict[tuple[int, int, int], bool]) -> bool:
    me = board.turn
    if board.winning_cells(me):
        return True
    theirs = board.winning_cells(me.other)
    if len(theirs) >= 2 or depth == 0:
        return False
    key = (board.bits[me], board.bits[me.other], depth)
    if key not in memo:
        memo[key] = any(_forces(board, cell, depth, memo) for cell in theirs or board.legal_moves())
    return memo[key]


def _forces(board: Board, cell: int, depth: int, memo: dict[tuple[int, int, int], bool]) -> bool:
    """Whether the side to move playing `cell` wins: two threats, or one whose forced block
    leaves a win within `depth` - 1 more own moves."""
    me = board.turn
    board.push(cell)
    try:
        threats = board.winning_cells(me)
        if len(threats) != 1:
            return len(threats) > 1
        board.push(threats[0])
        try:
            return _wins(board, depth - 1, memo)
        finally:
            board.pop()
    finally:
        board.pop()
