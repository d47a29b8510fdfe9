"""`python -m qubic.proof solve`: prove that X wins QUBIC from the empty cube, across sittings.

PN-squared search. The upper tree, kept here, starts at the empty cube; each of its leaves is a
*unit*: one position proved by df-pn within a budget of nodes, in a process of a
`concurrent.futures` executor, by `qubic.proof.fast_prover` (compiled with numba) when the
solver extra is installed, else by `qubic.search.prover`. The unit answers proved (with its
quiet X moves), or not yet with its proof and disproof numbers, and such a leaf is expanded in
the upper tree when it is next the most promising. A unit tries only X's few best moves, so its
"disproved" is a failure of those, not a verdict: the leaf's proof number is set high, so the
search turns elsewhere, and the upper tree widens: X's next best moves join a position when all
of its moves so far are lost or failing. A failed leaf is expanded in the upper tree when it is
the most proving again; only a position with every move lost is lost. Every answer is
checkpointed at once, so the search can be stopped at any moment and resumed; positions are
keyed there up to the cube's symmetries.

Where `choices.txt` names X's move (`qubic.proof.choices`), the upper tree proves that move
alone instead of its ranking's, and it expands the positions one reply of O before a choice.

The checkpoint is `qubic/proof/proof.txt.xz` and its journal (`checkpoint.py` describes them).
A unit that failed or was left unknown runs again when it tried fewer moves than the run's;
one left unknown runs again with 4 times its nodes, twice, before the upper tree expands it.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from typing import TextIO

from qubic.core.board import Board, iter_bits, winning_mask
from qubic.core.geometry import CUBE
from qubic.core.notation import format_cell
from qubic.core.symmetry import lookup, stabilizer
from qubic.proof.checkpoint import Checkpoint, Key, Place, place
from qubic.proof.cli import add_choices_argument, add_unit_arguments, chosen, start_and_prover
from qubic.proof.pool import Stopped, Workers, workers
from qubic.proof.progress import Progress
from qubic.proof.unit import (
    UNIT_GROWTH,
    UNIT_NODES,
    UNIT_RUNS,
    UNIT_WIDTH,
    Answer,
    last_budget,
    unit,
)
from qubic.search.prover import DISPROVED, INF, PROVED, X_WIDTH, Prover, x_to_move
from qubic.search.strategy import Entries

UNIT_STONES = 4  # shallower positions are expanded at once: a unit could not prove them
BUSY = 1 << 30  # added to a leaf's number its parent chooses by while its unit runs
FAILED = (1000, 1)  # a leaf's numbers after its unit found none of X's best moves winning
REPORT_SECONDS = 30.0
SPLIT_SECONDS = 60.0  # a last run of a unit this long, with a worker idle, is split
COMPACT_SECONDS = 600.0  # how often the journal is folded into the compact checkpoint


class Node:
    """A position of the upper tree."""

    __slots__ = (
        "budget",
        "cell",
        "children",
        "dn",
        "evaluated",
        "failed",
        "more",
        "o",
        "parent",
        "pn",
        "won",
        "x",
    )

    def __init__(self, x: int, o: int, cell: int, parent: Node | None) -> None:
        self.x, self.o, self.cell, self.parent = x, o, cell, parent
        self.pn = self.dn = 1
        self.children: list[Node] | None = None
        self.more: list[int] = []  # the moves not tried yet, best first (cells: small ints
        # take no memory, and the upper tree holds tens of thousands of these lists)
        self.evaluated = False  # units have searched it and left it unknown: expand it
        self.budget = 0  # the nodes of its last unit, if any
        self.failed = False  # X's moves leading here fail (not a disproof: see _failing)
        self.won = False  # proved by a unit after the upper tree expanded it (split)

    @property
    def settled(self) -> bool:
        return self.pn == 0 or self.dn == 0

    def update(self) -> None:
        """Its numbers from its children's."""
        assert self.children is not None
        if self.won:  # its unit's proof stands, whatever its children's units say
            self.pn, self.dn, self.failed = 0, INF, False
            return
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
            self.failed = (
                any(failed)
                and not self.more
                and all(f or c.dn == 0 for f, c in zip(failed, self.children))
            )
        else:  # one of O's replies is enough
            self.failed = any(failed)


