"""The terminal front end: asks the session's questions and prints what it answers.

In a terminal the questions are asked with prompt_toolkit (`qubic.ui.terminal`); when input
is piped, lines are read plainly and echoed, so the output reads as a transcript. Both can give
up on a question when a person's time runs out. While the machine thinks, a terminal is read
quietly: keys typed ahead wait for the next question.
"""

from __future__ import annotations

import codecs
import os
import re
import select
import shutil
import signal
import sys
import termios
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext, suppress
from dataclasses import dataclass
from typing import Protocol, TextIO

from qubic.play.commands import NUMBER_WORDS
from qubic.play.render import Output, Picture, fitting_across, render, wide_width
from qubic.play.sitting import GOODBYE, Sitting
from qubic.play.text import WIDTH, Hanging, fit
from qubic.ui.shared import INTERRUPTED, Spinner, TurnClock

STOPS = (signal.SIGTERM, signal.SIGHUP)  # told to stop, or the terminal went away


class TimeUp(Exception):
    """The time to answer a question ran out."""


class Stopped(SystemExit):
    """A signal in STOPS arrived: everything unwinds, the terminal is put back as it was, and
    the program exits with status 128 + the signal's number, as a shell expects."""

    def __init__(self, signum: int) -> None:
        super().__init__(128 + signum)
        self.signum = signum


def _stop(signum: int, frame: object) -> None:
    raise Stopped(signum)


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

    def __init__(self, stdin: int, stdout: TextIO, encoding: str = "utf-8") -> None:
        self.stdin, self.stdout = stdin, stdout
        self.encoding = encoding  # the locale's: what a person's keyboard or file sends
        self.pending = b""
        self.ended = False

    def ask(self, question: str, seconds: float | None = None) -> str:
        self.stdout.write(question + " ")
        self.stdout.flush()
        deadline = None if seconds is None else time.monotonic() + seconds
        while b"\n" not in self.pending and not self.ended:
            if deadline is not None:
                ready, _, _ = select.select(
                    [self.stdin], [], [], max(0.0, deadline - time.monotonic())
                )
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
        answer = line.decode(self.encoding, "replace").rstrip("\r")
        self.stdout.write(answer + "\n")
        self.stdout.flush()
        return answer


class TypeAhead:
    """The keyboard while the machine thinks: nothing typed is echoed over the spinner, Ctrl-C
    still interrupts, Ctrl-D leaves as it does at a question (EOFError), and the rest is kept
    for the next question."""

    EOF = "\x04"
    # Escape sequences (arrow keys and the like) mean nothing typed ahead: dropped.
    ESCAPES = re.compile(r"\x1b(\[[0-9;]*[@-~]|O.|.)?")

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.text = ""
        self.ended = False

    @contextmanager
    def quiet(self) -> Iterator[None]:
        """The terminal without echo or line editing, read in the background, for a while."""
        saved = termios.tcgetattr(self.fd)
        quiet = termios.tcgetattr(self.fd)
        quiet[3] &= ~(termios.ICANON | termios.ECHO)
        termios.tcsetattr(self.fd, termios.TCSANOW, quiet)
        stop = threading.Event()
        typed: list[str] = []
        reader = threading.Thread(target=self._read, args=(stop, typed), daemon=True)
        reader.start()
        try:
            yield
        except KeyboardInterrupt:
            if self.ended:
                raise EOFError from None
            raise
        finally:
            stop.set()
            termios.tcsetattr(self.fd, termios.TCSANOW, saved)
            reader.join()
            self.text = _edited(self.text + self.ESCAPES.sub("", "".join(typed)))
        if self.ended:
            raise EOFError

    def take(self) -> tuple[str, bool]:
        """The text typed ahead for the next question, and whether Enter ended it."""
        line, enter, self.text = self.text.partition("\n")
        return line, bool(enter)

    def _read(self, stop: threading.Event, typed: list[str]) -> None:
        decoder = codecs.getincrementaldecoder("utf-8")("replace")
        while not self.ended:
            ready, _, _ = select.select([self.fd], [], [], 0 if stop.is_set() else 0.05)
            if not ready:
                if stop.is_set():
                    return
                continue
            text = decoder.decode(os.read(self.fd, 1024))
            before, eof, _ = text.partition(self.EOF)
            typed.append(before)
            if eof:
                self.ended = True
                if not stop.is_set():
                    os.kill(os.getpid(), signal.SIGINT)  # stop the machine's thinking


