"""The solver's driver: units through an executor, the checkpoint, and resuming from it."""

import io
import lzma
import re
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from itertools import pairwise
from pathlib import Path

import pytest

from qubic.core.board import Board, iter_bits
from qubic.core.geometry import CUBE
from qubic.core.notation import parse_cell, parse_moves
from qubic.core.symmetry import lookup
from qubic.proof.book import SCAN_NODES, SETUPS, setup_first, unit_root, write_book
from qubic.proof.checkpoint import Checkpoint
from qubic.proof.progress import Progress
from qubic.proof.solve import Solver
from qubic.proof.walk import walk
from qubic.search import strategy
from qubic.search.prover import DISPROVED, PROVED, X_WIDTH, Prover
from tests.positions import QUIET_WIN, bits


@pytest.mark.slow
def test_a_proof_is_checkpointed_and_a_second_run_resumes_from_it(tmp_path):
    path = tmp_path / "proof.txt.xz"
    start = bits(QUIET_WIN)
    out = io.StringIO()
    with ThreadPoolExecutor(2) as executor:
        # Tiny units, each run once: the upper tree has to be grown around them.
        assert Solver(Checkpoint(path), 40, out, start, runs=1).solve(executor, 2, None)
    assert "units" in out.getvalue()
    checkpoint = Checkpoint(path)
    assert checkpoint.settled[CUBE.canonical(*start)] is True
    assert checkpoint.book  # the upper tree's quiet moves
    # With the units' quiet moves proved again, they make a whole strategy: the book written
    # has no gap for the verifier's walk.
    moves = parse_moves(QUIET_WIN)
    book_path, report = tmp_path / "strategy.txt", io.StringIO()
    with ThreadPoolExecutor(2) as executor:  # the gaps' units run through it
        assert (
            write_book(checkpoint, book_path, moves, "python", 40, report, executor, setups=0) == 0
        )  # the proof's moves alone, as the checkpoint has them
    assert "proved again" in report.getvalue()
    book = strategy.load(book_path)
    assert walk(moves, book).failures == []
    assert all(book[key] == checkpoint.book[key] for key in book.keys() & checkpoint.book.keys())
    # Resumed, the root is known at once: no unit runs.
    again = Solver(checkpoint, 40, io.StringIO(), start, runs=1)
    with ThreadPoolExecutor(1) as executor:
        assert again.solve(executor, 1, None) is True
    assert sum(again.counts.values()) == 0


def test_a_unit_keeps_no_quiet_moves_and_the_book_proves_them_again(tmp_path):
    path = tmp_path / "proof.txt.xz"
    start = bits(QUIET_WIN)
    with ThreadPoolExecutor(1) as executor:  # one unit proves the whole position
        assert Solver(Checkpoint(path), 5_000, io.StringIO(), start).solve(executor, 1, None)
    checkpoint = Checkpoint(path)
    assert checkpoint.settled[CUBE.canonical(*start)] is True and not checkpoint.book
    moves = parse_moves(QUIET_WIN)
    assert walk(moves, checkpoint.book).failures  # no quiet move kept: a gap at once
    book_path, report = tmp_path / "strategy.txt", io.StringIO()
    assert write_book(checkpoint, book_path, moves, "python", 5_000, report, setups=0) == 0
    assert walk(moves, strategy.load(book_path)).failures == []
    assert "no move at 1; proved again" in report.getvalue()


@pytest.mark.slow
def test_the_book_takes_a_move_into_a_position_held_won_where_the_tree_kept_none(tmp_path):
    # The upper tree kept no quiet move for the start (it had one child, like the empty
    # cube's corner), but it holds the position after X's 223 won, by a unit. 150 nodes
    # prove that position (122) and not the start (179), so the move must come from the
    # record.
    x_cells, o_cells = "114 144 214 222 232 233 313 411", "111 211 212 213 234 322 332 414"
    moves = [parse_cell(m) for pair in zip(x_cells.split(), o_cells.split()) for m in pair]
    x, o = Board.from_moves(moves).bits
    after = (x | 1 << parse_cell("223"), o)
    assert Prover(width=8).prove(x, o, 150).status != PROVED
    path = tmp_path / "proof.txt.xz"
    key, child = CUBE.canonical(x, o), CUBE.canonical(*after)
    (tmp_path / "proof.journal").write_text(
        f"W {key[0]:x} {key[1]:x}\nW {child[0]:x} {child[1]:x} 3\n"
    )
    book_path = tmp_path / "strategy.txt"
    # The proof's moves alone: the setup search finds no win here, and takes seconds to say so.
    assert (
        write_book(Checkpoint(path), book_path, moves, "python", 150, io.StringIO(), setups=0) == 0
    )
    book = strategy.load(book_path)
    assert lookup(book, x, o) == parse_cell("223")
    assert walk(moves, book).failures == []


