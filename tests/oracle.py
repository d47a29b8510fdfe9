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


Memo = dict[tuple[int, int], tuple[int, int]]  # position -> (wins within, none within)
UNKNOWN = 1 << 30  # no win found yet within any depth


def _wins(board: Board, depth: int, memo: Memo) -> bool:
    me = board.turn
    if board.winning_cells(me):
        return True
    theirs = board.winning_cells(me.other)
    if len(theirs) >= 2 or depth == 0:
        return False
    # A win within some depth is a win within any greater one, and no win within some
    # depth is none within any smaller.
    key = board.pair(me)
    won, lost = memo.get(key, (UNKNOWN, 0))
    if depth >= won or depth <= lost:
        return depth >= won
    found = any(_forces(board, cell, depth, memo) for cell in theirs or _three_cells(board))
    memo[key] = (depth, lost) if found else (won, depth)
    return found


def _three_cells(board: Board) -> list[int]:
    """The empty cells where the side to move would make a three: those on a line holding
    all but two of its cells for it and none for the other side. No other move threatens."""
    mine, others = board.counts[board.turn], board.counts[board.turn.other]
    short = board.geometry.size - 2
    cells = {
        cell
        for index, line in enumerate(board.geometry.lines)
        if mine[index] == short and not others[index]
        for cell in line.cells
    }
    return sorted(cell for cell in cells if board.is_legal(cell))


def _forces(board: Board, cell: int, depth: int, memo: Memo) -> bool:
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


# --- What a defence does, by the same plain means -----------------------------------------
#
# The defender (the side to move) faces the attacker's forced win by threats. A move *stops*
# it when, after the move and the forced exchange (each three answered by its block), the
# defender has won, or the attacker has no forced win by threats, or the defender is to move
# and one of its moves stops it in turn. A three that does not stop *delays*; any other move
# *fails*. Every legal move is tried at every turn: no list of candidates, no shortcut.

STOPS, DELAYS, FAILS = "stops", "delays", "fails"


class DefenceOracle:
    """Classifies the defender's moves, remembering threat-search answers across positions
    (keyed by the whole position, so they hold for any question)."""

    def __init__(self, depth: int) -> None:
        self.depth = depth  # the attacker's own moves looked through, as `wins_within`
        self._wins: Memo = {}
        self._holds: dict[tuple[int, int], bool] = {}
        self._lines: list[list[int]] = []  # the latest wins found, newest first

    def classify(self, board: Board, cell: int) -> str:
        """What the side to move playing `cell` does against the opponent's forced win."""
        defender = board.turn
        after = board.copy()
        after.push(cell)
        winner = _exchange(after)
        if winner is not None:
            return STOPS if winner is defender else FAILS
        if not self._attacker_wins(after, defender.other):
            return STOPS
        if len(after.moves) == len(board.moves) + 1:
            return FAILS
        if after.turn is defender and self.holds(after):
            return STOPS
        return DELAYS

    def holds(self, board: Board) -> bool:
        """Whether the side to move has a move that stops the opponent's forced win."""
        key = board.pair()
        if key not in self._holds:
            self._holds[key] = any(
                self.classify(board, cell) == STOPS for cell in board.legal_moves()
            )
        return self._holds[key]

    def _attacker_wins(self, board: Board, attacker: object) -> bool:
        """Whether `attacker` has a forced win by threats, as if it were to move: a win found
        earlier that still plays through here, else a search."""
        board = board.copy()
        if board.turn is not attacker:
            board.push_pass()
        if any(_plays_through(board, line) for line in self._lines):
            return True
        if not _wins(board, self.depth, self._wins):
            return False
        self._lines = [_line(board, self.depth, self._wins), *self._lines[: LINES_KEPT - 1]]
        return True


LINES_KEPT = 8  # wins remembered to try first: most defences leave one of them standing


def _line(board: Board, depth: int, memo: Memo) -> list[int]:
    """The attacker's moves of a forced win by threats within `depth` own moves (there must be
    one), the side to move attacking."""
    me = board.turn
    wins = board.winning_cells(me)
    if wins:
        return [wins[0]]
    theirs = board.winning_cells(me.other)
    cell = next(c for c in theirs or _three_cells(board) if _forces(board, c, depth, memo))
    board.push(cell)
    threats = board.winning_cells(me)
    if len(threats) > 1:
        board.pop()
        return [cell]
    board.push(threats[0])
    rest = _line(board, depth - 1, memo)
    board.pop()
    board.pop()
    return [cell, *rest]


def _plays_through(board: Board, line: list[int]) -> bool:
    """Whether the side to move wins by playing `line`'s moves in turn, each a three whose
    one block is played for the other side, the last a line or two threes. Each move is
    checked as it is played, so any line may be tried: a yes is a forced win."""
    pushed = 0
    try:
        for cell in line:
            me = board.turn
            if not board.is_legal(cell) or set(board.winning_cells(me.other)) - {cell}:
                return False  # taken, or a three of the other side left open
            board.push(cell)
            pushed += 1
            threats = board.winning_cells(me)
            if board.winner is me or len(threats) > 1:
                return True
            if not threats:
                return False
            board.push(threats[0])
            pushed += 1
        return False
    finally:
        for _ in range(pushed):
            board.pop()


def _exchange(board: Board) -> object | None:
    """Plays the forced exchange after the last move: while the side that moved has one three,
    the other blocks it. The side that won (a line, or two threes the other cannot answer
    with a line of its own), or None when the exchange ends with no three standing."""
    while not board.is_over():
        moved, to_move = board.mover(len(board.moves) - 1), board.turn
        if board.winning_cells(to_move):
            return to_move
        threes = board.winning_cells(moved)
        if len(threes) != 1:
            return moved if threes else None
        board.push(threes[0])
    return board.winner
