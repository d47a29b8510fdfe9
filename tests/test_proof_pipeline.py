"""`python -m qubic.proof all|solve|book|verify` as a person runs them: from an empty folder, a
missing one, stopped by a signal or killed outright and run again."""

from __future__ import annotations

import hashlib
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from qubic.core.notation import format_cell
from qubic.proof.checkpoint import CHECKPOINT, Checkpoint
from qubic.search.strategy import SHIPPED, load
from tests.positions import COUNTERED, QUIET_END, QUIET_O_TO_MOVE

# X wins here with two quiet moves; units of 40 nodes cannot prove it alone, so the upper
# tree grows and the book proves some units again.
SMALL = ["--start", *QUIET_END.split()]
SLOWER = ["--prover", "python"]  # the same work, long enough that a kill lands part way


def proof(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "qubic.proof", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def start(*args: str) -> subprocess.Popen[str]:
    """The command in a process group of its own, as a terminal runs it."""
    return subprocess.Popen(
        [sys.executable, "-m", "qubic.proof", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def wait_for(condition: Callable[[], object], seconds: float = 60) -> None:
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.02)


def lines_in(path: Path) -> int:
    return len(path.read_text().splitlines()) if path.exists() else 0


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`all` into a folder that does not exist yet, two levels deep."""
    shipped = digest(SHIPPED), digest(CHECKPOINT)
    folder = tmp_path_factory.mktemp("all") / "not" / "there"
    run = proof("all", "--dir", str(folder), "--unit-nodes", "40", "--workers", "2", *SMALL)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "X WINS: the proof is complete" in run.stdout
    assert "failures: 0" in run.stdout
    assert re.search(r"no move at [1-9]\d*; proved again: [1-9]", run.stdout)  # a unit again
    assert re.search(r"wall time: solve .+, book .+, verify .+", run.stdout)
    assert re.search(r"workers busy \d+% of 2 x", run.stdout)  # each step's closing line
    assert "Traceback" not in run.stderr
    assert (digest(SHIPPED), digest(CHECKPOINT)) == shipped  # the package's files untouched
    return folder


@pytest.mark.slow
def test_all_from_a_missing_folder_proves_writes_and_verifies(built: Path) -> None:
    assert sorted(p.name for p in built.iterdir()) == [
        "book.journal",  # the record of the book written
        "proof.txt.xz",
        "strategy.txt",
    ]
    again = proof("all", "--dir", str(built), "--unit-nodes", "40", *SMALL)
    assert again.returncode == 0, again.stderr
    assert "is up to date" in again.stdout  # the book is not built twice
    assert "failures: 0" in again.stdout


@pytest.mark.slow
def test_the_book_is_the_same_byte_for_byte_when_built_again(built: Path, tmp_path: Path) -> None:
    for name in ("proof.txt.xz",):
        (tmp_path / name).write_bytes((built / name).read_bytes())
    run = proof("book", "--dir", str(tmp_path), "--unit-nodes", "40", "--workers", "1", *SMALL)
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "strategy.txt").read_bytes() == (built / "strategy.txt").read_bytes()


@pytest.mark.slow
def test_a_solve_killed_outright_resumes_from_its_journal(tmp_path: Path) -> None:
    args = ["solve", "--dir", str(tmp_path), "--unit-nodes", "10", "--workers", "1", *SMALL]
    args += SLOWER
    solver = start(*args)
    journal = tmp_path / "proof.journal"
    wait_for(lambda: lines_in(journal) >= 3)
    solver.kill()
    solver.communicate()
    kept = Checkpoint(tmp_path / "proof.txt.xz")  # what the journal holds after the kill
    assert kept.settled or kept.unknown
    run = proof(*args)
    assert run.returncode == 0, run.stderr
    assert f"resuming with {len(kept.settled)} settled positions" in run.stdout
    assert "X WINS" in run.stdout
    again = Checkpoint(tmp_path / "proof.txt.xz")  # nothing answered before the kill was lost
    assert kept.settled.items() <= again.settled.items()
    assert all(key in again.settled or key in again.unknown for key in kept.unknown)


@pytest.mark.slow
def test_a_book_build_killed_outright_resumes_from_its_journal(built: Path, tmp_path: Path) -> None:
    (tmp_path / "proof.txt.xz").write_bytes((built / "proof.txt.xz").read_bytes())
    args = ["book", "--dir", str(tmp_path), "--unit-nodes", "40", "--workers", "1", *SMALL]
    args += SLOWER  # it writes the same book as the compiled prover wrote for `built`
    build = start(*args)
    journal = tmp_path / "book.journal"
    wait_for(lambda: lines_in(journal) >= 3)
    build.kill()
    build.communicate()
    assert not (tmp_path / "strategy.txt").exists()
    run = proof(*args)
    assert run.returncode == 0, run.stderr
    assert re.search(r"\([\d,]+ done before\)", run.stdout), run.stdout
    assert (tmp_path / "strategy.txt").read_bytes() == (built / "strategy.txt").read_bytes()


@pytest.mark.slow
def test_a_verify_killed_outright_resumes_and_counts_the_same(tmp_path: Path) -> None:
    # The shipped book from a deep position, each part cut short: a walk of some seconds.
    args = ["verify", "111", "114", "141", "441", "--limit", "300", "--workers", "1"]
    args += ["--dir", str(tmp_path), "--book", str(SHIPPED)]
    whole = proof(*args)
    assert whole.returncode == 0, whole.stderr
    assert not (tmp_path / "verify.journal").exists()  # a finished walk leaves no journal
    walker = start(*args)
    journal = tmp_path / "verify.journal"
    wait_for(lambda: lines_in(journal) >= 5)
    walker.kill()
    walker.communicate()
    run = proof(*args)
    assert run.returncode == 0, run.stderr
    assert re.search(r"\([\d,]+ done before\)", run.stdout), run.stdout
    counts = re.compile(r"positions walked: ([\d,]+)")
    assert counts.search(run.stdout)[1] == counts.search(whole.stdout)[1]  # type: ignore[index]


@pytest.mark.slow
def test_all_from_o_to_move_walks_each_of_o_s_replies(tmp_path: Path) -> None:
    after = ["--start", *QUIET_O_TO_MOVE.split()]
    run = proof("all", "--dir", str(tmp_path), "--unit-nodes", "40", "--workers", "1", *after)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "failures: 0" in run.stdout
    assert len(load(tmp_path / "strategy.txt")) >= 1  # the quiet moves below O's replies
    walked = proof("verify", *after[1:-2], "--dir", str(tmp_path), "--workers", "1")
    assert walked.returncode == 0 and "failures: 0" in walked.stdout, walked.stdout


@pytest.mark.slow
def test_verify_counts_the_entries_under_either_leaf_rule(tmp_path: Path) -> None:
    # X's only forced win here needs O's blocks to make threes: a leaf under our rule, an
    # entry the strategy must hold under Patashnik's (forced wins by threats alone).
    empty = tmp_path / "empty.txt"
    empty.write_text("", encoding="ascii")
    moves = [format_cell(cell) for cell in COUNTERED]
    needs = re.compile(
        r"entries the strategy needs \((\w+) leaf rule\): ([\d,]+) \(0 of the book's 0"
    )
    counted = {}
    for leaf in ("ours", "patashnik"):
        args = ["--book", str(empty), "--workers", "1", "--dir", str(tmp_path), "--leaf", leaf]
        run = proof("verify", *moves, *args)
        assert run.returncode == 0, run.stderr
        assert "failures: 0" in run.stdout
        found = needs.search(run.stdout)
        assert found is not None and found[1] == leaf, run.stdout
        counted[leaf] = int(found[2].replace(",", ""))
        by_stones = re.search(r"by stones: (.*)", run.stdout)
        assert (by_stones is not None) == (counted[leaf] > 0), run.stdout
        parts = [part.split(": ") for part in by_stones[1].split(", ")] if by_stones else []
        assert sum(int(n.replace(",", "")) for _, n in parts) == counted[leaf]
        assert all(int(stones) >= len(moves) for stones, _ in parts)
    assert counted["ours"] == 0
    assert counted["patashnik"] >= 1
    refused = proof("verify", "--leaf", "allis")
    assert refused.returncode == 2 and "invalid choice" in refused.stderr


@pytest.mark.slow
def test_a_book_built_for_patashniks_rule_holds_every_entry_his_rule_counts(
    tmp_path: Path,
) -> None:
    # X's only forced win here needs O's blocks to make threes: built for our rule the book
    # needs no entry; built for his, it holds the positions his rule makes entries, and its
    # verify under that rule finds no entry missing.
    moves = [format_cell(cell) for cell in COUNTERED]
    books = {}
    for leaf in ("ours", "patashnik"):
        folder = tmp_path / leaf
        run = proof(
            "all", "--start", *moves, "--dir", str(folder), "--workers", "1", "--leaf", leaf
        )
        assert run.returncode == 0 and "failures: 0" in run.stdout, run.stdout + run.stderr
        books[leaf] = load(folder / "strategy.txt")
        count = f"{len(books[leaf]):,}"
        assert f"({leaf} leaf rule): {count} ({count} of the book's {count}, 0 more)" in run.stdout
    assert books["ours"] == {}
    assert len(books["patashnik"]) >= 1


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_a_stop_prints_one_line_and_no_worker_traceback(tmp_path: Path, stop: int) -> None:
    args = ["verify", "111", "114", "--workers", "2", "--dir", str(tmp_path)]
    walker = start(*args, "--book", str(SHIPPED))
    wait_for(lambda: lines_in(tmp_path / "verify.journal") >= 1)
    os.killpg(walker.pid, stop)  # to the workers too, as a Ctrl-C in a terminal
    out, err = walker.communicate(timeout=60)
    assert walker.returncode == 130
    assert out.strip().splitlines()[-1] == "stopped; what is finished is kept: run again to resume"
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err


@pytest.mark.slow
def test_all_stopped_in_its_solve_says_so_once(tmp_path: Path) -> None:
    args = ["all", "--dir", str(tmp_path), "--prover", "python", "--unit-nodes", "2000"]
    run = start(*args, "--start", "111", "222")
    wait_for(lambda: lines_in(tmp_path / "proof.journal") >= 1)
    os.killpg(run.pid, signal.SIGTERM)
    out, err = run.communicate(timeout=60)
    assert run.returncode == 130
    assert [line for line in out.splitlines() if line.startswith("stopped")] == [
        "stopped; everything answered so far is in the checkpoint"
    ]
    assert "Traceback" not in err, err


def test_a_checkpoint_in_a_missing_folder_is_written_there(tmp_path: Path) -> None:
    # It once ended, after the first unit, in FileNotFoundError on the journal.
    path = tmp_path / "a" / "b" / "proof.txt.xz"
    run = proof("solve", "--checkpoint", str(path), "--unit-nodes", "2000", *SMALL)
    assert run.returncode == 0, run.stderr
    assert "X WINS" in run.stdout and path.exists()


@pytest.mark.slow
def test_verify_takes_its_moves_after_start_as_book_and_all_do(tmp_path: Path) -> None:
    line = ["111", "114", "141", "441"]
    common = ["--limit", "200", "--workers", "1", "--dir", str(tmp_path), "--book", str(SHIPPED)]
    plain = proof("verify", *line, *common)
    started = proof("verify", "--start", *line, *common)
    assert plain.returncode == started.returncode == 0, plain.stderr + started.stderr
    counts = re.compile(r"positions walked: ([\d,]+)")
    assert counts.search(started.stdout)[1] == counts.search(plain.stdout)[1]  # type: ignore[index]
    both = proof("verify", "111", "--start", *line, *common)
    assert both.returncode == 2 and "not both" in both.stderr and "Traceback" not in both.stderr
    assert not (tmp_path / "verify.journal").exists()  # nothing walked on the bad command


def test_verify_without_a_book_in_its_folder_says_so_in_one_line(tmp_path: Path) -> None:
    missing = proof("verify", "--dir", str(tmp_path))
    assert missing.returncode == 2 and "Traceback" not in missing.stderr
    assert f"cannot read the strategy book {tmp_path / 'strategy.txt'}" in missing.stderr
    folder = proof("verify", "--book", str(tmp_path))
    assert folder.returncode == 2 and "it is a folder" in folder.stderr
