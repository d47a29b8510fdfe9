"""`python -m qubic.proof book`: write the strategy book from the solver's checkpoint.

The book is the quiet moves of a walk of the strategy, as the verifier walks it. Where X has a
win with at most `SETUPS` setups (quiet moves after which every reply of O leaves X a forced
win by threats, or another such setup), the walk plays it before the proof's move: the line
needs only those setups' entries below it, where the proof's move, chosen by df-pn for being
proved first, not for a small strategy, may need many more. Where `--choices` names X's move,
the walk plays it instead of either (a forced win by threats still comes first).
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import Executor
from functools import partial
from pathlib import Path
from typing import NamedTuple, TextIO

from qubic.core import files
from qubic.core.board import Board
from qubic.core.geometry import CUBE, Orientation
from qubic.core.symmetry import lookup, orbits, stabilizer
from qubic.proof import cli, shrink
from qubic.proof.checkpoint import Checkpoint, Place, place
from qubic.proof.leaf import strategy_threats
from qubic.proof.pool import Journal, Workers, digest, run_tasks, workers
from qubic.proof.progress import Progress
from qubic.proof.unit import UNIT_NODES, UNIT_WIDTH, last_budget, unit
from qubic.proof.walk import Mover, Walk, walk_lines, x_lines
from qubic.search.prover import PROVED, X_WIDTH
from qubic.search.setups import SetupSearch
from qubic.search.strategy import Entries, XMove, format_entries, quiet_move
from qubic.search.threats import OutOfBudget, PureThreatSearch, ThreatSearch, new_threats

EVERY_MOVE = len(CUBE.cells)  # the width of a book gap's last try: two gaps of the first book,
# unproved at widths 3 and 8 with 1,200,000 nodes, were proved so within 230,000


SETUPS = 2  # the most setups of the wins the walk plays before the proof's moves
SETUP_NODES = 2_000_000  # threat-search positions for each of those searches
SCAN_NODES = 2_000_000  # threat-search positions for `cheapest_setup`'s scan at each of them


def setup_first(
    x: int,
    o: int,
    book: Entries,
    orientation: Orientation | None = None,
    setups: int = SETUPS,
    fast: bool = False,
    scan: int = 0,
    leaf: str = "ours",
    chosen: tuple[tuple[int, int], ...] = (),
) -> XMove | None:
    """X's move as the book's walk plays it where X neither wins nor blocks, and why: a forced
    win by threats as level perfect finds them, else a win with at most `setups` setups
    ('setup'), else the book's move; None if there is none of them. At a position whose
    canonical image is in `chosen` (X's chosen moves, each measured by the entries a book
    built below it needs), the book's move, the choice, comes before a win with setups.
    `fast`: the searches compiled (`FreshThreatSearch` and `FastSetupSearch`, the solver
    extra), the same searches, many times faster. `scan`: the budget of `cheapest_setup`'s
    scan (0: none). The setup search is a new one, quiet setups first, asked about the
    position's canonical image: its answer depends on the class alone, not on the orientation
    the walk met it in nor on what was asked before, so every line through a class plays the
    same move there and the book holds no entry the strategy does not reach. Under
    Patashnik's `leaf` rule, the forced wins it plays are by threats alone, and its setups are
    `threats_alone_first`'s."""
    pure = leaf == "patashnik"
    move = quiet_move(x, o, {}, search=strategy_threats(fast, pure))
    if move is None:
        orientation = orientation or CUBE.orient(x, o)
        (image_x, image_o), symmetry = orientation
        if (image_x, image_o) not in chosen:
            if pure:
                cell = threats_alone_first(image_x, image_o, setups, fast, scan)
            else:
                cell = fewest_setups(image_x, image_o, setups, fast, scan)
            move = None if cell is None else XMove(symmetry.index(cell), "setup")
    if move is None:
        cell = lookup(book, x, o, orientation)
        move = None if cell is None else XMove(cell, "book")
    return move


