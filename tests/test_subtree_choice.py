"""X's moves chosen by the entries built below them (research/subtree_choice.py)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from qubic.core.board import Board
from qubic.core.notation import format_cell, parse_cell, parse_moves
from qubic.proof.choices import load_choices
from tests.positions import COUNTERED
from tests.scripts import load_script

choice = load_script("research", "subtree_choice")

# X to move; its 222 leaves O no reply after which X lacks a forced win by threats alone.
SETUP = "111 131 114 214 121 411"


@pytest.mark.slow  # some 2 s: the threat searches compiled first
def test_a_move_that_leaves_every_reply_a_win_by_threats_alone_is_estimated_at_nothing() -> None:
    x, o = Board.from_moves(parse_moves(SETUP)).bits
    pure = choice.leaf_search("patashnik")
    assert choice.estimate(x, o, parse_cell("222"), pure) == 0
    assert choice.estimate(x, o, parse_cell("444"), pure) > 0


@pytest.mark.slow  # some 8 s: the threat searches compiled first
def test_a_three_after_whose_block_the_build_finds_no_move_is_not_estimated() -> None:
    x, o = Board.from_moves(parse_moves("222 144 233 234 322 334")).bits  # a book entry
    pure = choice.leaf_search("patashnik")
    assert choice.estimate(x, o, parse_cell("211"), pure) is None  # a three: O blocks at 244
    assert choice.estimate(x, o, parse_cell("111"), pure) is not None


@pytest.mark.slow  # some 15 s: a position's moves estimated, the best built by `all`
def test_the_best_estimated_move_is_built_counted_and_not_built_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    moves = " ".join(format_cell(cell) for cell in COUNTERED)
    choice.main([moves, "--out", str(tmp_path), "--builds", "1"])
    cell, _, entries = (tmp_path / "results.txt").read_text(encoding="utf-8").split()
    log = (tmp_path / f"{cell}.log").read_text(encoding="utf-8")
    below = re.findall(r"\(patashnik leaf rule\): ([\d,]+)", log)
    assert "failures: 0" in log and int(entries) == int(below[-1]) + 1
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == f"{moves} {cell}  # {entries} entries built"
    on_the_way = [" ".join(moves.split()[:end]) for end in (5, 7, 9)]  # X's at 4, 6, 8 stones
    assert out[-4:-1] == [f"{line}  # on the way to the choice below" for line in on_the_way]
    (tmp_path / f"{cell}.log").unlink()
    choice.main([moves, "--out", str(tmp_path), "--builds", "1"])
    assert not (tmp_path / f"{cell}.log").exists()  # resumed from results.txt
    assert capsys.readouterr().out.splitlines()[-1].endswith(f"{cell}  # {entries} entries built")


def test_a_build_is_handed_the_choices_file(tmp_path: Path) -> None:
    bad = tmp_path / "choices.txt"
    bad.write_text("111 111\n", encoding="utf-8")  # X's choice on a taken cell: `all` refuses
    moves = [*COUNTERED, parse_cell("222")]
    assert choice.build(moves, tmp_path / "bad", bad) is None
    assert "bad --choices" in (tmp_path / "bad.log").read_text(encoding="utf-8")


@pytest.mark.slow  # some 3 s: a build started, then stopped
def test_a_build_past_its_minutes_is_stopped_with_its_workers_and_counts_as_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started = []
    popen = subprocess.Popen

    def spy(*args: Any, **kwargs: Any) -> subprocess.Popen[bytes]:
        started.append(popen(*args, **kwargs))
        return started[-1]

    monkeypatch.setattr(choice.subprocess, "Popen", spy)
    moves = parse_moves("111 112 444")  # minutes to build
    assert choice.build(moves, tmp_path / "short", minutes=0.05) is None
    assert "stopped" in (tmp_path / "short.log").read_text(encoding="utf-8")
    sessions = subprocess.run(["ps", "-eo", "sid="], capture_output=True, text=True, check=True)
    assert str(started[0].pid) not in sessions.stdout.split()  # the build's workers too


def test_the_committed_choices_name_one_move_of_x_at_each_position() -> None:
    path = Path(__file__).parent.parent / "research" / "choices-444.txt"
    lines = [
        line for line in path.read_text(encoding="utf-8").splitlines() if line.split("#")[0].strip()
    ]
    assert len(load_choices(path)) == len(lines)  # each legal; no position chosen twice