def unprovable_root(tmp_path: Path) -> tuple[Path, list[int]]:
    """A checkpoint holding won a root that its unit cannot prove again, and the line to it."""
    # The first book's 41 gaps were left because their units' roots, held won, could not be
    # proved again (recorded by earlier code). Here the root, after X's block
    # at 214, needs more than 3,000 expansions at any width; each gap after O's replies
    # (121 122 131 132 133) at most 1,481 at width 3.
    line = "111 114 141 233 144 414 134 314"
    moves = parse_moves(line)
    root = Board.from_moves([*moves, parse_cell("214")]).bits
    assert Prover().prove(root[0], root[1], 1_500).status != PROVED
    key = CUBE.canonical(*root)
    path = tmp_path / "proof.txt.xz"
    (tmp_path / "proof.journal").write_text(f"W {key[0]:x} {key[1]:x}\n")
    return path, moves


@pytest.mark.slow
def test_gaps_are_proved_themselves_where_their_unit_cannot_be_proved_again(tmp_path):
    path, moves = unprovable_root(tmp_path)
    book_path, report = tmp_path / "strategy.txt", io.StringIO()
    # The proof's moves alone: wins with one setup would answer four of the five gaps.
    assert write_book(Checkpoint(path), book_path, moves, "python", 1_500, report, setups=0) == 0
    assert "no move at 5; proved again" in report.getvalue()
    assert walk(moves, strategy.load(book_path)).failures == []


@pytest.mark.slow
def test_the_book_plays_wins_with_setups_before_the_proofs_moves(tmp_path):
    path, moves = unprovable_root(tmp_path)
    books, reports = [], []
    for setups in range(SETUPS + 1):
        book_path, report = tmp_path / f"strategy{setups}.txt", io.StringIO()
        assert (
            write_book(Checkpoint(path), book_path, moves, "python", 1_500, report, setups=setups)
            == 0
        )
        books.append(strategy.load(book_path))
        reports.append(report.getvalue())
    assert "no move at 1; proved again" in reports[1]  # a gap is still proved again
    # Fewer entries with each setup allowed (19, 15, 14 here), and perfect's walk of them still
    # wins every line.
    assert all(len(more) < len(fewer) for fewer, more in pairwise(books))
    assert all(walk(moves, book).failures == [] for book in books[1:])
    played = walk(moves, books[0], mover=setup_first)
    assert played.answered["setup"] > 0 and played.quiet == books[-1]


@pytest.mark.slow
def test_the_books_walk_plays_one_move_per_class_and_the_book_holds_only_what_is_reached(
    tmp_path,
):
    path, moves = unprovable_root(tmp_path)
    book_path = tmp_path / "strategy.txt"
    assert write_book(Checkpoint(path), book_path, moves, "python", 1_500, io.StringIO()) == 0
    book = strategy.load(book_path)
    # Perfect's walk meets every entry the build wrote, and no position without one.
    assert walk(moves, book).quiet == book
    # A win with setups is the same move in whatever image of its class the walk meets.
    setups = 0
    for index, ((x, o), cell) in enumerate(book.items()):
        move = setup_first(x, o, {}, scan=SCAN_NODES)
        if move is None:
            continue
        setups += 1
        assert move == (cell, "setup")
        symmetry = CUBE.symmetries[1 + 37 * index % 191]  # one image each: a scan takes seconds
        image_x = sum(1 << symmetry[c] for c in iter_bits(x))
        image_o = sum(1 << symmetry[c] for c in iter_bits(o))
        assert setup_first(image_x, image_o, {}, scan=SCAN_NODES) == (symmetry[cell], "setup")
    assert setups > 0