def threats_alone_first(x: int, o: int, setups: int, fast: bool, scan: int) -> int | None:
    """`fewest_setups` for a book built for Patashnik's rule, where X has no forced win by
    threats alone: a win with one setup whose wins after O's replies are by threats alone,
    else the first move of a forced win whose chain needs O's blocks to make threes (an entry
    under that rule, but one without replies to branch on), else a win with at most `setups`
    setups by threats alone."""
    cell = fewest_setups(x, o, min(setups, 1), fast, scan, pure=True)
    if cell is None:
        chain = quiet_move(x, o, {}, search=strategy_threats(fast))
        cell = None if chain is None else chain.cell
    if cell is None and setups > 1:
        cell = fewest_setups(x, o, setups, fast, scan, pure=True)
    return cell


def fewest_setups(
    x: int, o: int, setups: int, fast: bool, scan: int = 0, pure: bool = False
) -> int | None:
    """X's first move of a win with the fewest setups, at most `setups`, found by a new setup
    search, quiet setups first; of the quiet ones with two or more, the cheapest within a
    scan of `scan` positions (`cheapest_setup`; 0: the first). None if there is none within
    the search's budget. `pure`: the wins' threats alone (`PureThreatSearch`)."""
    search = new_setup_search(fast, pure=pure)
    for most in range(1, setups + 1):
        try:
            cell = search.forced_win(x, o, most)
        except OutOfBudget:
            return None
        if cell is not None:
            if most > 1 and scan and not new_threats(x | 1 << cell, o, cell):
                return cheapest_setup(x, o, cell, most, fast, scan, pure)
            return cell
    return None


def cheapest_setup(
    x: int, o: int, found: int, setups: int, fast: bool, scan: int, pure: bool = False
) -> int:
    """Of X's quiet moves at `(x, o)` that win with `setups` setups (the fewest there are;
    `found`, the first the setup search found), the one after which the fewest replies of O
    (one per class) leave X no forced win by threats: each of those needs a setup of its
    own, an entry of the book. Among equals `found`, then the lowest cell; within `scan`
    threat-search positions: the cheapest so far if the scan runs out."""
    search = new_setup_search(fast, scan, pure)
    threats = search.threats

    def cost(cell: int, bound: int) -> int | None:
        """The replies to `cell` that need a setup, None if `cell` does not win with
        `setups` setups or needs `bound` such replies or more."""
        mine = x | 1 << cell
        line = threats.forced_win(mine, o, shortest=False)
        if line is None or threats.forced_win(o, mine, shortest=False) is not None:
            return None
        open_replies = 0
        empty = CUBE.full_mask & ~(mine | o)
        classes = list(orbits(empty, stabilizer(CUBE, mine, o)))
        for reply in search.refutations(mine, o, line, classes):
            yours = o | 1 << reply
            if threats.forced_win(mine, yours, shortest=False):
                continue
            open_replies += 1
            if open_replies >= bound or search.forced_win(mine, yours, setups - 1) is None:
                return None
        return open_replies

    try:
        best, least = found, cost(found, len(CUBE.cells))  # no bound: fewer replies than cells
        if least is None:
            return found
        for cell in search.setup_candidates(x, o):
            if cell != found and not new_threats(x | 1 << cell, o, cell):
                more = cost(cell, least)
                if more is not None:
                    best, least = cell, more
    except OutOfBudget:
        pass
    return best


