"""The terminal front end: asks the session's questions and prints what it answers.

In a terminal the questions are asked with prompt_toolkit (completion, history, a bottom
toolbar); when input is piped, lines are read plainly and echoed, so the output reads as a
transcript. Both can give up on a question when a person's time runs out.
"""

from __future__ import annotations

import math
import os
import select
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, TextIO

from qubic.game import GOODBYE, Output, Session
from qubic.render import Picture, render

if TYPE_CHECKING:
    from asyncio import TimerHandle


class TimeUp(Exception):
    """The time to answer a question ran out."""


class Asker(Protocol):
    def ask(self, question: str, seconds: float | None = None) -> str:
        """The answer to `question`; EOFError at end of input, KeyboardInterrupt on Ctrl-C,
        TimeUp when `seconds` (if given) pass first."""
        ...


class PipedAsker:
    """Reads answers line by line from a non-terminal and echoes them after the question.

    It reads the file descriptor itself: a buffered reader would hold lines that `select`
    cannot see, and a timed question would wait for input that has already arrived.
    """

    def __init__(self, stdin: int, stdout: TextIO) -> None:
        self.stdin, self.stdout = stdin, stdout
        self.pending = b""
        self.ended = False

    def ask(self, question: str, seconds: float | None = None) -> str:
        self.stdout.write(question + " ")
        self.stdout.flush()
        deadline = None if seconds is None else time.monotonic() + seconds
        while b"\n" not in self.pending and not self.ended:
            if deadline is not None:
                ready, _, _ = select.select([self.stdin], [], [],
                                            max(0.0, deadline - time.monotonic()))
                if not ready:
                    self.stdout.write("\n")
                    raise TimeUp
            chunk = os.read(self.stdin, 4096)
            self.pending += chunk
            self.ended = not chunk
        if not self.pending:
            self.stdout.write("\n")
            raise EOFError
        line, _, self.pending = self.pending.partition(b"\n")
        answer = line.decode("utf-8", "replace").rstrip("\r")
        self.stdout.write(answer + "\n")
        self.stdout.flush()
        return answer


class TerminalAsker:
    """Asks with prompt_toolkit: line editing, history on the up arrow, Tab completion of
    `words()`, and a bottom toolbar showing `status()` and the time left."""

    def __init__(self, status: Callable[[], str], words: Callable[[], list[str]],
                 colour: bool) -> None:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.completion import WordCompleter
        from prompt_toolkit.output import ColorDepth

        self.status = status
        self.deadline: float | None = None
        self.prompt_session: PromptSession[str] = PromptSession(
            bottom_toolbar=self._toolbar,
            completer=WordCompleter(words, ignore_case=True),
            color_depth=None if colour else ColorDepth.MONOCHROME,
        )

    def _toolbar(self) -> str:
        text = f" {self.status()}"
        if self.deadline is not None:
            left = max(0, math.ceil(self.deadline - time.monotonic()))
            text += f" | {left} S LEFT"
        return text

    def ask(self, question: str, seconds: float | None = None) -> str:
        # prompt_toolkit's own SIGINT handling leaves a window while its event loop is being
        # built or torn down, where a KeyboardInterrupt breaks the loop half-made. So SIGINT is
        # caught here: handed to the prompt as a typed Ctrl-C once it runs, and raised after.
        app = self.prompt_session.app
        interrupted: list[int] = []
        timer: list[TimerHandle] = []

        def running() -> bool:
            return app.is_running and app.future is not None and not app.future.done()

        def forward() -> None:
            if running():
                app.key_processor.send_sigint()

        def on_sigint(signum: int, frame: object) -> None:
            interrupted.append(signum)
            if app.loop is not None:
                app.loop.call_soon_threadsafe(forward)

        def time_out() -> None:
            if running():
                app.exit(exception=TimeUp())

        def pre_run() -> None:
            if interrupted:
                forward()
            if seconds is not None and app.loop is not None:
                timer.append(app.loop.call_later(max(0.0, seconds), time_out))

        self.deadline = None if seconds is None else time.monotonic() + seconds
        previous = signal.signal(signal.SIGINT, on_sigint)
        try:
            answer = self.prompt_session.prompt(
                question + " ", handle_sigint=False, pre_run=pre_run,
                refresh_interval=0 if seconds is None else 0.5)
        finally:
            signal.signal(signal.SIGINT, previous)
            for handle in timer:
                handle.cancel()
            self.deadline = None
        if interrupted:
            raise KeyboardInterrupt
        return answer


class TurnClock:
    """The time left on a person's turn: it runs on through commands and bad answers, and
    starts again whenever the moves change."""

    def __init__(self) -> None:
        self.turn: list[int] | None = None
        self.deadline = 0.0

    def left(self, session: Session) -> float | None:
        """Seconds left to answer the session's question; None when it is not timed."""
        limit = session.seconds_to_answer
        if limit is None:
            self.turn = None
            return None
        if session.board.moves != self.turn:
            self.turn = list(session.board.moves)
            self.deadline = time.monotonic() + limit
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


def run(session: Session, asker: Asker, stdout: TextIO = sys.stdout, spinner: bool = False,
        colour: bool = False, pause: float = 0.0) -> int:
    """Play until the player is done or leaves; the exit status (always 0).

    With `spinner`, the machine's longer thoughts show a turning bar (for terminals only);
    `colour` colours the board; `pause` is how long to wait between two machine moves in a row,
    so a person can watch the machine play itself.
    """

    def show(output: Output) -> None:
        for item in output:
            text = "\n".join(render(item, colour=colour)) if isinstance(item, Picture) else item
            stdout.write(text + "\n")
        stdout.flush()

    clock = TurnClock()
    try:
        show(session.start())
        while not session.done:
            if session.machine_to_move:
                if spinner:
                    with Spinner(stdout):
                        output = session.machine_move()
                else:
                    output = session.machine_move()
                show(output)
                if pause and session.machine_to_move:
                    time.sleep(pause)
                continue
            try:
                answer = asker.ask(session.prompt, clock.left(session))
            except TimeUp:
                show(session.time_up())
                continue
            show(session.answer(answer))
    except (KeyboardInterrupt, EOFError):
        show(["", GOODBYE])
    return 0