@pytest.mark.slow
def test_a_stopped_search_keeps_what_its_units_answered(tmp_path):
    path = tmp_path / "proof.txt.xz"
    with ThreadPoolExecutor(1) as executor:
        assert Solver(Checkpoint(path), 30, io.StringIO()).solve(executor, 1, 0.0003) is None
    # Not compacted: everything is in the journal, appended as each unit answered.
    assert not path.exists()
    lines = (tmp_path / "proof.journal").read_text().splitlines()
    assert lines and all(line.split()[0] in "WLUBT" for line in lines)
    assert Checkpoint(path).unknown  # units left unknown are recorded


def test_a_unit_left_unknown_runs_again_with_more_nodes(tmp_path):
    # QUIET_WIN's unit needs 276 expansions: 100 leave it unknown, 400 prove it.
    start = bits(QUIET_WIN)
    key = CUBE.canonical(*start)
    for runs, proved_by_unit in [(1, False), (2, True)]:
        path = tmp_path / str(runs) / "proof.txt.xz"
        path.parent.mkdir()
        with ThreadPoolExecutor(1) as executor:
            assert (
                Solver(Checkpoint(path), 100, io.StringIO(), start, runs=runs).solve(
                    executor, 1, None
                )
                is True
            )
        lines = (path.parent / "proof.journal").read_text().splitlines()
        assert any(
            line.startswith(f"U {key[0]:x} {key[1]:x} ") and line.endswith(" 3 100")
            for line in lines
        )
        # Run again with 400 nodes, the unit proves the root; run once, the upper tree
        # expands it.
        assert (f"W {key[0]:x} {key[1]:x} 3" in lines) is proved_by_unit
    # A record's nodes survive compaction, with its width even where that is 3.
    checkpoint = Checkpoint(tmp_path / "compacted" / "proof.txt.xz")
    checkpoint.path.parent.mkdir()
    checkpoint.write("U", (5, 6), 7, 8, X_WIDTH, 100)
    checkpoint.compact()
    again = Checkpoint(checkpoint.path)
    assert again.unknown[(5, 6)] == (7, 8) and again.budget((5, 6)) == 100
    assert again.width((5, 6)) == X_WIDTH


def test_a_line_cut_off_by_a_stop_is_ignored(tmp_path):
    path = tmp_path / "proof.txt.xz"
    (tmp_path / "proof.journal").write_text("W 1 2\nU 3 4 5 6\nB 1 2 7\nU 3")
    checkpoint = Checkpoint(path)
    assert checkpoint.settled == {(1, 2): True}
    assert checkpoint.unknown == {(3, 4): (5, 6)}
    assert checkpoint.book == {(1, 2): 7}


def test_compacting_folds_the_journal_into_the_compressed_file(tmp_path):
    path = tmp_path / "proof.txt.xz"
    journal = tmp_path / "proof.journal"
    journal.write_text(
        "U a b 5 6\nW 1 2\nT 40\nB 1 2 7\nU 3 4 8 9\nW a b\nT 95\nU e f 1000 1 8\nW 20 21 8\n"
    )
    checkpoint = Checkpoint(path)
    checkpoint.compact()
    assert not journal.exists()
    with lzma.open(path, "rt") as compact:
        assert sorted(compact.read().splitlines()) == [
            "B 1 2 7",
            "T 95",
            "U 3 4 8 9",
            "U e f 1000 1 8",
            "W 1 2",
            "W 20 21 8",
            "W a b",
        ]
    # A unit's width, when not the first runs' 3, survives compaction.
    assert Checkpoint(path).width((0xE, 0xF)) == 8 and Checkpoint(path).width((3, 4)) == X_WIDTH
    # New answers go to a new journal; the file and the journal are read together.
    checkpoint.write("L", (0xC, 0xD))
    checkpoint.close()
    again = Checkpoint(path)
    assert again.settled == {(1, 2): True, (10, 11): True, (12, 13): False, (32, 33): True}
    assert again.unknown == {(3, 4): (8, 9), (14, 15): (1000, 1)}
    assert again.book == {(1, 2): 7}
    assert again.cpu_seconds == 95  # the solver's CPU time over every run, the latest record


def test_the_upper_tree_widens_where_x_best_moves_fail(tmp_path):
    # X wins here, but not by its single best ranked move at every position of the proof.
    start = bits("111 133 141 143 144 233 223 323 333 441 413 443")
    assert Prover(width=1).prove(*start, 30_000).status == DISPROVED
    assert Prover().prove(*start, 30_000).status == PROVED
    path = tmp_path / "proof.txt.xz"
    with ThreadPoolExecutor(2) as executor:
        solver = Solver(Checkpoint(path), 40, io.StringIO(), start, width=1)
        assert solver.solve(executor, 2, 0.1) is True
    assert solver.counts["disproved"] > 0  # units that failed were widened past, not lost
    assert Checkpoint(path).settled[CUBE.canonical(*start)] is True


