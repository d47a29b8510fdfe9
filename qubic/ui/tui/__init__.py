"""The full-screen game, `qubic --tui`: the board to point at, the machine thinking in the
background. `play` runs it on a session."""

from __future__ import annotations

import sys

from qubic.play.session import Session
from qubic.ui.tui.app import Screen


def play(session: Session, colour: bool = True, pause: float = 0.0) -> int:
    """Play on the full screen until the player leaves; the exit status. The lines to copy
    whole (an export, how to resume a save) and the session's last words (a goodbye, where
    the game was saved) stay on the terminal afterwards."""
    screen = Screen(session, colour, pause)
    status = screen.run()
    said = [line for line in screen.farewell if isinstance(line, str)]
    for line in [*(copy for copy in screen.copies if copy not in said), *said]:
        print(line)
    sys.stdout.flush()
    return status
