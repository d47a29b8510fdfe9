"""`python -m qubic.solve`: prove that X wins QUBIC from the empty cube, across sittings.

PN-squared search. The upper tree, kept here, starts at the empty cube; each of its leaves is
a *unit*: one position proved by df-pn within a budget of nodes, in a process of a
`concurrent.futures` executor, by `qubic.fast_prover` (compiled with numba) when the solver
extra is installed, else by `qubic.prover`. The unit answers proved (with its quiet X moves), or not
yet with its proof and disproof numbers, and such a leaf is expanded in the upper tree when it
is next the most promising. A unit tries only X's few best moves, so its "disproved" is a
failure of those, not a verdict: the leaf's proof number is set high, so the search turns
elsewhere, and the upper tree widens: X's next best moves join a position when all of its
moves so far are lost or failing. A failed leaf is expanded in the upper tree when it is the
most proving again; only a position with every move lost is lost. Every answer is checkpointed
at once, so the search can be stopped at any moment and resumed; positions are keyed there up
to the cube's symmetries.

The checkpoint is `qubic/proof.txt.xz`, compact and committed, and its journal
`qubic/proof.journal`, to which each answer is appended at once; every ten minutes and at the
end the journal is folded into the compact file. Both hold one record a line, bitboards in hex:
    W x o [w]      X wins (proved)              L x o        X does not (disproved)
    U x o pn dn [w [n]]  a unit left unknown    B x o cell   a quiet X move of the upper tree
    T seconds      the units' CPU time over every run so far (the latest record counts)
A unit's record ends with the number of X's moves it tried at each position (the compact file
leaves it out where it is 3, the first runs') and, left unknown, the nodes it was given. A unit
that failed or was left unknown runs again when it tried fewer moves than the run's; one left
unknown runs again with 4 times its nodes, twice, before the upper tree expands it.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import lzma
import resource
import signal
import sys
import time
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, TextIO

from qubic.board import Board
from qubic.geometry import CUBE
from qubic.notation import format_cell, parse_cell
from qubic.prover import DISPROVED, INF, PROVED, UNKNOWN, X_WIDTH, Prover, Result, x_to_move
from qubic.strategy import STRATEGY_FILE, format_entries
from qubic.symmetry import stabilizer
from qubic.threats import winning_cells
from qubic.verify import walk, walk_lines

if TYPE_CHECKING:
    from qubic.fast_prover import FastProver

CHECKPOINT = Path(__file__).with_name("proof.txt.xz")
STRATEGY = Path(__file__).with_name(STRATEGY_FILE)
UNIT_NODES = {"python": 20_000, "fast": 300_000}  # df-pn expansions per unit: at most some
# two to four seconds here, the Python prover under PyPy, the compiled one under CPython
UNIT_WIDTH = {"python": X_WIDTH, "fast": 8}  # X's moves a unit tries: at 300,000 nodes,
# width 8 proved 7 of 30 positions where width 3 proved none (widths 16 and 64 did no better)
UNIT_GROWTH = 4  # a unit left unknown runs again with this many times its nodes, ...
UNIT_RUNS = 3  # ... up to this many runs, before the upper tree expands it: one with 300,000
# nodes left 111 222 144 223 unknown, one with 1,200,000 proved it (344,163 expanded)
EVERY_MOVE = len(CUBE.cells)  # the width of a book gap's last try: two gaps of the first book,
# unproved at widths 3 and 8 with 1,200,000 nodes, were proved so within 230,000
UNIT_STONES = 4  # shallower positions are expanded at once: a unit could not prove them
BUSY = 1 << 30  # added to a leaf's number its parent chooses by while its unit runs
FAILED = (1000, 1)  # a leaf's numbers after its unit found none of X's best moves winning
REPORT_SECONDS = 30.0
COMPACT_SECONDS = 600.0  # how often the journal is folded into the compact checkpoint

Key = tuple[int, int]


def canonical(x: int, o: int) -> Key:
    return CUBE.canonical(x, o)


class Answer(NamedTuple):
    """A unit's answer: the search's result, its quiet X moves when proved (canonical
    position and move), the CPU seconds it took and its process's peak memory in KB."""

    result: Result
    moves: list[tuple[int, int, int]]
    cpu_seconds: float
    peak_kb: int