def new_setup_search(fast: bool, nodes: int = SETUP_NODES, pure: bool = False) -> SetupSearch:
    """A new setup search of `nodes` threat-search positions for the book, quiet setups
    first, compiled if `fast`; if `pure`, for Patashnik's rule: over threats alone
    (`PureThreatSearch`), and X's blocks of O's threes free, as his count holds no entry for
    them (the book for our rule keeps them as setups: it was built so)."""
    if fast:
        from qubic.proof.fast_prover import FastSetupSearch, FastThreatSearch  # the solver extra

        return FastSetupSearch(FastThreatSearch(nodes, pure=pure), True, free_blocks=pure)
    return SetupSearch((PureThreatSearch if pure else ThreatSearch)(nodes), True, free_blocks=pure)


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
    until one proves it, in the orientation the walk met it in, then in its canonical one
    (a proof within the budget can depend on it: the solver's may have been another); if none
    does, of proofs of the gap's ends, each tried at the run's unit width and then with every
    move of X. Runs in a worker process."""
    for x, o in dict.fromkeys([(gap.x, gap.o), CUBE.canonical(gap.x, gap.o)]):
        moves = first_proof(x, o, gap.widths, nodes, prover)
        if moves is not None:
            return moves
    widths = [UNIT_WIDTH[prover], EVERY_MOVE]
    return [move for x, o in gap.ends for move in first_proof(x, o, widths, nodes, prover) or []]


def prove_gap(gap: Gap, nodes: int, prover: str) -> tuple[list[tuple[int, int, int]], float]:
    """`prove_again`, and the CPU seconds it took."""
    start = time.process_time()
    moves = prove_again(gap, nodes, prover)
    return moves, time.process_time() - start


def first_proof(
    x: int, o: int, widths: list[int], nodes: int, prover: str
) -> list[tuple[int, int, int]] | None:
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
        if not (x | o) >> cell & 1 and checkpoint.settled.get(CUBE.canonical(x | 1 << cell, o)):
            return cell
    return None


def unit_root(checkpoint: Checkpoint, line: list[int]) -> tuple[int, int]:
    """The last position of `line` the checkpoint holds won: the root of the unit whose proof
    holds the line's end (the upper tree's positions held won have their moves recorded)."""
    for end in range(len(line), -1, -1):
        x, o = Board.from_moves(line[:end]).bits
        if checkpoint.settled.get(CUBE.canonical(x, o)):
            return x, o
    x, o = Board.from_moves(line).bits
    return x, o


def write_book(
    checkpoint: Checkpoint,
    path: Path,
    start: list[int],
    prover: str,
    nodes: int,
    out: TextIO,
    executor: Executor | None = None,
    setups: int = SETUPS,
    journal: Journal | None = None,
    count: int = 1,
    leaf: str = "ours",
    chosen: Entries | None = None,
) -> int:
    """Walk the strategy from `start` with the checkpoint's quiet moves, X playing a win with
    at most `setups` setups before them (`setup_first`; 0, the proof's moves alone), and at
    the positions `chosen` names (X's chosen moves, canonical) their moves instead, and write
    the quiet moves it plays; 0 when the walk met no gap. From a checkpoint made with other
    choices, a chosen move's subtree is walked as any other's, and where the walk finds no
    move for X there, that is a gap like any other. The checkpoint keeps the quiet
    moves of the upper tree only (a unit's would swell it), so where the walk finds no move
    for X, a move into a position the checkpoint holds won is taken, else the unit whose
    proof holds it (its last position held won) is proved again (the same prover and width
    give the same proof within `nodes`, a unit's largest budget: given more nodes, df-pn
    takes the same path; a unit's position at its recorded width, any other at each width
    the checkpoint holds) and its quiet moves join; where that fails, or a pass before proved
    the root again, the gaps themselves are proved (at the run's unit width, then trying
    every move of X). The walk repeats over the gaps' subtrees until it meets no gap or has
    nothing left to prove. A complete walk with setups then has its heavy entries asked
    again for wins with one more setup (`shrink.shrink`). The walk, the units and those
    questions run through `executor` when one is given (`count` workers, for the busy share
    reported). With a `journal`, every part of a
    walk and every proof goes there as it arrives, so a build stopped at any point resumes
    with only the work in flight lost; a finished build leaves there only a record of the
    book it wrote, and a build with the same inputs finds that book up to date."""
    journal = journal or Journal(None)
    choices = tuple(sorted((chosen or {}).items()))
    done_key = _inputs_key(checkpoint, start, prover, nodes, setups, leaf, choices)
    done = journal.get(done_key)
    if done is not None and path.exists() and digest(path.read_bytes()) == done["file"]:
        print(f"the book {path} is up to date: {done['entries']:,} entries", file=out)
        return int(done["status"])
    build = Build(checkpoint, prover, nodes, setups, out, executor, journal, count, leaf, chosen)
    quiet, failures = build.fill(x_lines(start))
    if setups and not failures:
        quiet = build.shrink(quiet, start)
    text = format_entries(quiet.items())
    files.write_atomic(path, text.encode("ascii"))
    status = 0 if not failures else 1
    journal.put(
        done_key, {"file": digest(text.encode("ascii")), "entries": len(quiet), "status": status}
    )
    journal.keep(done_key)  # the rest is done with
    print(
        f"wrote {len(quiet):,} entries ({path.stat().st_size:,} bytes) to {path}; "
        f"{len(failures):,} positions not yet proved",
        file=out,
    )
    return status


def _inputs_key(
    checkpoint: Checkpoint,
    start: list[int],
    prover: str,
    nodes: int,
    setups: int,
    leaf: str,
    chosen: tuple[tuple[tuple[int, int], int], ...],
) -> str:
    """The digest of everything a build's book depends on: the same key, the same book."""
    return digest(
        "book",
        sorted(checkpoint.settled.items()),
        sorted(checkpoint.book.items()),
        sorted(checkpoint.widths.items()),
        start,
        prover,
        nodes,
        setups,
        leaf,
        chosen,
        SCAN_NODES,
        shrink.DEEP_SETUPS,
        shrink.DEEP_NODES,
        shrink.HEAVY,
        shrink.LEVELS,
    )


class Build:
    """One build of the book, in its phases: walks of the strategy (`walk_from`), the gaps
    they meet found (`gaps`) and proved (`prove`), repeated until no gap is left (`fill`),
    then the heavy entries asked again (`shrink`)."""

    def __init__(
        self,
        checkpoint: Checkpoint,
        prover: str,
        nodes: int,
        setups: int,
        out: TextIO,
        executor: Executor | None,
        journal: Journal,
        count: int,
        leaf: str = "ours",
        chosen: Entries | None = None,
    ) -> None:
        self.checkpoint, self.prover, self.nodes, self.out = checkpoint, prover, nodes, out
        self.pure = leaf == "patashnik"
        self.executor, self.journal, self.count = executor, journal, count
        self.chosen = frozenset(chosen or {})
        self.book = dict(checkpoint.book) | (chosen or {})
        self.widths = sorted({X_WIDTH, *checkpoint.widths.values()})
        self.mover: Mover = (
            partial(
                setup_first,
                setups=setups,
                fast=prover == "fast",
                scan=SCAN_NODES,
                leaf=leaf,
                chosen=tuple(sorted(self.chosen)),
            )
            if setups
            else quiet_move
        )
        self.passes = 1
        self.recording = executor is not None or journal.path is not None  # else: one walk
        self.tried: set[tuple[int, int]] = set()  # unit roots proved again

    def progress(self, what: str, how: str) -> Progress:
        return Progress(f"book pass {self.passes}: {what}", self.out, workers=self.count, what=how)

    def walk_from(self, lines: list[list[int]]) -> Walk:
        """The strategy walked from `lines` with the book so far, its progress shown."""
        walking = self.progress("walk", "parts")
        found = walk_lines(
            lines,
            self.book,
            self.executor,
            mover=self.mover,
            journal=self.journal if self.recording else None,
            progress=walking if self.recording else None,
        )
        if self.recording:
            walking.finish(f"{found.positions:,} positions")
        return found

    def fill(self, lines: list[list[int]]) -> tuple[Entries, list[list[int]]]:
        """Walk from `lines`, proving the gaps and walking their subtrees again until the walk
        meets none or nothing is left to prove: the quiet moves played, and the lines where X
        still had no move."""
        result = self.walk_from(lines)
        quiet, failures, walked = dict(result.quiet), result.failures, result.positions
        while True:
            gaps, added, lost, open_lines = self.gaps(failures)
            added += self.prove(gaps)
            print(
                f"walked {walked:,} positions, no move at {len(failures):,}; "
                f"proved again: {added:,} quiet moves",
                file=self.out,
                flush=True,
            )
            if not failures or (not added and not any(gap.widths for gap in gaps.values())):
                return quiet, failures
            # Only the gaps' subtrees can change: walk those again.
            self.passes += 1
            again = self.walk_from(open_lines)
            quiet |= again.quiet
            failures, walked = lost + again.failures, again.positions

    def gaps(
        self, failures: list[list[int]]
    ) -> tuple[dict[tuple[int, int], Gap], int, list[list[int]], list[list[int]]]:
        """What the walk's `failures` call for: the gaps by their unit's root, the moves taken
        into positions the checkpoint holds won (counted), the lines O won or filled, and the
        lines still open."""
        gaps: dict[tuple[int, int], Gap] = {}
        added, lost, open_lines = 0, [], []
        for line in failures:
            board = Board.from_moves(line)
            if len(line) % 2 or board.is_over():
                lost.append(line)  # O's reply won or filled the cube: no proof to take from
                continue
            open_lines.append(line)
            x, o = board.bits
            cell = proved_move(self.checkpoint, x, o)
            if cell is not None:
                canon, symmetry = CUBE.orient(x, o)
                added += canon not in self.book
                self.book.setdefault(canon, symmetry[cell])
                continue
            root = unit_root(self.checkpoint, line)
            if root not in gaps:
                recorded = self.checkpoint.width(CUBE.canonical(*root))
                retries = (
                    []
                    if root in self.tried
                    else [recorded, *(w for w in self.widths if w != recorded)]
                )
                gaps[root] = Gap(*root, retries, [])
            gaps[root].ends.append((x, o))
        self.tried |= gaps.keys()
        return gaps, added, lost, open_lines

    def prove(self, gaps: dict[tuple[int, int], Gap]) -> int:
        """Prove the gaps again and add their quiet moves to the book: how many were new."""
        proving = self.progress("proofs", "gaps")
        tasks = list(gaps.values())
        proofs = run_tasks(
            partial(prove_gap, nodes=self.nodes, prover=self.prover),
            tasks,
            [digest("gap", gap, self.nodes, self.prover) for gap in tasks],
            self.journal,
            list,
            lambda data: (data[0], data[1]),
            self.executor,
            proving,
            seconds=lambda answer: answer[1],
        )
        added = 0
        for moves, _ in proofs:
            for x, o, cell in moves:
                added += (x, o) not in self.book
                self.book.setdefault((x, o), cell)
        if self.recording:
            proving.finish(f"{added:,} quiet moves")
        return added

    def shrink(self, quiet: Entries, start: list[int]) -> Entries:
        """`quiet` with its heavy entries asked again for wins with one more setup."""
        roots = [Board.from_moves(line).bits for line in x_lines(start)]
        return shrink.shrink(
            quiet,
            self.book,
            [(x, o) for x, o in roots],
            self.mover,
            partial(new_setup_search, self.prover == "fast", pure=self.pure),
            self.journal,
            self.executor,
            partial(Progress, out=self.out, workers=self.count, what="entries")
            if self.recording
            else None,
            self.chosen,
        )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    cli.add_unit_arguments(parser)
    cli.add_leaf_argument(parser, "the leaf rule the book is built for")
    cli.add_choices_argument(
        parser,
        "X's chosen moves: at their positions the book plays them, not the proof's move nor "
        "a win with setups (default: the package's qubic/proof/choices.txt)",
    )


def book(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """`book`: write the strategy book from the checkpoint (positions whose quiet moves it does
    not keep are proved again). A build stopped part way resumes: every part of its walks
    and every proof it made are in the journal `book.journal`."""
    start, prover = cli.start_and_prover(parser, args)
    choices = cli.chosen(parser, args)
    where = place(args.dir, args.checkpoint)
    with workers(args.workers, args.scheduler) as pool:
        return run_book(args, where, start, prover, pool, choices)


def run_book(
    args: argparse.Namespace,
    where: Place,
    start: list[int],
    prover: str,
    pool: Workers,
    choices: Entries,
) -> int:
    checkpoint = Checkpoint(where.checkpoint)
    nodes = last_budget(args.unit_nodes or UNIT_NODES[prover])
    journal = Journal(where.book_journal)
    try:
        return write_book(
            checkpoint,
            where.strategy,
            start,
            prover,
            nodes,
            sys.stdout,
            pool.executor,
            journal=journal,
            count=pool.size,
            leaf=args.leaf,
            chosen=choices,
        )
    finally:
        journal.close()