class Solver:
    """The upper tree and the units in flight."""

    def __init__(
        self,
        checkpoint: Checkpoint,
        nodes: int,
        out: TextIO,
        start: Key = (0, 0),
        width: int = X_WIDTH,
        prover: str = "python",
        runs: int = UNIT_RUNS,
        choices: Entries | None = None,
    ) -> None:
        self.checkpoint = checkpoint
        self.choices = choices or {}  # X's moves to prove instead of the ranking's (choices.py)
        self.before_choices = before(self.choices)  # O-to-move positions a reply from one
        self.nodes = nodes  # a unit's first run's
        self.max_nodes = last_budget(nodes, runs)
        self.width = width  # the units': X's moves tried at each position
        self.prover = prover  # the units': "python" or "fast"
        self.out = out
        self.rules = Prover()  # settles and expands positions of the upper tree
        self.root = Node(*start, -1, None)
        self._settle(self.root)
        self.running: dict[Future[Answer], Node] = {}
        self.submitted: dict[Future[Answer], float] = {}  # when each unit in flight was sent
        self.splits = 0  # units' positions expanded while they ran, for idle workers
        self.sent = 0  # units sent to the workers
        self.split_after = SPLIT_SECONDS
        self.counts = {"proved": 0, "disproved": 0, "unknown": 0}
        self.expanded = 0
        self.cpu_before = checkpoint.cpu_seconds  # earlier runs'
        self.cpu_seconds = 0.0  # this run's units
        self.peak_kb = 0  # the largest worker seen
        self.started = time.perf_counter()

    def solve(
        self,
        executor: Executor,
        workers: int,
        hours: float | None,
        progress: Progress | None = None,
    ) -> bool | None:
        """Search until the root is settled or `hours` pass: True when X wins, False when it
        does not, None when stopped first. `progress` shows how many of O's replies to X's
        most promising move at the root are proved."""
        deadline = None if hours is None else time.perf_counter() + hours * 3600
        last_report, last_compact = time.perf_counter(), time.perf_counter()
        if progress is not None:
            progress.update(*self.replies_proved(), skipped=self.replies_proved()[0])
        while not self.root.settled:
            out_of_time = deadline is not None and time.perf_counter() > deadline
            while not out_of_time and len(self.running) < workers:
                leaf = self._select()
                if leaf is None:
                    # A worker would stand idle while units run: split the longest-running
                    # one's position into the upper tree, for the idle to take its subtrees.
                    if not self._split():
                        break
                    continue
                self._visit(leaf, executor)
                if self.root.settled:
                    break
            if self.root.settled or not self.running:
                break
            done, _ = wait(self.running, timeout=1.0, return_when=FIRST_COMPLETED)
            for future in done:
                answer = future.result()
                self.submitted.pop(future, None)
                self._receive(self.running.pop(future), answer)
                if progress is not None:
                    progress.busy(answer.cpu_seconds)
            if progress is not None:
                proved, replies = self.replies_proved()
                progress.update(proved, replies, note=self._units())
            if time.perf_counter() - last_report >= REPORT_SECONDS:
                if progress is not None:
                    progress.clear()
                self.report()
                last_report = time.perf_counter()
            if time.perf_counter() - last_compact >= COMPACT_SECONDS:
                self.checkpoint.compact()
                last_compact = time.perf_counter()
        if progress is not None:
            progress.clear()
        self.report()
        if progress is not None:
            progress.update(*self.replies_proved())
            progress.finish(self._units())
        return None if not self.root.settled else self.root.pn == 0

    def replies_proved(self) -> tuple[int, int]:
        """Of O's replies to X's most promising move at the root (X's moves, at O's turn),
        how many are proved, and how many there are (1 of 1 for a position a unit settled
        whole). Once the root is proved, X's proved move is the most promising."""
        node = self.root
        if x_to_move(node.x, node.o) and node.children:
            node = min(node.children, key=lambda child: _real(child.pn))
        if not node.children:
            return int(node.pn == 0), 1
        return sum(1 for reply in node.children if reply.pn == 0), len(node.children)

    def _units(self) -> str:
        return (
            f"units {sum(self.counts.values()):,} ({self.counts['proved']:,} proved), "
            f"{self.splits:,} split for idle workers"
        )

    def _select(self) -> Node | None:
        """The most proving leaf not already being searched; None if every leaf is."""
        node = self.root
        while (children := node.children) is not None:
            if not children:
                return None
            if x_to_move(node.x, node.o):
                node = min(children, key=lambda child: child.pn)
            else:
                node = min(children, key=lambda child: child.dn)
        return None if node in self.running.values() else node

    def _split(self) -> bool:
        """Expand in the upper tree the position of the unit running longest that is not
        expanded yet, if it is a last run (left unknown, the upper tree would expand it
        anyway) and has run `split_after` seconds; its unit runs on, and its proof, if it
        comes, settles the position. False if there is none. (Splitting every unit at once
        was much slower: a unit shares its table across its subtree, which units under an
        expanded position do not; `--start 111 222 144 223` took over 5 minutes instead
        of 21 s.)"""
        now = time.perf_counter()
        waiting = [
            (self.submitted[future], leaf)
            for future, leaf in self.running.items()
            if leaf.children is None
            and leaf.budget >= self.max_nodes
            and now - self.submitted[future] >= self.split_after
        ]
        if not waiting:
            return False
        _, leaf = min(waiting, key=lambda pair: pair[0])
        self._expand(leaf)
        self.splits += 1
        self._backup(leaf)
        return True

    def _visit(self, leaf: Node, executor: Executor) -> None:
        """Expand `leaf`, or hand it to a unit."""
        stones = (leaf.x | leaf.o).bit_count()
        if (
            leaf.evaluated
            or stones < UNIT_STONES
            or self._choice(leaf) is not None
            or (self.before_choices and CUBE.canonical(leaf.x, leaf.o) in self.before_choices)
        ):  # (a unit there would prove its own moves, not the choices below it)
            self._expand(leaf)
        else:
            leaf.budget = min(self.max_nodes, leaf.budget * UNIT_GROWTH) or self.nodes
            future = executor.submit(unit, leaf.x, leaf.o, leaf.budget, self.width, self.prover)
            self.running[future] = leaf
            self.submitted[future] = time.perf_counter()
            self.sent += 1
            # Its parent chooses by this number: a sibling is chosen next.
            if x_to_move(leaf.x, leaf.o):
                leaf.dn += BUSY
            else:
                leaf.pn += BUSY
        self._backup(leaf.parent)

    def _expand(self, node: Node) -> None:
        group = stabilizer(CUBE, node.x, node.o)
        node.children = []
        choice = self._choice(node)
        node.more = (
            [choice]
            if choice is not None
            else [
                cell
                for cell, _, _ in self.rules.expand(node.x, node.o, group, width=len(CUBE.cells))
            ]
        )
        self._widen(node)
        self._record(node)

    def _choice(self, node: Node) -> int | None:
        """X's chosen move at `node` (in its orientation); None if there is none: at O's turn,
        where X has a three or must block, or where `choices` names none."""
        if not self.choices or not x_to_move(node.x, node.o):
            return None
        if winning_mask(node.x, node.o) or winning_mask(node.o, node.x):
            return None
        return lookup(self.choices, node.x, node.o)

    def _widen(self, node: Node) -> None:
        """Add X's next best moves to `node` until one is neither lost nor failing (all of
        O's replies, at O's turn)."""
        assert node.children is not None
        batch = len(node.more)
        if x_to_move(node.x, node.o):
            batch = 1 if _opening(node) else X_WIDTH
        while True:
            for cell in node.more[:batch]:
                cx, co = (
                    (node.x | 1 << cell, node.o)
                    if x_to_move(node.x, node.o)
                    else (node.x, node.o | 1 << cell)
                )
                child = Node(cx, co, cell, node)
                self._settle(child)
                node.children.append(child)
            del node.more[:batch]
            node.update()
            if not _failing(node):
                return

    def _settle(self, node: Node) -> None:
        """Set a new node's numbers from the checkpoint or the rules' quick verdicts."""
        key = CUBE.canonical(node.x, node.o)
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
        key = CUBE.canonical(leaf.x, leaf.o)
        if leaf.children is not None:  # split while its unit ran: the upper tree decides,
            if result.status == PROVED:  # unless the unit proved it
                leaf.won = True
                self.checkpoint.write("W", key, self.width)
                self.checkpoint.flush()
            self._backup(leaf)
            return
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
        key = CUBE.canonical(node.x, node.o)
        if key in self.checkpoint.settled:
            return
        if (
            node.pn == 0
            and x_to_move(node.x, node.o)
            and node.children
            and not winning_mask(node.o, node.x)
        ):  # (a block is no quiet move)
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
        print(
            f"{elapsed / 60:7.1f} min | units {done} ({self.counts['proved']} proved, "
            f"{self.counts['disproved']} disproved, {self.counts['unknown']} unknown) | "
            f"{rate:,.0f} nodes/s per worker | root pn {_number(root.pn)} "
            f"dn {_number(root.dn)} | book {len(self.checkpoint.book)} | CPU {cpu / 3600:.2f} h "
            f"in all runs | peak memory {main_kb // 1024} MB, workers {self.peak_kb // 1024} MB",
            file=self.out,
            flush=True,
        )
        for first in root.children or []:
            replies = first.children or []
            if not replies:
                continue
            proved = sum(1 for reply in replies if reply.pn == 0)
            left = " ".join(f"{format_cell(r.cell)}:{_number(r.pn)}" for r in replies if r.pn)
            print(
                f"    after X {format_cell(first.cell)}: O's replies proved {proved}/"
                f"{len(replies)}; left (proof number) {left}",
                file=self.out,
                flush=True,
            )
            for reply in replies:
                if reply.pn == 0 or not reply.children:
                    continue
                second = min(reply.children, key=lambda child: _real(child.pn))
                answers = second.children or []
                print(
                    f"        O {format_cell(reply.cell)}, X {format_cell(second.cell)} "
                    f"(of {len(reply.children)} tried): O's replies proved "
                    f"{sum(1 for a in answers if a.pn == 0)}/{len(answers)}",
                    file=self.out,
                    flush=True,
                )