def last_budget(nodes: int, runs: int = UNIT_RUNS) -> int:
    """The nodes of a unit's last run, when its first has `nodes`."""
    return nodes * UNIT_GROWTH ** (runs - 1)


def fast_prover_available() -> bool:
    """Whether numba is installed (the `solver` extra), so the compiled prover can run."""
    return importlib.util.find_spec("numba") is not None


_fast_provers: dict[int, FastProver] = {}  # a worker's compiled provers by width, kept
# between units so that their tables are allocated once


def unit(x: int, o: int, nodes: int, width: int = X_WIDTH, prover: str = "python",
         moves: bool = False) -> Answer:
    """Prove `(x, o)` within `nodes` expansions, trying X's `width` best moves, with the
    `prover` named ("python" or "fast"), and list the proof's quiet moves if `moves`. Runs in
    a worker process. The same arguments give the same answer."""
    start = time.process_time()
    search: Prover | FastProver
    if prover == "fast":
        from qubic.fast_prover import FastProver  # numba: only where the extra is installed
        if width not in _fast_provers:
            _fast_provers[width] = FastProver(width=width)
        search = _fast_provers[width]
        search.clear()  # a unit's answer must not depend on the units before it
    else:
        search = Prover(width=width)
    result = search.prove(x, o, nodes)
    quiet = []
    if result.status == PROVED and moves:
        try:
            for px, po, cell in search.strategy(x, o):
                key, symmetry = CUBE.orient(px, po)
                quiet.append((*key, symmetry[cell]))
        except RuntimeError:  # the fast prover's tables forgot part of the proof: not proved
            result, quiet = replace(result, status=UNKNOWN, pn=1, dn=1), []
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return Answer(result, quiet, time.process_time() - start, peak)


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
        lines = [f"{'W' if won else 'L'} {x:x} {o:x}{self._width_field((x, o))}"
                 for (x, o), won in self.settled.items()]
        lines += [f"U {x:x} {o:x} {pn} {dn}{self._unit_fields((x, o))}"
                  for (x, o), (pn, dn) in self.unknown.items()]
        lines += [f"B {x:x} {o:x} {cell}" for (x, o), cell in self.book.items()]
        lines.append(f"T {self.cpu_seconds:.0f}")
        lines.sort()  # like records together: smaller once compressed
        partial = self.path.with_name(self.path.name + ".partial")
        with lzma.open(partial, "wt", encoding="ascii", preset=9) as compact:
            compact.write("".join(line + "\n" for line in lines))
        partial.replace(self.path)
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


class Node:
    """A position of the upper tree."""

    __slots__ = ("budget", "cell", "children", "dn", "evaluated", "failed", "more", "o",
                 "parent", "pn", "x")

    def __init__(self, x: int, o: int, cell: int, parent: Node | None) -> None:
        self.x, self.o, self.cell, self.parent = x, o, cell, parent
        self.pn = self.dn = 1
        self.children: list[Node] | None = None
        self.more: list[int] = []  # the moves not tried yet, best first (cells: small ints
        # take no memory, and the upper tree holds tens of thousands of these lists)
        self.evaluated = False  # units have searched it and left it unknown: expand it
        self.budget = 0  # the nodes of its last unit, if any
        self.failed = False  # X's moves leading here fail (not a disproof: see _failing)

    @property
    def settled(self) -> bool:
        return self.pn == 0 or self.dn == 0

    def update(self) -> None:
        """Its numbers from its children's."""
        assert self.children is not None
        pns = [child.pn for child in self.children]
        dns = [child.dn for child in self.children]
        if x_to_move(self.x, self.o):
            self.pn, self.dn = min(pns, default=INF), min(INF, sum(dns))
        else:
            self.pn, self.dn = min(INF, sum(pns)), min(dns, default=INF)
        if not self.children:  # every reply of O plainly lost, or every move of X
            self.pn, self.dn = (INF, 0) if x_to_move(self.x, self.o) else (0, INF)
        failed = [child.failed for child in self.children]
        if x_to_move(self.x, self.o):  # every move tried fails or is lost, and none is left
            self.failed = (any(failed) and not self.more
                           and all(f or c.dn == 0 for f, c in zip(failed, self.children)))
        else:  # one of O's replies is enough
            self.failed = any(failed)


