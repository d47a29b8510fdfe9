"""What the side to move has, by threats: its own forced win, or the opponent's and its stops.

`analyze` looks at a position without changing it: the side to move's forced win by threats
(the whole line, forced replies included); else the opponent's, with every move after which
the opponent has none (or none at all); else quiet. `describe` says it in plain words, for any
front end. Where a proof of perfect play knows the position, it is said too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from qubic.board import Board, Mark
from qubic.hard import is_safe
from qubic.notation import format_cell
from qubic.threats import MAX_THREATS, ThreatSearch, still_forces, winning_cells

Proof = Callable[[Board], "Mark | None"]
"""Who wins the position with perfect play, where a proof knows it; None where it does not."""


def no_proof(board: Board) -> Mark | None:
    """The proof `analyze` asks unless told otherwise: none knows any position yet. (The
    perfect level's solver, issue 11, is meant to take its place.)"""
    return None


class Verdict(Enum):
    """What the side to move faces; each value is its word in the engine protocol."""

    WIN = "win"  # it has a forced win by threats
    DEFEND = "defend"  # the opponent has one, and some moves stop it
    LOST = "lost"  # the opponent has one that no move stops
    QUIET = "quiet"  # neither side has one within the search's reach


@dataclass(frozen=True)
class Analysis:
    """The verdict for `mover`, the side to move. `line` is the forced win (the mover's for
    WIN, the opponent's for DEFEND and LOST, as if it were to move), attacker first; `stops`
    the moves after which the opponent has none (DEFEND); `perfect` who wins with perfect
    play, if the proof knows."""

    verdict: Verdict
    mover: Mark
    line: tuple[int, ...] = ()
    stops: tuple[int, ...] = ()
    at_once: bool = False  # the line's one move completes four in a line
    perfect: Mark | None = None


def analyze(board: Board, search: ThreatSearch | None = None,
            proof: Proof = no_proof) -> Analysis:
    """The analysis of `board` (not over) for the side to move; the board is not changed."""
    search = search if search is not None else ThreatSearch()
    mover = board.turn
    me, you = board.bits[mover], board.bits[mover.other]
    perfect = proof(board)
    line = search.forced_win(me, you)
    if line is not None:
        return Analysis(Verdict.WIN, mover, tuple(line), at_once=_at_once(line, me, you),
                        perfect=perfect)
    theirs = search.forced_win(you, me)
    if theirs is None:
        return Analysis(Verdict.QUIET, mover, perfect=perfect)
    # A move the opponent's line still forces through is no stop: no search needed for it.
    stops = tuple(cell for cell in board.legal_moves()
                  if not still_forces(theirs, you, me | 1 << cell)
                  and is_safe(search, me, you, cell))
    return Analysis(Verdict.DEFEND if stops else Verdict.LOST, mover, tuple(theirs), stops,
                    _at_once(theirs, you, me), perfect)


def _at_once(line: list[int], me: int, you: int) -> bool:
    return bool(winning_cells(me, you) >> line[0] & 1)


def line_rows(line: tuple[int, ...] | list[int], attacker: Mark, at_once: bool = False,
              start: int = 1) -> list[str]:
    """A forced win as numbered rows, one per own move with the forced reply beside it:
    `  1. X 234  O 143`, the last saying how it wins; `start` numbers the first row."""
    defender = attacker.other
    rows = []
    for number, index in enumerate(range(0, len(line), 2), start=start):
        move = f"  {number}. {attacker.name} {format_cell(line[index])}"
        if index + 1 < len(line):
            rows.append(f"{move}  {defender.name} {format_cell(line[index + 1])}")
        else:
            rows.append(f"{move}  {'FOUR IN A LINE' if at_once else 'TWO THREATS AT ONCE'}")
    return rows


def own_moves(line: tuple[int, ...] | list[int]) -> int:
    """How many moves of the attacker's a forced win takes."""
    return (len(line) + 1) // 2


def moves_word(count: int) -> str:
    """`3 MOVES`, `1 MOVE`."""
    return f"{count} MOVE{'' if count == 1 else 'S'}"


def describe(analysis: Analysis) -> list[str]:
    """The analysis in plain words, one line each."""
    mover, other = analysis.mover.name, analysis.mover.other.name
    line = analysis.line
    if analysis.verdict is Verdict.WIN:
        if analysis.at_once:
            words = [f"{mover} TO MOVE WINS AT ONCE: {format_cell(line[0])}."]
        else:
            words = [f"{mover} TO MOVE HAS A FORCED WIN BY THREATS IN "
                     f"{moves_word(own_moves(line))}:",
                     *line_rows(line, analysis.mover)]
    elif analysis.verdict is Verdict.QUIET:
        words = [f"NEITHER SIDE HAS A FORCED WIN BY THREATS (THE SEARCH LOOKS {MAX_THREATS} "
                 "MOVES DEEP)."]
    else:
        if analysis.at_once:
            words = [f"{mover} TO MOVE HAS NO FORCED WIN; {other} THREATENS TO WIN AT "
                     f"{format_cell(line[0])}."]
        else:
            words = [f"{mover} TO MOVE HAS NO FORCED WIN; {other} HAS ONE BY THREATS IN "
                     f"{moves_word(own_moves(line))}, IF LEFT TO MOVE:",
                     *line_rows(line, analysis.mover.other)]
        if analysis.verdict is Verdict.DEFEND:
            words.append("MOVES THAT STOP IT: "
                         + " ".join(format_cell(cell) for cell in analysis.stops) + ".")
        else:
            words.append("MOVES THAT STOP IT: NONE. EVERY MOVE LOSES TO IT.")
    if analysis.perfect is not None:
        words.append(f"{analysis.perfect.name} WINS WITH PERFECT PLAY.")
    return words