def _edited(text: str) -> str:
    """Typed text with its backspaces carried out and other control keys dropped."""
    kept: list[str] = []
    for char in text.replace("\r", "\n"):
        if char in "\x7f\b":
            if kept and kept[-1] != "\n":
                kept.pop()
        elif char == "\n" or char.isprintable():
            kept.append(char)
    return "".join(kept)


def run(
    session: Sitting,
    asker: Asker,
    stdout: TextIO = sys.stdout,
    spinner: bool = False,
    colour: bool = False,
    pause: float = 0.0,
    typeahead: TypeAhead | None = None,
    wrap: bool = False,
    board: str | None = None,
) -> int:
    """Play until the player is done or leaves; the exit status: 0, or 130 after Ctrl-C.

    With `spinner`, the machine's longer thoughts show a turning bar (for terminals only);
    `colour` colours the board; `pause` is how long to wait between two machine moves in a row,
    so a person can watch the machine play itself; `typeahead` reads the keyboard meanwhile;
    `wrap` fits long lines to the terminal's width at word boundaries; `board` "wide" or
    "tall" lays the levels of the cube side by side or one under another (None: wide with
    `wrap`, when the terminal is wide enough).
    """

    printer = Printer(stdout, colour, wrap, board)
    show = printer.show
    # Told to stop (SIGTERM) or hung up (SIGHUP), the game unwinds as after Ctrl-C, putting
    # the terminal back as it found it; a signal ignored from the start (nohup) stays so.
    previous = {
        signum: signal.signal(signum, _stop)
        for signum in STOPS
        if signal.getsignal(signum) is not signal.SIG_IGN
    }
    try:
        show(session.start())
        _play(session, asker, printer, spinner, pause, typeahead)
    except KeyboardInterrupt:
        show(["", GOODBYE])
        return INTERRUPTED
    except EOFError:
        show(["", GOODBYE])
    except Stopped as stop:
        if stop.signum == signal.SIGHUP:
            _silence()  # no one is left to read: nothing more is written, not even at exit
        else:
            with suppress(OSError):
                show(["", GOODBYE])
        return int(stop.code)  # type: ignore[arg-type]
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    return 0


def _play(
    session: Sitting,
    asker: Asker,
    printer: Printer,
    spinner: bool,
    pause: float,
    typeahead: TypeAhead | None,
) -> None:
    """The session's questions and the machine's moves, until the player is done."""
    clock, show = TurnClock(), printer.show
    while not session.done:
        if session.machine_to_move:
            with typeahead.quiet() if typeahead else nullcontext():
                with Spinner(printer.stdout) if spinner else nullcontext():
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


@dataclass
class Printer:
    """Writes what a session says: lines fitted to the terminal's width with `wrap`, the
    board in the layout asked for (`board`: "wide", "tall" or None), coloured with `colour`."""

    stdout: TextIO
    colour: bool
    wrap: bool
    board: str | None
    told: bool = False  # said once: the wide board does not fit

    def picture(self, item: Picture, width: int) -> list[str]:
        """The board in the layout asked for, or else the one that fits the terminal."""
        geometry, board, colour = item.geometry, self.board, self.colour
        if board == "tall" or (not width and board != "wide"):
            return render(item, colour=colour)
        if board == "wide" and (not width or wide_width(geometry) <= width):
            return render(item, colour=colour, wide=True)
        across = fitting_across(geometry, width)
        lines = render(item, colour=colour, across=across)
        if board == "wide" and not self.told:
            self.told = True
            rows = "STACKED" if across == 1 else f"{NUMBER_WORDS[across]} LEVELS A ROW"
            said = f"--board wide NEEDS {wide_width(geometry)} COLUMNS; SHOWN {rows}."
            return [*fit(said, width), *lines]
        return lines

    def show(self, output: Output) -> None:
        columns = shutil.get_terminal_size().columns if self.wrap else 0
        for item in output:
            if isinstance(item, Picture):
                lines = self.picture(item, columns)
            elif isinstance(item, Hanging):
                lines = fit(item, min(columns or WIDTH, WIDTH))
            else:
                lines = fit(item, columns) if columns else [item]
            self.stdout.write("".join(line + "\n" for line in lines))
        self.stdout.flush()


def _silence() -> None:
    """Standard output and error to /dev/null, for a program whose terminal hung up."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    for fd in (1, 2):
        with suppress(OSError):
            os.dup2(devnull, fd)
    os.close(devnull)