class Solver:
    """The upper tree and the units in flight."""

    def __init__(self, checkpoint: Checkpoint, nodes: int, out: TextIO,
                 start: Key = (0, 0), width: int = X_WIDTH, prover: str = "python",
                 runs: int = UNIT_RUNS) -> None:
        self.checkpoint = checkpoint
        self.nodes = nodes  # a unit's first run's
        self.max_nodes = last_budget(nodes, runs)
        self.width = width  # the units': X's moves tried at each position
        self.prover = prover  # the units': "python" or "fast"
        self.out = out
        self.rules = Prover()  # settles and expands positions of the upper tree
        self.root = Node(*start, -1, None)
        self._settle(self.root)
        self.running: dict[Future[Answer], Node] = {}
        self.counts = {"proved": 0, "disproved": 0, "unknown": 0}
        self.expanded = 0
        self.cpu_before = checkpoint.cpu_seconds  # earlier runs'
        self.cpu_seconds = 0.0  # this run's units
        self.peak_kb = 0  # the largest worker seen
        self.started = time.perf_counter()

    def solve(self, executor: Executor, workers: int, hours: float | None) -> bool | None:
        """Search until the root is settled or `hours` pass: True when X wins, False when it
        does not, None when stopped first."""
        deadline = None if hours is None else time.perf_counter() + hours * 3600
        last_report, last_compact = 0.0, time.perf_counter()
        while not self.root.settled:
            out_of_time = deadline is not None and time.perf_counter() > deadline
            while not out_of_time and len(self.running) < workers:
                leaf = self._select()
                if leaf is None:
                    break
                self._visit(leaf, executor)
                if self.root.settled:
                    break
            if self.root.settled or not self.running:
                break
            done, _ = wait(self.running, timeout=REPORT_SECONDS, return_when=FIRST_COMPLETED)
            for future in done:
                self._receive(self.running.pop(future), future.result())
            if time.perf_counter() - last_report >= REPORT_SECONDS:
                self.report()
                last_report = time.perf_counter()
            if time.perf_counter() - last_compact >= COMPACT_SECONDS:
                self.checkpoint.compact()
                last_compact = time.perf_counter()
        self.report()
        return None if not self.root.settled else self.root.pn == 0

    def _select(self) -> Node | None:
        """The most proving leaf not already being searched; None if every leaf is."""
        node = self.root
        while node.children is not None:
            if not node.children:
                return None
            if x_to_move(node.x, node.o):
                node = min(node.children, key=lambda child: child.pn)
            else:
                node = min(node.children, key=lambda child: child.dn)
        return None if node in self.running.values() else node

    def _visit(self, leaf: Node, executor: Executor) -> None:
        """Expand `leaf`, or hand it to a unit."""
        stones = (leaf.x | leaf.o).bit_count()
        if leaf.evaluated or stones < UNIT_STONES:
            self._expand(leaf)
        else:
            leaf.budget = min(self.max_nodes, leaf.budget * UNIT_GROWTH) or self.nodes
            future = executor.submit(unit, leaf.x, leaf.o, leaf.budget, self.width,
                                     self.prover)
            self.running[future] = leaf
            # Its parent chooses by this number: a sibling is chosen next.
            if x_to_move(leaf.x, leaf.o):
                leaf.dn += BUSY
            else:
                leaf.pn += BUSY
        self._backup(leaf.parent)

    def _expand(self, node: Node) -> None:
        group = stabilizer(CUBE, node.x, node.o)
        node.children = []
        node.more = [cell for cell, _, _ in
                     self.rules.expand(node.x, node.o, group, width=len(CUBE.cells))]
        self._widen(node)
        self._record(node)

    def _widen(self, node: Node) -> None:
        """Add X's next best moves to `node` until one is neither lost nor failing (all of
        O's replies, at O's turn)."""
        assert node.children is not None
        batch = len(node.more)
        if x_to_move(node.x, node.o):
            batch = 1 if _opening(node) else X_WIDTH
        while True:
            for cell in node.more[:batch]:
                cx, co = ((node.x | 1 << cell, node.o) if x_to_move(node.x, node.o)
                          else (node.x, node.o | 1 << cell))
                child = Node(cx, co, cell, node)
                self._settle(child)
                node.children.append(child)
            del node.more[:batch]
            node.update()
            if not _failing(node):
                return

    def _settle(self, node: Node) -> None:
        """Set a new node's numbers from the checkpoint or the rules' quick verdicts."""
        key = canonical(node.x, node.o)
        if key in self.checkpoint.settled:
            node.pn, node.dn = (0, INF) if self.checkpoint.settled[key] else (INF, 0)
        elif key in self.checkpoint.unknown and self.checkpoint.width(key) >= self.width:
            # (else the unit runs again, wider: it may prove what the narrower one could not)
            node.pn, node.dn = self.checkpoint.unknown[key]
            node.budget = self.checkpoint.budget(key) or self.nodes  # unrecorded: the first's
            node.evaluated = (node.pn, node.dn) == FAILED or node.budget >= self.max_nodes
            node.failed = _unit_failed(node, (node.pn, node.dn) == FAILED)  # as recorded
        else:
            verdict = self.rules.settle(node.x, node.o)
            if verdict is not None:
                node.pn, node.dn = verdict

    def _receive(self, leaf: Node, answer: Answer) -> None:
        result = answer.result
        self.counts[result.status] += 1
        self.expanded += result.expanded
        self.cpu_seconds += answer.cpu_seconds
        self.peak_kb = max(self.peak_kb, answer.peak_kb)
        key = canonical(leaf.x, leaf.o)
        leaf.failed = _unit_failed(leaf, result.status == DISPROVED)
        leaf.pn, leaf.dn = FAILED if result.status == DISPROVED else (result.pn, result.dn)
        if result.status == PROVED:
            self.checkpoint.write("W", key, self.width)
        else:  # a failure is final at this width; more nodes may answer what is unknown
            leaf.evaluated = result.status == DISPROVED or leaf.budget >= self.max_nodes
            self.checkpoint.write("U", key, leaf.pn, leaf.dn, self.width, leaf.budget)
        self.checkpoint.flush()
        self._backup(leaf.parent)

    def _backup(self, node: Node | None) -> None:
        while node is not None:
            node.update()
            if _failing(node):
                self._widen(node)
            self._record(node)
            node = node.parent

    def _record(self, node: Node) -> None:
        """Checkpoint a node of the upper tree that has just been settled."""
        if not node.settled:
            return
        key = canonical(node.x, node.o)
        if key in self.checkpoint.settled:
            return
        if (node.pn == 0 and x_to_move(node.x, node.o) and node.children
                and not winning_cells(node.o, node.x)):  # (a block is no quiet move)
            best = min(node.children, key=lambda child: child.pn)
            canon, symmetry = CUBE.orient(node.x, node.o)
            self.checkpoint.write("B", canon, symmetry[best.cell])
        self.checkpoint.write("W" if node.pn == 0 else "L", key)
        self.checkpoint.flush()

    def report(self) -> None:
        """One progress line; for each first move of X searched, O's replies; for each of
        those not yet proved, X's most promising answer and O's replies to it."""
        elapsed = time.perf_counter() - self.started
        rate = self.expanded / self.cpu_seconds if self.cpu_seconds else 0.0
        done = sum(self.counts.values())
        root = self.root
        cpu = self.cpu_before + self.cpu_seconds
        if self.cpu_seconds:
            self.checkpoint.write_cpu(cpu)
        main_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        print(f"{elapsed / 60:7.1f} min | units {done} ({self.counts['proved']} proved, "
              f"{self.counts['disproved']} disproved, {self.counts['unknown']} unknown) | "
              f"{rate:,.0f} nodes/s per worker | root pn {_number(root.pn)} "
              f"dn {_number(root.dn)} | book {len(self.checkpoint.book)} | CPU {cpu / 3600:.2f} h "
              f"in all runs | peak memory {main_kb // 1024} MB, workers {self.peak_kb // 1024} MB",
              file=self.out, flush=True)
        for first in root.children or []:
            replies = first.children or []
            if not replies:
                continue
            proved = sum(1 for reply in replies if reply.pn == 0)
            left = " ".join(f"{format_cell(r.cell)}:{_number(r.pn)}"
                            for r in replies if r.pn)
            print(f"    after X {format_cell(first.cell)}: O's replies proved {proved}/"
                  f"{len(replies)}; left (proof number) {left}", file=self.out, flush=True)
            for reply in replies:
                if reply.pn == 0 or not reply.children:
                    continue
                second = min(reply.children, key=lambda child: _real(child.pn))
                answers = second.children or []
                print(f"        O {format_cell(reply.cell)}, X {format_cell(second.cell)} "
                      f"(of {len(reply.children)} tried): O's replies proved "
                      f"{sum(1 for a in answers if a.pn == 0)}/{len(answers)}",
                      file=self.out, flush=True)


