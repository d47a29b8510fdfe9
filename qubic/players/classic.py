"""The classic level: the 1970s BASIC QUBIC machine, move for move and in its own words.

It follows the listing step by step, as docs/classic.md describes it. The tables are kept as
the listing has them, in its own cell numbers m = 16(L-1) + 4(R-1) + C (printed level, row,
column), and translated to our cells once, at import. Cell values are counted in eighths so
that sums with the temporary mark 1/8 compare exactly: empty 0, mark 1, human 8, machine 40.
"""

from __future__ import annotations

from qubic.core.board import Board, iter_bits
from qubic.core.geometry import CUBE
from qubic.players.base import PLAIN_ANNOUNCEMENT, Reply

ONE = 8  # the listing's 1, in eighths
EMPTY, MARK, HUMAN, MACHINE = 0, 1, ONE, 5 * ONE

NICE_TRY = "NICE TRY. MACHINE MOVES TO"
GET_OUT = "LET'S SEE YOU GET OUT OF THIS:  MACHINE MOVES TO"
YOU_FOX = "YOU FOX.  JUST IN THE NICK OF TIME, MACHINE MOVES TO"
TAKES = "MACHINE TAKES"
LIKES = "MACHINE LIKES"

# The 76 lines in the order the machine scans them, four to a row: each row is one "plane"
# group of the plane pass (lines 4k-3..4k).
LISTING_LINES: tuple[tuple[int, int, int, int], ...] = (
    (1, 2, 3, 4),
    (5, 6, 7, 8),
    (9, 10, 11, 12),
    (13, 14, 15, 16),
    (17, 18, 19, 20),
    (21, 22, 23, 24),
    (25, 26, 27, 28),
    (29, 30, 31, 32),
    (33, 34, 35, 36),
    (37, 38, 39, 40),
    (41, 42, 43, 44),
    (45, 46, 47, 48),
    (49, 50, 51, 52),
    (53, 54, 55, 56),
    (57, 58, 59, 60),
    (61, 62, 63, 64),
    (1, 17, 33, 49),
    (5, 21, 37, 53),
    (9, 25, 41, 57),
    (13, 29, 45, 61),
    (2, 18, 34, 50),
    (6, 22, 38, 54),
    (10, 26, 42, 58),
    (14, 30, 46, 62),
    (3, 19, 35, 51),
    (7, 23, 39, 55),
    (11, 27, 43, 59),
    (15, 31, 47, 63),
    (4, 20, 36, 52),
    (8, 24, 40, 56),
    (12, 28, 44, 60),
    (16, 32, 48, 64),
    (1, 5, 9, 13),
    (17, 21, 25, 29),
    (33, 37, 41, 45),
    (49, 53, 57, 61),
    (2, 6, 10, 14),
    (18, 22, 26, 30),
    (34, 38, 42, 46),
    (50, 54, 58, 62),
    (3, 7, 11, 15),
    (19, 23, 27, 31),
    (35, 39, 43, 47),
    (51, 55, 59, 63),
    (4, 8, 12, 16),
    (20, 24, 28, 32),
    (36, 40, 44, 48),
    (52, 56, 60, 64),
    (1, 6, 11, 16),
    (17, 22, 27, 32),
    (33, 38, 43, 48),
    (49, 54, 59, 64),
    (13, 10, 7, 4),
    (29, 26, 23, 20),
    (45, 42, 39, 36),
    (61, 58, 55, 52),
    (1, 21, 41, 61),
    (2, 22, 42, 62),
    (3, 23, 43, 63),
    (4, 24, 44, 64),
    (49, 37, 25, 13),
    (50, 38, 26, 14),
    (51, 39, 27, 15),
    (52, 40, 28, 16),
    (1, 18, 35, 52),
    (5, 22, 39, 56),
    (9, 26, 43, 60),
    (13, 30, 47, 64),
    (49, 34, 19, 4),
    (53, 38, 23, 8),
    (57, 42, 27, 12),
    (61, 46, 31, 16),
    (1, 22, 43, 64),
    (16, 27, 38, 49),
    (4, 23, 42, 61),
    (13, 26, 39, 52),
)
# The preferred squares: the 8 corners, then the 8 centre cells.
LISTING_PREFERRED = (1, 49, 52, 4, 13, 61, 64, 16, 22, 39, 23, 38, 26, 42, 27, 43)
# The plane pass takes lines 1-72 four at a time; the space diagonals (73-76) are no plane.
PLANE_GROUPS = 18


def from_listing(m: int) -> int:
    """Our cell for the listing's cell number m = 16(L-1) + 4(R-1) + C."""
    level, rest = divmod(m - 1, 16)
    row, column = divmod(rest, 4)
    return CUBE.cell((level, column, row))


LINES = tuple(tuple(from_listing(m) for m in line) for line in LISTING_LINES)
PREFERRED = tuple(from_listing(m) for m in LISTING_PREFERRED)
LISTING_ORDER = tuple(from_listing(m) for m in range(1, 65))


