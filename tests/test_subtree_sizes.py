"""The entries below each entry of a strategy book (research/subtree_sizes.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from qubic.core.board import Board
from qubic.core.geometry import CUBE
from qubic.core.notation import format_cell, parse_moves
from qubic.search.strategy import load
from tests.scripts import load_script

sizes = load_script("research", "subtree_sizes")

# X to move with no win of one setup, even with X's blocks free: a book of some entries below.
START = parse_moves("111 444 114 112 332 441")


@pytest.mark.slow  # some 30 s: a book built by `all` below START, then walked
def test_the_first_entrys_subtree_is_the_whole_book_and_the_table_adds_up(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    moves = [format_cell(cell) for cell in START]
    command = [sys.executable, "-m", "qubic.proof", "all", "--start", *moves]
    command += ["--dir", str(tmp_path), "--leaf", "patashnik", "--workers", "1"]
    run = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 0 and "failures: 0" in run.stdout, run.stdout + run.stderr
    book = load(tmp_path / "strategy.txt")
    assert len(book) >= 2  # X's move here, and one below it at least
    found, distinct = sizes.sizes(book, len(START), "patashnik")
    assert list(found.values()) == [len(book)] == [distinct]  # all lie below the start
    deeper, below = sizes.sizes(book, len(START) + 2, "patashnik")
    assert deeper and all(1 <= n < len(book) for n in deeper.values())
    assert max(deeper.values()) <= below <= min(sum(deeper.values()), len(book) - 1)
    sizes.main([str(tmp_path / "strategy.txt"), "--stones", str(len(START) + 2)])
    rows = capsys.readouterr().out.splitlines()
    assert rows[-2:] == [
        f"| all | {len(deeper)} | {sum(deeper.values())} |",
        f"each once: {below} entries at and below them",
    ]
    counted = [row.split(" | ")[1:3] for row in rows[2:-2]]
    assert sum(int(entries) for entries, _ in counted) == len(deeper)
    assert sum(int(summed.rstrip(" |")) for _, summed in counted) == sum(deeper.values())
    start = ["--start", " ".join(moves)]
    sizes.main(
        [
            str(tmp_path / "strategy.txt"),
            "--stones",
            str(len(START) + 2),
            "--heavy",
            "1",
            *start,
        ]
    )
    listed = capsys.readouterr().out.splitlines()[len(rows) :]
    lines = [parse_moves(line) for _, line in (row.split(" ", 1) for row in listed)]
    assert all(line[: len(START)] == START for line in lines)  # played from the start
    by_key = {
        CUBE.canonical(*Board.from_moves(line).bits): int(row.split()[0])
        for line, row in zip(lines, listed, strict=True)
    }
    assert by_key == {CUBE.canonical(*key): n for key, n in deeper.items()}
    assert [int(row.split()[0]) for row in listed] == sorted(deeper.values(), reverse=True)