def _real(value: int) -> int:
    """A proof or disproof number without the mark of a unit in flight."""
    return value if value >= INF else value % BUSY


def _opening(node: Node) -> bool:
    """Whether `node` is the empty cube, where X's first move is chosen."""
    return not (node.x | node.o)


def _unit_failed(leaf: Node, disproved: bool) -> bool:
    """Whether a unit's failure at `leaf` fails the X move that led there. At O's turn it
    does: X's parent tries its next moves. At X's turn the leaf tries more of its own moves
    first, when the upper tree expands it; it fails only once all of them fail."""
    return disproved and not x_to_move(leaf.x, leaf.o)


def _failing(node: Node) -> bool:
    """X's moves at `node` so far are all lost or failing, and it has more to try. The first
    move stays the corner (ranked first), which published work finds winning, unless it is
    lost: trying the other first move too would double the work."""
    assert node.children is not None
    if not node.more or not x_to_move(node.x, node.o):
        return False
    if _opening(node):
        return all(child.dn == 0 for child in node.children)
    return all(child.failed or child.dn == 0 for child in node.children)


def _number(value: int) -> str:
    """A proof or disproof number as reported."""
    return "inf" if value >= INF else str(_real(value))


class Gap(NamedTuple):
    """Positions of the walk without a move for X (`ends`), and the root of the unit whose
    proof held them, `(x, o)`, with the widths to prove it again at, its recorded one first
    (none when a pass before proved it again: its proof did not reach the ends)."""

    x: int
    o: int
    widths: list[int]
    ends: list[tuple[int, int]]