class ClassicPlayer:
    """The listing's machine: the same position always gets the same reply."""

    def __init__(self, seed: int | None = None) -> None:
        """`seed` is there for the registry only: the listing has no randomness."""

    def choose(self, board: Board, seconds: float | None = None) -> Reply:
        """The listing's move for the side to move, which plays as its machine."""
        values = [EMPTY] * len(CUBE.cells)
        for mark, value in ((board.turn, MACHINE), (board.turn.other, HUMAN)):
            for cell in iter_bits(board.bits[mark]):
                values[cell] = value
        return machine_turn(values)


def machine_turn(values: list[int]) -> Reply:
    """Steps 3 to 12 of the machine's turn; `values` is scribbled on with marks.

    Steps 2 (the human has four) and 13 (a full board) never come up: the game is over first.
    """
    reply = (
        complete_line(values, 3 * MACHINE, PLAIN_ANNOUNCEMENT)
        or complete_line(values, 3 * HUMAN, NICE_TRY)
        or fork_pass(values, 2 * MACHINE)
        or marked_line(values, (4 * MARK, MACHINE + 3 * MARK))
    )
    if reply:
        return reply
    clear_marks(values)
    reply = (
        fork_pass(values, 2 * HUMAN)
        or marked_line(values, (4 * MARK, HUMAN + 3 * MARK))
        or plane_pass(values)
    )
    if reply:
        return reply
    clear_marks(values)
    return preferred(values) or first_empty(values)


def line_sum(values: list[int], number: int) -> int:
    """Line `number`'s sum (lines are numbered 1..76 as in the listing), in eighths."""
    return sum(values[cell] for cell in LINES[number - 1])


def complete_line(values: list[int], total: int, announcement: str) -> Reply | None:
    """Steps 3 and 4: the first line summing to `total` (three of a kind): its one empty cell."""
    for number in range(1, len(LINES) + 1):
        if line_sum(values, number) == total:
            cell = next(c for c in LINES[number - 1] if values[c] == EMPTY)
            return Reply(cell, announcement)
    return None


def fork_pass(values: list[int], pair: int) -> Reply | None:
    """Steps 5 and 8: mark the empties of lines holding exactly `pair` (two stones, two empties);
    a line that also holds marks made earlier in the pass crosses another such line: FORK."""
    for number in range(1, len(LINES) + 1):
        total = line_sum(values, number)
        if total == pair:
            for cell in LINES[number - 1]:
                if values[cell] == EMPTY:
                    values[cell] = MARK
        elif pair < total < pair + ONE:
            return fork(values, number, total)
    return None


def fork(values: list[int], number: int, total: int) -> Reply:
    """FORK(i): the first marked cell of line `number`, taunting by whose fork it is."""
    cell = next(c for c in LINES[number - 1] if values[c] == MARK)
    return Reply(cell, YOU_FOX if total < 5 * ONE else GET_OUT)


def diag(values: list[int], number: int, value: int) -> Reply | None:
    """DIAG(i, s): of the line's ends (i mod 4 is 0 or 1) or middles, the first holding `value`."""
    cells = LINES[number - 1]
    ends = (cells[0], cells[3]) if number % 4 in (0, 1) else (cells[1], cells[2])
    for cell in ends:
        if values[cell] == value:
            return Reply(cell, TAKES)
    return None


def marked_line(values: list[int], totals: tuple[int, ...]) -> Reply | None:
    """Steps 6 and 9: the first line whose sum is one of `totals`: DIAG(i, 1/8)."""
    for number in range(1, len(LINES) + 1):
        if line_sum(values, number) in totals:
            return diag(values, number, MARK)
    return None


def plane_pass(values: list[int]) -> Reply | None:
    """Step 10: groups of four lines whose sum P is in [4, 5) or [9, 10): DIAG(i, 1/8) on the
    four, then DIAG(i, 0). Groups 5-8 and 9-12 are the same planes, as in the listing."""
    for group in range(1, PLANE_GROUPS + 1):
        numbers = range(4 * group - 3, 4 * group + 1)
        total = sum(line_sum(values, number) for number in numbers)
        if 4 * ONE <= total < 5 * ONE or 9 * ONE <= total < 10 * ONE:
            for value in (MARK, EMPTY):
                for number in numbers:
                    reply = diag(values, number, value)
                    if reply:
                        return reply
    return None


def clear_marks(values: list[int]) -> None:
    """Steps 7 and 11: every mark back to empty."""
    for cell, value in enumerate(values):
        if value == MARK:
            values[cell] = EMPTY


def preferred(values: list[int]) -> Reply | None:
    """Step 11: the first empty preferred square."""
    for cell in PREFERRED:
        if values[cell] == EMPTY:
            return Reply(cell, PLAIN_ANNOUNCEMENT)
    return None


def first_empty(values: list[int]) -> Reply:
    """Step 12: the first empty cell in the listing's numbering (level, row, column)."""
    return Reply(next(cell for cell in LISTING_ORDER if values[cell] == EMPTY), LIKES)
