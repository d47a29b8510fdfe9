"""Your record: finished games against the machine, counted per level and side, in a small
text file under the user's data folder ($XDG_DATA_HOME/qubic/record.txt, else
~/.local/share/qubic/record.txt).

The file is a version line, then one line per level and side: `normal first 3 1 0` is the
games at level normal where you moved first: 3 won, 1 lost, 0 drawn. It is written to a
temporary file and renamed into place, so a crash never leaves half a record.
"""

from __future__ import annotations

import os
import tempfile
from contextlib import suppress
from pathlib import Path

MAGIC = "qubic-record 1"
RESULTS = ("won", "lost", "drawn")
SIDES = ("first", "second")
Counts = dict[tuple[str, str], list[int]]


def data_home() -> Path:
    """The user's data folder for qubic."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local/share")
    return Path(base) / "qubic"


def record_path() -> Path:
    return data_home() / "record.txt"


def read(path: Path) -> Counts:
    """The counts in `path`; none if it is missing or not a record (it is never guessed at)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return {}
    if not lines or lines[0] != MAGIC:
        return {}
    counts: Counts = {}
    for line in lines[1:]:
        words = line.split()
        if len(words) == 5 and words[1] in SIDES and all(w.isdigit() for w in words[2:]):
            counts[words[0], words[1]] = [int(w) for w in words[2:]]
    return counts


def add(path: Path, level: str, first: bool, result: str) -> None:
    """Count one finished game: `result` is one of RESULTS. A record that cannot be written
    is left as it was: the game goes on without it."""
    counts = read(path)
    row = counts.setdefault((level, SIDES[0] if first else SIDES[1]), [0, 0, 0])
    row[RESULTS.index(result)] += 1
    text = (
        MAGIC
        + "\n"
        + "".join(
            f"{lvl} {side} {' '.join(map(str, row))}\n"
            for (lvl, side), row in sorted(counts.items())
        )
    )
    with suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".record.", suffix=".tmp")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as file:
                file.write(text)
            os.replace(temporary, path)
        except OSError:
            os.unlink(temporary)


def table(counts: Counts) -> list[str]:
    """The record as a table, for `qubic stats`."""
    if not counts:
        return ["NO GAMES RECORDED YET."]
    lines = [f"{'LEVEL':<10}{'YOU MOVED':<11}{'WON':>5}{'LOST':>6}{'DRAWN':>7}{'GAMES':>7}"]
    for (level, side), (won, lost, drawn) in sorted(counts.items()):
        lines.append(
            f"{level.upper():<10}{side.upper():<11}{won:>5}{lost:>6}{drawn:>7}"
            f"{won + lost + drawn:>7}"
        )
    return lines