def prove_again(gap: Gap, nodes: int, prover: str) -> list[tuple[int, int, int]]:
    """The quiet moves of a unit's proof of the gap's root, trying each of its widths in turn
    until one proves it; if none does, of proofs of the gap's ends, each tried at the run's
    unit width and then with every move of X. Runs in a worker process."""
    moves = first_proof(gap.x, gap.o, gap.widths, nodes, prover)
    if moves is not None:
        return moves
    widths = [UNIT_WIDTH[prover], EVERY_MOVE]
    return [move for x, o in gap.ends
            for move in first_proof(x, o, widths, nodes, prover) or []]


def first_proof(x: int, o: int, widths: list[int], nodes: int,
                prover: str) -> list[tuple[int, int, int]] | None:
    """The quiet moves of a unit's proof of `(x, o)` at the first of `widths` that proves
    it; None if none does."""
    for width in widths:
        answer = unit(x, o, nodes, width, prover, moves=True)
        if answer.result.status == PROVED:
            return answer.moves
    return None


def proved_move(checkpoint: Checkpoint, x: int, o: int) -> int | None:
    """A move of X at `(x, o)` into a position the checkpoint holds won; None if none."""
    for cell in range(len(CUBE.cells)):
        if not (x | o) >> cell & 1 and checkpoint.settled.get(canonical(x | 1 << cell, o)):
            return cell
    return None


