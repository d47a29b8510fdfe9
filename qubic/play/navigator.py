"""Stepping through a reviewed game: its mistakes first, then its positions one at a time, as
N, P, F, L, a move number or MOVES asks (the question is the session's; `qubic.play.review`
finds what is said)."""

from __future__ import annotations

from contextlib import suppress

from qubic.core.board import Board
from qubic.core.inputs import NumberError, whole
from qubic.play.commands import LEAVE
from qubic.play.render import Output, Picture
from qubic.play.review import Review, annotated, position_words, review, summary
from qubic.play.text import quoted

REVIEW_KEYS = (
    "N: NEXT MOVE, P: PREVIOUS, F: FIRST, L: LAST, A NUMBER: AFTER THAT MOVE, "
    "MOVES: THE ANNOTATED LIST, Q: DONE."
)
REVIEW_WORDS = ("NEXT", "PREVIOUS", "FIRST", "LAST", "MOVES", "DONE")  # completed at REVIEW
DONE = ("Q", "DONE", *LEAVE)


class Navigator:
    """The review of a game and the position shown; `board` is that position's board, a copy
    the session may show and change (the game's last position once the review is done)."""

    def __init__(self, game: Board) -> None:
        self.review: Review = review(game)
        self.at = 0  # the position shown: before move at + 1
        self.board = self.review.positions[0].board.copy()
        self.done = False

    def start(self, keys: str = REVIEW_KEYS) -> Output:
        """The game's mistakes, what the steps are (`keys`), and its start."""
        return [*summary(self.review), keys, *self._shown()]

    def answer(self, text: str) -> Output:
        """Act on a step typed: a position shown, the annotated list, or why not; Q (DONE,
        QUIT, EXIT) ends the review, with nothing said."""
        typed = text.strip().upper()
        if typed in DONE:
            self.board = self.review.positions[-1].board.copy()
            self.done = True
            return []
        if typed == "MOVES":
            return [*annotated(self.review)]
        last = len(self.review.moves)
        ply = self._step(typed, last)
        if ply is None:
            return [f"{quoted(text)} IS NOT A REVIEW STEP."]
        if typed.isdigit() and ply > last:
            return [f"THERE IS NO MOVE {ply}: THE GAME HAS MOVES 1 TO {last}."]
        if ply < 0:
            return ["THIS IS THE START: NO MOVE COMES BEFORE IT."]
        if ply > last:
            return [f"THIS IS THE END: MOVE {last} WAS THE LAST."]
        return self._show(ply)

    def _step(self, typed: str, last: int) -> int | None:
        """The position a step names (perhaps beyond the game); None for no step."""
        steps = {"": self.at + 1, "N": self.at + 1, "NEXT": self.at + 1}
        steps |= {"P": self.at - 1, "PREVIOUS": self.at - 1, "F": 0, "FIRST": 0}
        steps |= {"L": last, "LAST": last}
        if typed.isdigit():
            with suppress(NumberError):  # ² or a 5,000-digit number names no move
                steps[typed] = whole(typed)
        return steps.get(typed)

    def _show(self, ply: int) -> Output:
        self.at = ply
        self.board = self.review.positions[ply].board.copy()
        return self._shown()

    def _shown(self) -> Output:
        return [Picture.of(self.board), *position_words(self.review, self.at)]