def before(choices: Entries) -> set[Key]:
    """The canonical positions, O to move, from which one reply of O leads to a position with
    a choice: the upper tree expands them, so that the choice is proved below them."""
    return {CUBE.canonical(x, o & ~(1 << cell)) for x, o in choices for cell in iter_bits(o)}


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
    if node.won or not node.more or not x_to_move(node.x, node.o):
        return False
    if _opening(node):
        return all(child.dn == 0 for child in node.children)
    return all(child.failed or child.dn == 0 for child in node.children)


def _number(value: int) -> str:
    """A proof or disproof number as reported."""
    return "inf" if value >= INF else str(_real(value))


def add_solve_arguments(parser: argparse.ArgumentParser) -> None:
    add_unit_arguments(parser)
    parser.add_argument("--hours", type=float, help="stop after this long (default: never)")
    parser.add_argument(
        "--width",
        type=int,
        help=f"X's best ranked quiet moves a unit tries at each position "
        f"(default {UNIT_WIDTH['python']} with the python prover, "
        f"{UNIT_WIDTH['fast']} with fast); units that failed narrower run again",
    )
    add_choices_argument(
        parser,
        "X's moves to prove where the search would take its own, chosen for a smaller "
        "strategy (default: the package's qubic/proof/choices.txt)",
    )


