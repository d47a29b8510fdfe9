"""The solver's checkpoint: what is proved, kept across sittings.

The checkpoint is `qubic/proof/proof.txt.xz`, compact and committed, and its journal
`qubic/proof/proof.journal`, to which each answer is appended at once; every ten minutes and at the
end the journal is folded into the compact file. Both hold one record a line, bitboards in hex:
    W x o [w]      X wins (proved)              L x o        X does not (disproved)
    U x o pn dn [w [n]]  a unit left unknown    B x o cell   a quiet X move of the upper tree
    T seconds      the units' CPU time over every run so far (the latest record counts)
A unit's record ends with the number of X's moves it tried at each position (the compact file
leaves it out where it is 3, the first runs') and, left unknown, the nodes it was given.
"""

from __future__ import annotations

import contextlib
import lzma
from pathlib import Path
from typing import NamedTuple, TextIO

from qubic.core import files
from qubic.search.prover import X_WIDTH
from qubic.search.strategy import SHIPPED as STRATEGY

CHECKPOINT = Path(__file__).with_name("proof.txt.xz")


class Place(NamedTuple):
    """Where a run keeps its files: the checkpoint (its journal beside it), the strategy book,
    and the journals of the book's build and of the verifier's walk."""

    checkpoint: Path
    strategy: Path
    book_journal: Path
    verify_journal: Path


def place(directory: Path | None, checkpoint: Path | None = None) -> Place:
    """The files in `directory`, created if missing; without one, the package's checkpoint
    (or `checkpoint`, its folder created if missing) and strategy book, the journals beside
    the checkpoint."""
    if directory is not None:
        directory.mkdir(parents=True, exist_ok=True)
        checkpoint, strategy = directory / CHECKPOINT.name, directory / STRATEGY.name
    else:
        checkpoint, strategy = checkpoint or CHECKPOINT, STRATEGY
        checkpoint.parent.mkdir(parents=True, exist_ok=True)
    folder = checkpoint.parent
    return Place(checkpoint, strategy, folder / "book.journal", folder / "verify.journal")


Key = tuple[int, int]  # a position's canonical image: X's and O's bitboards


class Checkpoint:
    """What is known: the compact file (`path`, xz-compressed records) and the journal beside it,
    to which every answer is appended at once; `compact` folds the journal into the file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.journal = path.with_name(path.name.split(".")[0] + ".journal")
        self.settled: dict[Key, bool] = {}
        self.unknown: dict[Key, tuple[int, int]] = {}
        self.book: dict[Key, int] = {}
        self.widths: dict[Key, int] = {}  # units' widths, where not X_WIDTH
        self.budgets: dict[Key, int] = {}  # the nodes of units left unknown, where recorded
        self.cpu_seconds = 0.0  # the solver's units, over every run so far
        texts = []
        if path.exists():
            with lzma.open(path, "rt", encoding="ascii") as compact:
                texts.append(compact.read())
        if self.journal.exists():
            texts.append(self.journal.read_text(encoding="ascii"))
        for text in texts:
            for line in text.splitlines():
                with contextlib.suppress(ValueError, IndexError):  # a line cut off by a stop
                    self._read(line.split())
        self._file: TextIO | None = None  # the journal, opened at the first write

    def _read(self, words: list[str]) -> None:
        if words[0] == "T":
            self.cpu_seconds = float(words[1])
            return
        kind, key = words[0], (int(words[1], 16), int(words[2], 16))
        if kind in "WL":
            self.settled[key] = kind == "W"
            self.unknown.pop(key, None)
            self.budgets.pop(key, None)
            self._read_width(key, words[3:])
        elif kind == "U" and key not in self.settled:
            self.unknown[key] = (int(words[3]), int(words[4]))
            self._read_width(key, words[5:6])
            if len(words) > 6:
                self.budgets[key] = int(words[6])
        elif kind == "B":
            self.book[key] = int(words[3])

    def _read_width(self, key: Key, words: list[str]) -> None:
        width = int(words[0]) if words else X_WIDTH
        if width == X_WIDTH:
            self.widths.pop(key, None)
        else:
            self.widths[key] = width

    def width(self, key: Key) -> int:
        """The X moves tried at each position by the unit recorded for `key`."""
        return self.widths.get(key, X_WIDTH)

    def budget(self, key: Key) -> int | None:
        """The nodes given to the unit recorded unknown for `key`, if recorded."""
        return self.budgets.get(key)

    def write(self, kind: str, key: Key, *values: int) -> None:
        self._append([kind, f"{key[0]:x}", f"{key[1]:x}", *map(str, values)])

    def write_cpu(self, seconds: float) -> None:
        """Record the CPU time the solver's units have taken over every run."""
        self._append(["T", f"{seconds:.0f}"])

    def _append(self, words: list[str]) -> None:
        self._read(words)
        if self._file is None:
            self._file = self.journal.open("a", encoding="ascii")
        self._file.write(" ".join(words) + "\n")

    def flush(self) -> None:
        if self._file is not None:
            self._file.flush()

    def compact(self) -> None:
        """Rewrite the compact file with everything known, then empty the journal. A stop in
        between leaves the journal repeating records the file has: harmless."""
        lines = [
            f"{'W' if won else 'L'} {x:x} {o:x}{self._width_field((x, o))}"
            for (x, o), won in self.settled.items()
        ]
        lines += [
            f"U {x:x} {o:x} {pn} {dn}{self._unit_fields((x, o))}"
            for (x, o), (pn, dn) in self.unknown.items()
        ]
        lines += [f"B {x:x} {o:x} {cell}" for (x, o), cell in self.book.items()]
        lines.append(f"T {self.cpu_seconds:.0f}")
        lines.sort()  # like records together: smaller once compressed
        text = "".join(line + "\n" for line in lines)
        # The same bytes lzma.open(..., "wt", preset=9) writes, put in place atomically.
        files.write_atomic(self.path, lzma.compress(text.encode("ascii"), preset=9))
        self.close()
        self.journal.unlink(missing_ok=True)

    def _width_field(self, key: Key) -> str:
        return f" {self.widths[key]}" if key in self.widths else ""

    def _unit_fields(self, key: Key) -> str:
        if key in self.budgets:
            return f" {self.width(key)} {self.budgets[key]}"
        return self._width_field(key)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
