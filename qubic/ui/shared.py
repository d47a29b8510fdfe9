"""What the console and the full screen share: the exit status after Ctrl-C, the status bar
fitted, pastes of several lines, the turn clock and the thinking spinner."""

from __future__ import annotations

import math
import signal
import threading
import time
from typing import TextIO

from qubic.play.sitting import Sitting
from qubic.play.text import quoted

INTERRUPTED = 128 + signal.SIGINT  # the exit status after Ctrl-C, as a shell expects


def squeezed(parts: list[str], width: int) -> str:
    """The status bar's parts joined by ` | ` within `width`: whole parts are dropped to make
    it fit, the level first, then the move number, then from the end, so that a move's digits
    are never cut; a last part too long alone goes too."""
    kept = list(parts)
    order = [parts[1], parts[0]] if len(parts) > 2 else []
    while len(" | ".join(kept)) > width and len(kept) > 1:
        drop = next((part for part in order if part in kept), None)
        kept.remove(drop if drop is not None else kept[-1])
    text = " | ".join(kept)
    return text if len(text) <= width else ""


def split_paste(data: str) -> tuple[str, bool, str]:
    """A paste's first line, whether a line break ended it, and its other lines, on one line:
    one question takes one answer."""
    first, newline, rest = data.replace("\r\n", "\n").replace("\r", "\n").partition("\n")
    return first, bool(newline), " ".join(rest.split())


def dropped_words(rest: str) -> str:
    """What is said of a paste's lines after its first, which are dropped."""
    return f"ONE MOVE AT A TIME: ONLY THE FIRST LINE PASTED IS TAKEN, NOT {quoted(rest)}."


def seconds_left(left: float) -> str:
    """The time left on a turn, in words for the status bar."""
    seconds = max(0, math.ceil(left))
    return f"{seconds} SECOND{'' if seconds == 1 else 'S'} LEFT"


class TurnClock:
    """The time left on a person's turn: it runs on through commands and bad answers, and
    starts again whenever the game moves forward. UNDO gives no time back: the turn it
    returns to has the time that was left when UNDO was typed."""

    def __init__(self) -> None:
        self.turn: list[int] | None = None
        self.deadline = 0.0

    def left(self, session: Sitting) -> float | None:
        """Seconds left to answer the session's question; None when it is not timed."""
        limit = session.seconds_to_answer
        if limit is None:
            self.turn = None
            return None
        moves = session.board.moves
        if self.turn is None or moves != self.turn[: len(moves)]:
            self.deadline = time.monotonic() + limit
        self.turn = list(moves)
        return self.deadline - time.monotonic()


class Spinner:
    """While the machine thinks longer than a moment, a turning bar; erased when it is done."""

    DELAY = 0.3  # seconds before it appears: quick replies show nothing
    FRAMES = "|/-\\"
    TEXT = "THINKING "

    def __init__(self, stdout: TextIO) -> None:
        self.stdout = stdout
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._spin, daemon=True)

    def __enter__(self) -> Spinner:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopped.set()
        self.thread.join()

    def _spin(self) -> None:
        frame = 0
        while not self.stopped.wait(self.DELAY if frame == 0 else 0.1):
            self.stdout.write(f"\r{self.TEXT}{self.FRAMES[frame % len(self.FRAMES)]}")
            self.stdout.flush()
            frame += 1
        if frame:
            self.stdout.write("\r" + " " * (len(self.TEXT) + 1) + "\r")
            self.stdout.flush()