def unit_root(checkpoint: Checkpoint, line: list[int]) -> tuple[int, int]:
    """The last position of `line` the checkpoint holds won: the root of the unit whose proof
    holds the line's end (the upper tree's positions held won have their moves recorded)."""
    for end in range(len(line), -1, -1):
        x, o = Board.from_moves(line[:end]).bits
        if checkpoint.settled.get(canonical(x, o)):
            return x, o
    return Board.from_moves(line).bits


def write_book(checkpoint: Checkpoint, path: Path, start: list[int], prover: str, nodes: int,
               out: TextIO, executor: Executor | None = None) -> int:
    """Walk the strategy from `start` with the checkpoint's quiet moves and write those it
    uses; 0 when the walk met no gap. The checkpoint keeps the quiet moves of the upper tree
    only (a unit's would swell it), so where the walk finds no move for X, a move into a
    position the checkpoint holds won is taken, else the unit whose proof holds it (its last
    position held won) is proved again (the same prover and width give the same proof within
    `nodes`, a unit's largest budget: given more nodes, df-pn takes the same path; a unit's
    position at its recorded width, any other at each width the checkpoint holds) and its
    quiet moves join; where that fails, or a pass before proved the root again, the gaps
    themselves are proved (at the run's unit width, then trying every move of X). The walk
    repeats over the gaps' subtrees until it meets no gap or has nothing left to prove. The
    walk and the units run through `executor` when one is given."""
    book = dict(checkpoint.book)
    widths = sorted({X_WIDTH, *checkpoint.widths.values()})
    result = walk(start, book, executor=executor)
    used, failures, walked = set(result.book_used), result.failures, result.positions
    tried: set[tuple[int, int]] = set()  # unit roots proved again
    run = map if executor is None else executor.map
    while True:
        gaps: dict[tuple[int, int], Gap] = {}
        added, lost, open_lines = 0, [], []
        for line in failures:
            board = Board.from_moves(line)
            if len(line) % 2 or board.is_over():
                lost.append(line)  # O's reply won or filled the cube: no proof to take from
                continue
            open_lines.append(line)
            x, o = board.bits
            cell = proved_move(checkpoint, x, o)
            if cell is not None:
                canon, symmetry = CUBE.orient(x, o)
                added += canon not in book
                book.setdefault(canon, symmetry[cell])
                continue
            root = unit_root(checkpoint, line)
            if root not in gaps:
                recorded = checkpoint.width(canonical(*root))
                again = [] if root in tried else [recorded, *(w for w in widths if w != recorded)]
                gaps[root] = Gap(*root, again, [])
            gaps[root].ends.append((x, o))
        tried |= gaps.keys()
        for moves in run(partial(prove_again, nodes=nodes, prover=prover), gaps.values()):
            for x, o, cell in moves:
                added += (x, o) not in book
                book.setdefault((x, o), cell)
        print(f"walked {walked:,} positions, no move at {len(failures):,}; "
              f"proved again: {added:,} quiet moves", file=out, flush=True)
        if not failures or (not added and not any(gap.widths for gap in gaps.values())):
            break
        # Only the gaps' subtrees can change: walk those again.
        again = walk_lines(open_lines, book, executor)
        used |= again.book_used
        failures, walked = lost + again.failures, again.positions
    entries = {key: book[key] for key in used}
    path.write_text(format_entries(entries.items()), encoding="ascii")
    print(f"wrote {len(entries):,} entries ({path.stat().st_size:,} bytes) to {path}; "
          f"{len(failures):,} positions not yet proved", file=out)
    return 0 if not failures else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m qubic.solve", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--hours", type=float, help="stop after this long (default: never)")
    parser.add_argument("--prover", choices=["auto", "python", "fast"], default="auto",
                        help="the units' prover: fast is compiled with numba (the solver "
                        "extra), python runs anywhere (use PyPy); auto (default) takes fast "
                        "when numba is installed")
    parser.add_argument("--unit-nodes", type=int,
                        help=f"df-pn expansions of a unit's first run (default "
                        f"{UNIT_NODES['python']:,} with the python prover, "
                        f"{UNIT_NODES['fast']:,} with fast); one left unknown runs again with "
                        f"{UNIT_GROWTH} times as many, up to {UNIT_RUNS} runs")
    parser.add_argument("--width", type=int,
                        help=f"X's best ranked quiet moves a unit tries at each position "
                        f"(default {UNIT_WIDTH['python']} with the python prover, "
                        f"{UNIT_WIDTH['fast']} with fast); units that failed narrower run again")
    parser.add_argument("--checkpoint", type=Path, default=CHECKPOINT,
                        help="the file to resume from and append to (default: the package's)")
    parser.add_argument("--start", nargs="+", metavar="MOVE",
                        help="prove the position after these moves instead of the empty cube")
    parser.add_argument("--book", action="store_true",
                        help="write the strategy book from the checkpoint instead of searching "
                        "(positions whose quiet moves it does not keep are proved again)")
    args = parser.parse_args(argv)
    checkpoint = Checkpoint(args.checkpoint)
    try:
        start = [parse_cell(text) for text in args.start or []]
        board = Board.from_moves(start)
    except ValueError as error:
        parser.error(f"bad --start moves: {error}")
    prover = args.prover
    if prover == "auto":
        prover = "fast" if fast_prover_available() else "python"
    elif prover == "fast" and not fast_prover_available():
        parser.error("--prover fast needs numba: pip install -e '.[solver]'")
    if args.book:
        with ProcessPoolExecutor(args.workers) as executor:
            nodes = last_budget(args.unit_nodes or UNIT_NODES[prover])
            return write_book(checkpoint, STRATEGY, start, prover, nodes, sys.stdout, executor)
    solver = Solver(checkpoint, args.unit_nodes or UNIT_NODES[prover], sys.stdout,
                    (board.bits[0], board.bits[1]), args.width or UNIT_WIDTH[prover], prover)
    print(f"resuming with {len(checkpoint.settled)} settled positions and "
          f"{len(checkpoint.book)} quiet moves from {args.checkpoint}; {prover} prover, "
          f"{solver.nodes:,} to {solver.max_nodes:,} nodes and {solver.width} X moves a unit",
          flush=True)

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    # Installed for SIGINT too: a shell starting the solver in the background (`... &`)
    # leaves SIGINT ignored, and `kill -INT` would then not stop it.
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    executor = ProcessPoolExecutor(args.workers)
    try:
        outcome = solver.solve(executor, args.workers, args.hours)
    except KeyboardInterrupt:
        print("stopped; everything answered so far is in the checkpoint", flush=True)
        outcome = None
    finally:
        executor.shutdown(wait=False, cancel_futures=True)
        checkpoint.compact()
    if outcome is not None:
        print("X WINS: the proof is complete" if outcome else "X does not win here")
    return 0


if __name__ == "__main__":
    sys.exit(main())