@pytest.mark.slow
@pytest.mark.parametrize("numbers", ["1000 1", "8 9"])  # failed, or left unknown
def test_a_unit_answered_narrower_runs_again_wider(tmp_path, numbers):
    start = bits(QUIET_WIN)
    key = CUBE.canonical(*start)
    for recorded, runs_again in [("", True), (" 3", True), (" 8", False), (" 9", False)]:
        path = tmp_path / recorded.strip() / "proof.txt.xz"
        path.parent.mkdir(exist_ok=True)
        answered = f"U {key[0]:x} {key[1]:x} {numbers}{recorded}"
        (path.parent / "proof.journal").write_text(answered + "\n")
        with ThreadPoolExecutor(1) as executor:
            assert (
                Solver(Checkpoint(path), 5_000, io.StringIO(), start, width=8, runs=1).solve(
                    executor, 1, None
                )
                is True
            )
        lines = (path.parent / "proof.journal").read_text().splitlines()
        # Run again, the unit proves the root and records its width; else the upper tree
        # expands the root and units prove the positions below it.
        assert (f"W {key[0]:x} {key[1]:x} 8" in lines) is runs_again, recorded


@pytest.mark.slow
def test_from_the_empty_cube_only_the_corner_is_searched_as_first_move(tmp_path):
    out = io.StringIO()
    with ThreadPoolExecutor(1) as executor:
        Solver(Checkpoint(tmp_path / "proof.txt.xz"), 30, out).solve(executor, 1, 0.0003)
    assert "after X 111: O's replies proved 0/12" in out.getvalue()
    assert "after X 112" not in out.getvalue()
    # Below each of O's replies searched: X's most promising answer and O's replies to it.
    assert re.search(
        r"O \d{3}, X \d{3} \(of \d+ tried\): O's replies proved \d+/\d+", out.getvalue()
    )
    assert re.search(
        r"CPU \d+\.\d\d h in all runs \| peak memory \d+ MB, workers \d+ MB", out.getvalue()
    )


@pytest.mark.slow
def test_the_solver_stops_on_sigint_even_when_started_with_it_ignored(tmp_path):
    # A shell starting a command in the background (`... &`) leaves SIGINT ignored.
    path = tmp_path / "proof.txt.xz"
    command = [
        sys.executable,
        "-m",
        "qubic.proof",
        "solve",
        "--checkpoint",
        str(path),
        "--prover",
        "python",
        "--unit-nodes",
        "2000",
        "--workers",
        "1",
        "--start",
        "111",
        "222",
    ]
    solver = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    assert "resuming" in solver.stdout.readline()
    time.sleep(3)
    solver.send_signal(signal.SIGINT)
    out, _ = solver.communicate(timeout=60)
    assert "stopped; everything answered so far is in the checkpoint" in out
    assert path.exists()


def test_a_line_no_unit_holds_has_its_own_end_as_the_units_root(tmp_path):
    # The fallback once returned the board's list of bitboards, which cannot key a dict.
    line = [parse_cell(text) for text in ["111", "222", "144"]]
    root = unit_root(Checkpoint(tmp_path / "empty.txt.xz"), line)
    assert root == tuple(Board.from_moves(line).bits)
    assert {root: 1}[root] == 1


def test_an_idle_worker_takes_a_subtree_of_a_running_units_position(tmp_path):
    # One unit, a last run (runs=1), would prove the whole position; the second worker, idle,
    # has the position expanded in the upper tree and proves its subtrees meanwhile.
    start = bits(QUIET_WIN)
    path = tmp_path / "proof.txt.xz"
    with ThreadPoolExecutor(2) as executor:
        solver = Solver(Checkpoint(path), 5_000, io.StringIO(), start, runs=1)
        solver.split_after = 0.0  # (a minute, in a real run)
        assert solver.solve(executor, 2, None) is True
    assert solver.splits >= 1 and solver.root.children  # the start, expanded while it ran
    assert solver.sent > 1  # units below it were sent to the idle worker
    checkpoint = Checkpoint(path)
    assert checkpoint.settled[CUBE.canonical(*start)] is True
    moves = parse_moves(QUIET_WIN)
    book_path = tmp_path / "strategy.txt"
    report = io.StringIO()  # the proof's moves alone (no setup search: quicker)
    assert write_book(checkpoint, book_path, moves, "python", 5_000, report, setups=0) == 0
    assert walk(moves, strategy.load(book_path)).failures == []


