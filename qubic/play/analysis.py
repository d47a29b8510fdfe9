"""What the side to move has, by threats: its own forced win, or the opponent's and its stops.

`analyze` looks at a position without changing it: the side to move's forced win by threats
(the whole line, forced replies included); else the opponent's, with every move after which
the opponent has none (or none at all); else quiet. `describe` says it in plain words, for any
front end. Where the perfect level's proof knows the position (the strategy book holds it),
that is said too. The theory is for two sides where the first line wins, on any cube.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from qubic.core.board import Board, Mark, winning_mask
from qubic.core.geometry import CUBE, Geometry
from qubic.core.notation import format_cell
from qubic.core.symmetry import lookup
from qubic.search import strategy
from qubic.search.defence import Defence, defences
from qubic.search.threats import MAX_THREATS, OutOfBudget, ThreatSearch

# The positions one analysis may search, about a second: on 4x4x4 the most seen in positions
# from machine games is under 200,000 (benchmarks/analysis.py); bigger cubes can take longer.
NODES = 400_000


class Unanswered(ValueError):
    """A position analysis cannot answer; the message says why in one line."""


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
    the moves that stop it (DEFEND) and `delays` the threes that only delay it (DEFEND and
    LOST), by `qubic.search.defence`'s rule; `perfect` who wins with perfect play, if the
    proof knows."""

    verdict: Verdict
    mover: Mark
    line: tuple[int, ...] = ()
    stops: tuple[int, ...] = ()
    delays: tuple[int, ...] = ()
    at_once: bool = False  # the line's one move completes a line
    perfect: Mark | None = None


def analyze(
    board: Board, search: ThreatSearch | None = None, book: strategy.Entries | None = None
) -> Analysis:
    """The analysis of `board` for the side to move; the board is not changed. `search` may
    bring its own budget (else NODES positions); `book` is the strategy book asked (the
    shipped one if None). Unanswered for a game over, a variant the theory does not cover
    (more sides, or lines that score) or a search out of budget."""
    if not board.variant.threat_theory:
        raise Unanswered("analysis is for two-sided games where the first line wins")
    if board.is_over():
        raise Unanswered("the game is over")
    search = search if search is not None else ThreatSearch(NODES, geometry=board.geometry)
    try:
        return _analyze(board, search, strategy.shipped() if book is None else book)
    except OutOfBudget:
        raise Unanswered("the search ran out of its budget on this board") from None


def _analyze(board: Board, search: ThreatSearch, book: strategy.Entries) -> Analysis:
    geometry = board.geometry
    mover = board.turn
    me, you = board.pair()
    perfect = proof_winner(board, book)
    # Whether there is a win at all is quicker to settle than which is the shortest.
    if search.forced_win(me, you, shortest=False) is not None:
        line = search.forced_win(me, you)
        assert line is not None
        return Analysis(
            Verdict.WIN,
            mover,
            tuple(line),
            at_once=_at_once(line, me, you, geometry),
            perfect=perfect,
        )
    if search.forced_win(you, me, shortest=False) is None:
        return Analysis(Verdict.QUIET, mover, perfect=perfect)
    theirs = search.forced_win(you, me)
    assert theirs is not None
    found = defences(search, me, you, theirs)
    stops = tuple(cell for cell, defence in found.items() if defence is Defence.STOPS)
    delays = tuple(cell for cell, defence in found.items() if defence is Defence.DELAYS)
    return Analysis(
        Verdict.DEFEND if stops else Verdict.LOST,
        mover,
        tuple(theirs),
        stops,
        delays,
        _at_once(theirs, you, me, geometry),
        perfect,
    )


def proof_winner(board: Board, book: strategy.Entries) -> Mark | None:
    """The side that wins with perfect play where the proof's strategy book holds the
    position (QUBIC, the first mover to play); None where it does not."""
    first = board.first
    if not board.variant.is_qubic or board.turn is not first:
        return None
    found = lookup(book, *board.pair(first))
    return None if found is None else first


def _at_once(line: list[int], me: int, you: int, geometry: Geometry) -> bool:
    """Whether the line's first move completes a line of `me`'s."""
    return bool(winning_mask(me, you, geometry) >> line[0] & 1)


def line_rows(
    line: tuple[int, ...] | list[int], attacker: Mark, geometry: Geometry = CUBE
) -> list[str]:
    """A forced win that ends in two threats as numbered rows, one per own move with the
    forced reply beside it: `  1. X 234  O 143`, the last `  4. X 121  TWO THREATS AT ONCE`."""
    defender = attacker.other
    rows = []
    for number, index in enumerate(range(0, len(line), 2), start=1):
        move = f"  {number}. {attacker.name} {format_cell(line[index], geometry)}"
        if index + 1 < len(line):
            rows.append(f"{move}  {defender.name} {format_cell(line[index + 1], geometry)}")
        else:
            rows.append(f"{move}  TWO THREATS AT ONCE")
    return rows


def own_moves(line: tuple[int, ...] | list[int]) -> int:
    """How many moves of the attacker's a forced win takes."""
    return (len(line) + 1) // 2


def moves_word(count: int) -> str:
    """`3 MOVES`, `1 MOVE`."""
    return f"{count} MOVE{'' if count == 1 else 'S'}"


def describe(analysis: Analysis, geometry: Geometry = CUBE) -> list[str]:
    """The analysis in plain words, one line each, cells named on `geometry`."""
    mover, other = analysis.mover.name, analysis.mover.other.name
    line = analysis.line
    if analysis.verdict is Verdict.WIN:
        if analysis.at_once:
            words = [f"{mover} TO MOVE WINS AT ONCE: {format_cell(line[0], geometry)}."]
        else:
            words = [
                f"{mover} TO MOVE HAS A FORCED WIN BY THREATS IN {moves_word(own_moves(line))}:",
                *line_rows(line, analysis.mover, geometry),
            ]
    elif analysis.verdict is Verdict.QUIET:
        words = [
            f"NEITHER SIDE HAS A FORCED WIN BY THREATS (THE SEARCH LOOKS {MAX_THREATS} MOVES DEEP)."
        ]
    else:
        if analysis.at_once:
            words = [
                f"{mover} TO MOVE HAS NO FORCED WIN; {other} THREATENS TO WIN AT "
                f"{format_cell(line[0], geometry)}."
            ]
        else:
            words = [
                f"{mover} TO MOVE HAS NO FORCED WIN; {other} HAS ONE BY THREATS IN "
                f"{moves_word(own_moves(line))}, IF LEFT TO MOVE:",
                *line_rows(line, analysis.mover.other, geometry),
            ]
        if analysis.verdict is Verdict.DEFEND:
            words.append(f"MOVES THAT STOP IT: {_cells(analysis.stops, geometry)}.")
        else:
            words.append("MOVES THAT STOP IT: NONE. EVERY MOVE LOSES TO IT.")
        if analysis.delays:
            words.append(f"ONLY DELAYS IT: {_cells(analysis.delays, geometry)}.")
    if analysis.perfect is not None:
        words.append(f"{analysis.perfect.name} WINS WITH PERFECT PLAY (THE PROOF'S STRATEGY).")
    return words


def _cells(cells: tuple[int, ...], geometry: Geometry) -> str:
    return " ".join(format_cell(cell, geometry) for cell in cells)
