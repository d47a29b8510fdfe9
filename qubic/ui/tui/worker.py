"""Slow session calls (the machine's move, a hint, any typed command) made in another
process, so that the screen stays responsive while the machine thinks.

The search is pure Python and would hold the interpreter's lock: in a thread it would slow
every redraw. So a worker process, forked once and kept warm (the opening book and the
cube's symmetries stay loaded), gets a copy of the session, makes the call and sends the
session back with what it said, at a lower priority than the screen's. Cancelling kills the
worker; the next call forks a new one.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import traceback
from multiprocessing.connection import Connection
from typing import Any

from qubic.play.render import Output
from qubic.play.session import Session

Result = tuple[Session, Output]
# The worker yields the processor to the screen: keys are drawn at once even on a machine
# busy with other work (where a search may meet its time limit sooner).
NICENESS = 10


class WorkerError(RuntimeError):
    """The call failed in the worker; the message is its traceback."""


class Worker:
    """A process that makes session calls, one at a time."""

    def __init__(self) -> None:
        self.process: Any = None  # the context's Process
        self.connection: Connection | None = None
        self.busy = False

    def start(self, session: Session, method: str, *args: str) -> None:
        """Begin `session.method(*args)` on a copy of the session; `result` takes it."""
        if self.process is None or not self.process.is_alive():
            self._fork()
        assert self.connection is not None
        self.connection.send((session, method, args))
        self.busy = True

    def fileno(self) -> int:
        """What to watch for the result."""
        assert self.connection is not None
        return self.connection.fileno()

    def result(self) -> Result:
        """The session after the call and its output (blocks until they come)."""
        assert self.connection is not None
        try:
            failed, value = self.connection.recv()
        except EOFError:
            self.stop()
            raise WorkerError("the worker process died") from None
        self.busy = False
        if failed:
            raise WorkerError(value)
        return value

    def stop(self) -> None:
        """Kill the worker, abandoning any call in progress."""
        if self.process is not None:
            self.process.kill()
            self.process.join()
        if self.connection is not None:
            self.connection.close()
        self.process = self.connection = None
        self.busy = False

    def _fork(self) -> None:
        context = multiprocessing.get_context("fork")
        mine, theirs = context.Pipe()
        self.process = context.Process(target=_serve, args=(theirs, mine), daemon=True)
        self.process.start()
        theirs.close()
        self.connection = mine


def _serve(connection: Connection, screens: Connection) -> None:
    """The worker's life: calls in, sessions and outputs (or a traceback) out. `screens` is
    the other end, closed here so that the worker sees the screen's end go."""
    screens.close()
    # Nothing of the screen's: no terminal, and no share in its signals.
    os.nice(NICENESS)
    signal.set_wakeup_fd(-1)
    for number in (signal.SIGINT, signal.SIGWINCH, signal.SIGTSTP):
        signal.signal(number, signal.SIG_IGN)
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    while True:
        try:
            session, method, args = connection.recv()
        except EOFError:
            return
        try:
            output = getattr(session, method)(*args)
            connection.send((False, (session, output)))
        except Exception:
            connection.send((True, traceback.format_exc()))