def test_the_closing_line_counts_the_proved_moves_replies(tmp_path):
    # Units too small to prove the start whole: the upper tree expands it, and the closing
    # line counts the replies to X's proved move, every one of them proved.
    out = io.StringIO()
    progress = Progress("solve", out, what="of O's replies proved")
    solver = Solver(Checkpoint(tmp_path / "proof.txt.xz"), 5, io.StringIO(), bits(QUIET_WIN))
    with ThreadPoolExecutor(1) as executor:
        assert solver.solve(executor, 1, None, progress) is True
    closing = re.search(r"solve: (\d+)/(\d+) of O's replies proved in", out.getvalue())
    assert closing and closing[1] == closing[2] and int(closing[2]) > 1, out.getvalue()


@pytest.mark.slow
def test_leaving_the_workers_ends_a_task_still_running() -> None:
    # A unit the solver no longer needs must not hold a worker into the next step.
    from qubic.proof.pool import workers

    began = time.perf_counter()
    with workers(1) as (executor, _):
        future = executor.submit(time.sleep, 60)
        time.sleep(0.5)  # the worker has taken it
        assert future.running()
    assert time.perf_counter() - began < 20
    with workers(1) as (executor, _):  # and the next workers run
        assert executor.submit(abs, -3).result(timeout=20) == 3


@pytest.mark.slow
def test_of_the_quiet_wins_with_two_setups_the_book_plays_the_one_fewest_replies_answer():
    # X 111 114, O 221 331: no win with one setup. The setup search's first quiet win with
    # two leaves more replies of O without a forced win by threats (each a setup of its own,
    # an entry of the book) than the move the book's walk plays.
    pytest.importorskip("numba")
    from qubic.core.symmetry import orbits, stabilizer
    from qubic.proof.fast_prover import FastSetupSearch, FastThreatSearch
    from qubic.search.threats import ThreatSearch, new_threats

    board = Board.from_moves([parse_cell(c) for c in ["111", "221", "114", "331"]])
    x, o = board.bits
    nodes = 2_000_000

    def open_replies(cell: int) -> list[int]:
        mine = x | 1 << cell
        empty = CUBE.full_mask & ~(mine | o)
        return [
            reply
            for reply in orbits(empty, stabilizer(CUBE, mine, o))
            if ThreatSearch(nodes).forced_win(mine, o | 1 << reply, shortest=False) is None
        ]

    assert FastSetupSearch(FastThreatSearch(nodes), quiet_first=True).forced_win(x, o, 1) is None
    first = FastSetupSearch(FastThreatSearch(nodes), quiet_first=True).forced_win(x, o, 2)
    assert first is not None
    move = setup_first(x, o, {}, fast=True, scan=SCAN_NODES)
    assert move is not None
    cell, reason = move
    assert reason == "setup" and cell != first
    assert not new_threats(x | 1 << cell, o, cell)
    answered = open_replies(cell)
    assert len(answered) < len(open_replies(first))
    for reply in answered:  # each of them leaves X a win with one setup
        search = FastSetupSearch(FastThreatSearch(nodes), quiet_first=True)
        assert search.forced_win(x | 1 << cell, o | 1 << reply, 1) is not None


@pytest.mark.slow
def test_a_gap_the_walk_meets_in_another_orientation_is_proved_in_the_canonical_one():
    # A unit the solver proved at width 8 within 4,800,000 nodes, which the same unit runs
    # out on in the orientation a walk met it in (the whole build for Patashnik's rule at
    # d4ce646 left it without a move).
    pytest.importorskip("numba")
    from qubic.proof.book import Gap, prove_again
    from qubic.proof.unit import unit

    x, o = Board.from_moves(parse_moves("111 223 114 333")).bits
    nodes = 4_800_000
    assert unit(x, o, nodes, 8, "fast").result.status != PROVED
    moves = prove_again(Gap(x, o, [8], []), nodes, "fast")
    assert CUBE.canonical(x, o) in {(mx, mo) for mx, mo, _ in moves}
