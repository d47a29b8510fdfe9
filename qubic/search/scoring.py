"""The guide's scoring of cells: open lines, own lines advanced, the opponent's pressed, and
the urgent moves (a line completed, a line blocked), for any number of sides.
"""

from __future__ import annotations

from qubic.core.board import Board, Mark

# Score of a line through the cell, by how many stones the mover (ADVANCE) or the opponent (PRESS)
# already has on it while the other side has none. An empty line is a promising one: ADVANCE[0].
ADVANCE = (1.0, 4.0, 16.0)
PRESS = (0.0, 3.0, 12.0)
FORK = 40.0  # a cell that makes (or would give the opponent) two threes at once
CENTRAL = 0.25  # per line through the cell: corners and centre cells lie on 7, others on 4


def score_cells(board: Board, mark: Mark, seen: int | None = None) -> dict[int, float]:
    """Every empty cell's heuristic score for `mark` to move there, counting only the lines
    `seen` has a bit for (by index; None: every line). With more than one opponent, a line is
    pressed when one of them alone holds cells on it."""
    geometry = board.geometry
    mine, theirs = board.counts[mark], opponents_counts(board, mark)
    three = geometry.size - 2  # stones on a line one move away from a threat
    scores = {}
    for cell in board.legal_moves():
        score = 0.0
        my_threes = their_threes = 0
        lines = geometry.lines_through[cell]
        for line in lines:
            if seen is not None and not seen >> line & 1:
                continue
            own, opp = mine[line], theirs[line]
            if opp == 0:
                score += ADVANCE[min(own, 2)]
                my_threes += own == three
            elif own == 0 and opp > 0:
                score += PRESS[min(opp, 2)]
                their_threes += opp == three
        if my_threes >= 2:
            score += FORK
        if their_threes >= 2:
            score += FORK * 0.75
        scores[cell] = score + CENTRAL * len(lines)
    return scores


def opponents_counts(board: Board, mark: Mark) -> list[int]:
    """For each line, how many cells the opponents hold on it, or -1 when more than one of
    them does (a line nobody can complete)."""
    others = [board.counts[side] for side in board.sides if side != mark]
    if len(others) == 1:
        return others[0]
    return [sum(counts) if sum(map(bool, counts)) < 2 else -1 for counts in zip(*others)]


def in_turn(board: Board) -> list[Mark]:
    """The sides in the order they move from now: the side to move first."""
    ply = len(board.moves)
    return [board.mover(ply + i) for i in range(len(board.sides))]


def urgent_move(board: Board) -> int | None:
    """A move that completes a line at once, else one that blocks the next side's (then the
    one after's) immediate line, else None.

    In a scoring game a blocked line is a point less for one other side, no more than a
    line of one's own is: only completing lines is urgent there, the cell completing the most
    first (measured, this turns normal's lead over easy in the tesseract from 16-8 to 20-4)."""
    if board.variant.scoring:
        cells = board.winning_cells(board.turn)
        return max(cells, key=board.completed_by) if cells else None
    for side in in_turn(board):
        cells = board.winning_cells(side)
        if cells:
            return cells[0]
    return None