def solve(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """`solve`: search, resuming from the checkpoint, until the proof is complete."""
    start, prover = start_and_prover(parser, args)
    choices = chosen(parser, args)
    where = place(args.dir, args.checkpoint)
    with workers(args.workers, args.scheduler) as pool:
        run_solve(args, where, start, prover, pool, choices)
    return 0


def run_solve(
    args: argparse.Namespace,
    where: Place,
    start: list[int],
    prover: str,
    pool: Workers,
    choices: Entries,
) -> bool | None:
    """Search with `pool`'s workers, resuming from the checkpoint in `where`, proving X's
    `choices` where it has them: True when X wins, False when not, None when stopped
    first."""
    checkpoint = Checkpoint(where.checkpoint)
    board = Board.from_moves(start)
    solver = Solver(
        checkpoint,
        args.unit_nodes or UNIT_NODES[prover],
        sys.stdout,
        (board.bits[0], board.bits[1]),
        args.width or UNIT_WIDTH[prover],
        prover,
        choices=choices,
    )
    print(
        f"resuming with {len(checkpoint.settled)} settled positions and "
        f"{len(checkpoint.book)} quiet moves from {where.checkpoint}; {prover} prover, "
        f"{solver.nodes:,} to {solver.max_nodes:,} nodes and {solver.width} X moves a unit",
        flush=True,
    )
    progress = Progress("solve", sys.stdout, workers=pool.size, what="of O's replies proved")
    try:
        outcome = solver.solve(pool.executor, pool.size, args.hours, progress)
    except KeyboardInterrupt:
        progress.clear()
        print("stopped; everything answered so far is in the checkpoint", flush=True)
        raise Stopped from None
    finally:
        checkpoint.compact()
    if outcome is not None:
        print("X WINS: the proof is complete" if outcome else "X does not win here", flush=True)
    return outcome
