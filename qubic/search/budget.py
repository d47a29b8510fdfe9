"""A search's allowance: a count of nodes, with time only as a safety cap.

Counting nodes makes a search's answer the same however busy the computer is; the clock only
stops a search that would otherwise run far too long. That clock is the searching thread's
processor time (`clock`): on an idle machine it runs with the wall clock, and on a busy one
it does not run while other work has the processor, so a cap that is never reached idle is
never reached busy either.
"""

from __future__ import annotations

import sys
import time


def clock() -> float:
    """Seconds of processor time the calling thread has used: the clock of every search's
    time, its safety caps and the time a caller gives it alike."""
    return time.thread_time()


class Budget:
    """At most `nodes` more nodes than `used` (None: no count) and `seconds` more time on
    `clock` (None: no cap), from now."""

    def __init__(self, nodes: int | None = None, seconds: float | None = None, used: int = 0):
        self.node_limit = sys.maxsize if nodes is None else used + nodes
        self.deadline = None if seconds is None else clock() + seconds

    def exhausted(self, used: int) -> bool:
        """Whether a search that has counted `used` nodes must stop."""
        return used > self.node_limit or self.expired()

    def seconds_left(self) -> float | None:
        """The time left before the cap; None without one."""
        return None if self.deadline is None else max(0.0, self.deadline - clock())

    def expired(self) -> bool:
        """Whether the time cap has passed."""
        return self.deadline is not None and clock() > self.deadline
