"""The terminal front end: asks the session's questions and prints what it answers.

In a terminal the questions are asked with prompt_toolkit; when input is piped, lines are read
plainly and echoed, so the output reads as a transcript.
"""

from __future__ import annotations

import signal
import sys
import threading
from typing import Protocol, TextIO

from qubic.game import GOODBYE, Output, Picture, Session
from qubic.render import render


class Asker(Protocol):
    def ask(self, question: str) -> str:
        """The answer to `question`; EOFError at end of input, KeyboardInterrupt on Ctrl-C."""
        ...


class PipedAsker:
    """Reads answers line by line from a non-terminal and echoes them after the question."""

    def __init__(self, stdin: TextIO, stdout: TextIO) -> None:
        self.stdin, self.stdout = stdin, stdout

    def ask(self, question: str) -> str:
        self.stdout.write(question + " ")
        line = self.stdin.readline()
        if not line:
            self.stdout.write("\n")
            raise EOFError
        answer = line.rstrip("\r\n")
        self.stdout.write(answer + "\n")
        self.stdout.flush()
        return answer


class TerminalAsker:
    """Asks with prompt_toolkit: line editing, history on the up arrow."""

    def __init__(self) -> None:
        from prompt_toolkit import PromptSession

        self.prompt_session: PromptSession[str] = PromptSession()

    def ask(self, question: str) -> str:
        # prompt_toolkit's own SIGINT handling leaves a window while its event loop is being
        # built or torn down, where a KeyboardInterrupt breaks the loop half-made. So SIGINT is
        # caught here: handed to the prompt as a typed Ctrl-C once it runs, and raised after.
        app = self.prompt_session.app
        interrupted: list[int] = []

        def forward() -> None:
            if app.is_running and app.future is not None and not app.future.done():
                app.key_processor.send_sigint()

        def on_sigint(signum: int, frame: object) -> None:
            interrupted.append(signum)
            if app.loop is not None:
                app.loop.call_soon_threadsafe(forward)

        def pre_run() -> None:
            if interrupted:
                forward()

        previous = signal.signal(signal.SIGINT, on_sigint)
        try:
            answer = self.prompt_session.prompt(
                question + " ", handle_sigint=False, pre_run=pre_run)
        finally:
            signal.signal(signal.SIGINT, previous)
        if interrupted:
            raise KeyboardInterrupt
        return answer


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


def run(session: Session, asker: Asker, stdout: TextIO = sys.stdout,
        spinner: bool = False) -> int:
    """Play until the player is done or leaves; the exit status (always 0).

    With `spinner`, the machine's longer thoughts show a turning bar (for terminals only).
    """

    def show(output: Output) -> None:
        for item in output:
            text = "\n".join(render(item)) if isinstance(item, Picture) else item
            stdout.write(text + "\n")
        stdout.flush()

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
            else:
                show(session.answer(asker.ask(session.prompt)))
    except (KeyboardInterrupt, EOFError):
        show(["", GOODBYE])
    return 0
