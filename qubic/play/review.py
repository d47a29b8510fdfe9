"""A finished (or any) game looked back on: each position's verdict by threats, the decisive
mistakes marked, and where the first player left the proof's winning strategy. No terminal:
the front ends (`qubic review`, REVIEW in the console, `r` on the full screen) step through a
`Review` and print its words.

The marks, by `qubic.play.analysis.analyze`'s verdicts for the side to move:

- `??` on a move after which the mover's opponent has a forced win by threats (its verdict
  is WIN), when before it the mover faced no forced win that nothing stops (its verdict was
  not LOST): a move stopped it, or there was nothing to stop;
- `?!` on a move that passed over the mover's own forced win: the mover's verdict was WIN, and
  after the move the opponent is not LOST to it (nor is the game won).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

from qubic.core.board import PASS, Board, Mark
from qubic.core.geometry import CUBE
from qubic.core.notation import format_cell
from qubic.play.analysis import Analysis, Unanswered, Verdict, analyze, describe
from qubic.search import strategy

BLUNDER = "??"  # handed the opponent a forced win
MISSED = "?!"  # passed over a forced win of one's own


@dataclass(frozen=True)
class Position:
    """The board before move `ply` (after the last move when `ply` is the game's length),
    and its analysis for the side to move (None where there is none: the game over, a
    variant the theory does not cover, a search out of budget)."""

    ply: int
    board: Board
    analysis: Analysis | None


@dataclass(frozen=True)
class Review:
    """The positions of a game, first to last, each move's mark, and the first player's
    departure from the proof's strategy (the ply, and the strategy's move there)."""

    positions: tuple[Position, ...]
    marks: tuple[str, ...]  # one per move: '', '??' or '?!'
    left_strategy: tuple[int, int] | None = None

    @property
    def moves(self) -> list[int]:
        return self.positions[-1].board.moves


def review(board: Board, book: strategy.Entries | None = None) -> Review:
    """The review of the game on `board` (which is not changed): every position replayed
    from the start and analysed."""
    replay = Board(board.variant, board.first)
    positions = []
    for ply, cell in enumerate([*board.moves, None]):
        positions.append(Position(ply, replay.copy(), _analysis(replay)))
        if cell is None:
            break
        if cell == PASS:
            replay.push_pass()
        else:
            replay.push(cell)
    marks = tuple(_mark(before, after) for before, after in pairwise(positions))
    return Review(tuple(positions), marks, _left_strategy(positions, book))


def _analysis(board: Board) -> Analysis | None:
    try:
        return analyze(board)
    except Unanswered:
        return None


def _mark(before: Position, after: Position) -> str:
    if after.board.is_over() or before.analysis is None or after.analysis is None:
        return ""
    if after.analysis.verdict is Verdict.WIN and before.analysis.verdict is not Verdict.LOST:
        return BLUNDER
    if before.analysis.verdict is Verdict.WIN and after.analysis.verdict is not Verdict.LOST:
        return MISSED
    return ""


def _left_strategy(
    positions: list[Position], book: strategy.Entries | None
) -> tuple[int, int] | None:
    """The first move by which the first player left the proof's winning strategy, and the
    strategy's move there; on the 4x4x4 cube only, while the book knows the positions."""
    first = positions[0].board
    if not first.variant.is_qubic:
        return None
    entries = strategy.shipped() if book is None else book
    for before, after in pairwise(positions):
        board = before.board
        if board.turn is not board.first or after.board.moves[-1] == PASS:
            continue
        x, o = board.pair(board.first)
        found = strategy.x_move(x, o, entries)
        if found is None:
            return None  # the strategy does not know this position: nothing to say
        cell, _ = found
        played = after.board.moves[-1]
        if played == cell:
            continue
        if after.board.is_over():
            continue  # a won game is a won game
        same = CUBE.orient(x | 1 << played, o)[0] == CUBE.orient(x | 1 << cell, o)[0]
        if same:
            continue  # the strategy's move, in a mirror image
        if after.analysis is not None and after.analysis.verdict is Verdict.LOST:
            continue  # another way to a forced win: still winning
        return before.ply, cell
    return None


def move_line(review: Review, ply: int) -> str:
    """Move `ply` in the annotated list: `  7. X 234??`."""
    board = review.positions[ply].board
    cell = review.moves[ply]
    name = "PASS" if cell == PASS else format_cell(cell, board.geometry)
    return f"{ply + 1:>3}. {board.turn.name} {name}{review.marks[ply]}"


def annotated(review: Review) -> list[str]:
    """The annotated move list, one move a line, then what the marks mean and where the
    strategy was left."""
    lines = [move_line(review, ply) for ply in range(len(review.moves))]
    return lines + summary(review)


def summary(review: Review) -> list[str]:
    """The mistakes in a few words, and where the first player left the strategy."""
    lines = []
    for mark, meaning in (
        (BLUNDER, "GAVE THE OPPONENT A FORCED WIN"),
        (MISSED, "PASSED OVER A FORCED WIN"),
    ):
        plies = [str(ply + 1) for ply, m in enumerate(review.marks) if m == mark]
        if len(plies) == 1:
            lines.append(f"{mark} {meaning}: MOVE {plies[0]}.")
        elif plies:
            lines.append(f"{mark} {meaning}: MOVES {', '.join(plies[:-1])} AND {plies[-1]}.")
    if review.left_strategy is not None:
        ply, cell = review.left_strategy
        mover: Mark = review.positions[ply].board.turn
        geometry = review.positions[ply].board.geometry
        lines.append(
            f"{mover.name} LEFT THE WINNING STRATEGY AT MOVE {ply + 1}: "
            f"THE PROOF'S STRATEGY PLAYS {format_cell(cell, geometry)}."
        )
    if not lines:
        lines.append("NO DECISIVE MISTAKE FOUND BY THE THREAT SEARCH.")
    return lines


def position_words(review: Review, ply: int) -> list[str]:
    """What is said at position `ply` (0: the start, before move 1): the move that led here
    with its mark, and the verdict for the side to move."""
    position = review.positions[ply]
    words = [f"POSITION AFTER MOVE {ply} OF {len(review.moves)}."] if ply else ["THE START."]
    if ply:
        words[0] = f"MOVE {move_line(review, ply - 1).strip()} ({ply} OF {len(review.moves)})"
    outcome = position.board.outcome()
    if outcome is not None:
        winner = "A DRAW" if outcome.winner is None else f"{outcome.winner.name} WINS"
        words.append(f"THE GAME IS OVER: {winner}.")
    elif position.analysis is None:
        words.append("NO VERDICT HERE (THE THREAT SEARCH DOES NOT ANSWER THIS GAME).")
    else:
        words += describe(position.analysis, position.board.geometry)
    if review.left_strategy is not None and review.left_strategy[0] == ply:
        cell = review.left_strategy[1]
        words.append(
            f"HERE {position.board.turn.name} LEAVES THE WINNING STRATEGY: IT PLAYS "
            f"{format_cell(cell, position.board.geometry)}."
        )
    return words
