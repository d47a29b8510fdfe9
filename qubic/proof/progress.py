"""Progress of a long step: done, rate and an estimate of what is left.

In a terminal, a bar redrawn in place; through a pipe (or into a file), a line every
`REPORT_SECONDS`. At the end, one line with the wall time and the workers' busy share: the
seconds the workers spent on the step's tasks over the workers' seconds the step lasted.
"""

from __future__ import annotations

import time
from typing import TextIO

REPORT_SECONDS = 30.0  # between two lines through a pipe
REDRAW_SECONDS = 0.5  # between two redraws of the bar in a terminal
BAR = 24  # the bar's width in characters


def duration(seconds: float) -> str:
    """`seconds` as people read it: 45 s, 12.5 min, 3.2 h."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.1f} h"


class Progress:
    """The progress of one step over `total` parts (None: not known yet) of work, run by
    `workers` processes."""

    def __init__(
        self,
        label: str,
        out: TextIO,
        total: int | None = None,
        workers: int = 1,
        what: str = "parts",
    ) -> None:
        self.label, self.out, self.total, self.workers, self.what = label, out, total, workers, what
        self.done = 0
        self.skipped = 0  # parts found done by an earlier run: not counted in the rate
        self.reused = 0  # tasks (parts and others) whose answers an earlier run left
        self.note = ""
        self.busy_seconds = 0.0
        self.started = time.perf_counter()
        self.tty = bool(getattr(out, "isatty", lambda: False)())
        self._last = 0.0 if self.tty else self.started  # a pipe's first line after 30 s
        self._drawn = False

    def busy(self, seconds: float) -> None:
        """Count `seconds` that a worker spent on this step's work."""
        self.busy_seconds += seconds

    def update(
        self,
        done: int | None = None,
        total: int | None = None,
        note: str | None = None,
        skipped: int | None = None,
    ) -> None:
        """Set what is done (and the total, a note, parts an earlier run did); redraw or print
        when it is time."""
        if done is not None:
            self.done = done
        if total is not None:
            self.total = total
        if note is not None:
            self.note = note
        if skipped is not None:
            self.skipped = skipped
        now = time.perf_counter()
        if now - self._last >= (REDRAW_SECONDS if self.tty else REPORT_SECONDS):
            self._last = now
            self._show()

    def advance(self, parts: int = 1, note: str | None = None) -> None:
        self.update(self.done + parts, note=note)

    def line(self) -> str:
        """Done, rate and the estimate of what is left, as one line."""
        elapsed = time.perf_counter() - self.started
        worked = self.done - self.skipped
        rate = worked / elapsed if elapsed > 0 else 0.0
        total = f"/{self.total:,}" if self.total is not None else ""
        text = f"{self.label}: {self.done:,}{total} {self.what}"
        if self.total:
            text += f" ({100 * self.done / self.total:.0f}%)"
        text += f" | {rate * 60:,.1f}/min"
        if self.total is not None and worked > 0:
            left = (self.total - self.done) / rate
            text += f" | about {duration(left)} left"
        text += f" | {duration(elapsed)}"
        if self.note:
            text += f" | {self.note}"
        return text

    def _show(self) -> None:
        text = self.line()
        if self.tty:
            share = self.done / self.total if self.total else 0.0
            filled = min(BAR, int(BAR * share))
            bar = "[" + "#" * filled + "." * (BAR - filled) + "] "
            self.out.write("\r" + bar + text + "\x1b[K")
            self._drawn = True
        else:
            self.out.write(text + "\n")
        self.out.flush()

    def clear(self) -> None:
        """Take the bar off the terminal's line, for other lines to be printed; the next
        redraw brings it back."""
        if self._drawn:
            self.out.write("\r\x1b[K")
            self.out.flush()
            self._drawn = False

    def busy_share(self) -> float:
        """The workers' busy seconds over the workers' seconds the step has lasted so far."""
        elapsed = time.perf_counter() - self.started
        return self.busy_seconds / (self.workers * elapsed) if elapsed > 0 else 0.0

    def finish(self, note: str | None = None) -> None:
        """The closing line: what was done, the wall time and the workers' busy share."""
        if note is not None:
            self.note = note
        if self._drawn:
            self.out.write("\r\x1b[K")
        elapsed = time.perf_counter() - self.started
        total = f"/{self.total:,}" if self.total is not None else ""
        text = f"{self.label}: {self.done:,}{total} {self.what} in {duration(elapsed)}"
        if self.reused:
            text += f" ({self.reused:,} done before)"
        share = min(100.0, 100 * self.busy_share())
        text += f" | workers busy {share:.0f}% of {self.workers} x {duration(elapsed)}"
        if self.note:
            text += f" | {self.note}"
        self.out.write(text + "\n")
        self.out.flush()
