"""X's chosen moves: the choices file, and the solver proving them instead of its own."""

import io
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from qubic.core.board import Board, iter_bits
from qubic.core.geometry import CUBE
from qubic.core.notation import parse_cell, parse_moves
from qubic.core.symmetry import lookup
from qubic.proof.book import SCAN_NODES, setup_first, write_book
from qubic.proof.checkpoint import Checkpoint
from qubic.proof.choices import CHOICES, ChoicesError, load_choices, parse_choices
from qubic.proof.solve import Solver
from qubic.proof.walk import walk
from qubic.search import strategy
from tests.positions import QUIET_WIN

# X to move with many winning quiet moves, each proved by one small unit.
START = f"{QUIET_WIN} 123 121"
CHOSEN = "444"


def moves(text: str) -> list[int]:
    return parse_moves(text)


def test_a_choice_is_keyed_by_the_class_of_its_position() -> None:
    choices = parse_choices("# a comment\n\n111 224 441  # O's 224: 441\n")
    # The same position turned by a symmetry of the cube names the same choice.
    x, o = Board.from_moves(moves("111 224")).bits[:2]
    symmetry = CUBE.symmetries[5]
    turned = (CUBE.images(x)[5], CUBE.images(o)[5])
    assert lookup(choices, x, o) == parse_cell("441")
    assert lookup(choices, *turned) == symmetry[parse_cell("441")]


@pytest.mark.parametrize(
    "text, says",
    [
        ("111 224 451", "line 1"),  # off the cube
        ("111 224 111", "not a move of X"),  # taken
        ("111 224 441 442", "not a move of X"),  # O's move
        ("111 111 224", "line 1"),  # an illegal line
    ],
)
def test_a_choice_that_is_no_move_of_x_is_refused_with_its_line(text: str, says: str) -> None:
    with pytest.raises(ChoicesError, match=says):
        parse_choices(text)


def test_the_package_choices_are_what_the_shipped_book_plays() -> None:
    # The package's checkpoint and book come from one `all`, which proves the package's
    # choices: each is the shipped book's move there.
    book = strategy.shipped()
    for key, cell in load_choices(CHOICES).items():
        assert book[key] == cell


def proved_without_choices(tmp_path) -> Checkpoint:
    """The start proved by one unit, with a move of its own."""
    x, o = Board.from_moves(moves(START)).bits[:2]
    path = tmp_path / "proof.txt.xz"
    with ThreadPoolExecutor(1) as executor:
        assert Solver(Checkpoint(path), 5_000, io.StringIO(), (x, o)).solve(executor, 1, None)
    return Checkpoint(path)


def test_the_solver_proves_the_chosen_move_and_the_book_plays_it(tmp_path) -> None:
    line = moves(START)
    x, o = Board.from_moves(line).bits[:2]
    canon, symmetry = CUBE.orient(x, o)
    own = proved_without_choices(tmp_path)
    assert canon not in own.book
    book_path = tmp_path / "own.txt"
    assert write_book(own, book_path, line, "python", 5_000, io.StringIO(), setups=0) == 0
    assert strategy.load(book_path)[canon] != symmetry[parse_cell(CHOSEN)]
    # With one, the start is expanded with the chosen move alone, proved, and played.
    choices = parse_choices(f"{START} {CHOSEN}")
    path = tmp_path / "chosen.txt.xz"
    with ThreadPoolExecutor(1) as executor:
        solver = Solver(Checkpoint(path), 5_000, io.StringIO(), (x, o), choices=choices)
        assert solver.solve(executor, 1, None)
    assert [child.cell for child in solver.root.children or []] == [parse_cell(CHOSEN)]
    checkpoint = Checkpoint(path)
    assert checkpoint.book[canon] == symmetry[parse_cell(CHOSEN)]
    book_path = tmp_path / "chosen.txt"
    assert write_book(checkpoint, book_path, line, "python", 5_000, io.StringIO(), setups=0) == 0
    book = strategy.load(book_path)
    assert book[canon] == symmetry[parse_cell(CHOSEN)]
    assert walk(line, book).failures == []


def test_from_a_checkpoint_without_the_choice_the_book_plays_it_and_proves_below(
    tmp_path,
) -> None:
    line = moves(START)
    canon, symmetry = CUBE.orient(*Board.from_moves(line).bits[:2])
    own = proved_without_choices(tmp_path)
    assert own.book.get(canon) != symmetry[parse_cell(CHOSEN)]
    path = tmp_path / "chosen.txt"
    chosen = parse_choices(f"{START} {CHOSEN}")
    assert write_book(own, path, line, "python", 5_000, io.StringIO(), setups=0, chosen=chosen) == 0
    book = strategy.load(path)
    assert book[canon] == symmetry[parse_cell(CHOSEN)]
    assert walk(line, book).failures == []


def test_a_bad_choices_file_is_a_one_line_usage_error(tmp_path) -> None:
    bad = tmp_path / "choices.txt"
    bad.write_text("111 224 111\n")
    options = ["--choices", str(bad), "--dir", str(tmp_path / "d"), "--prover", "python"]
    for command in ("solve", "book", "all"):
        done = subprocess.run(
            [sys.executable, "-m", "qubic.proof", command, *options],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 2
        assert "bad --choices" in done.stderr and "line 1" in done.stderr
        assert "Traceback" not in done.stderr
    assert not (tmp_path / "d" / "proof.txt.xz").exists()  # nothing was searched


def test_a_choice_below_a_reply_of_o_is_proved_in_the_upper_tree(tmp_path) -> None:
    # X's choice after its chosen move and a reply of O: the position before O's reply is
    # expanded in the upper tree (a unit there would prove a move of its own), so the
    # checkpoint records the choice.
    first, second = f"{START} 424", f"{START} 424 222 434"
    x, o = Board.from_moves(moves(START)).bits[:2]
    choices = parse_choices(f"{first}\n{second}\n")
    path = tmp_path / "proof.txt.xz"
    with ThreadPoolExecutor(1) as executor:
        assert Solver(Checkpoint(path), 5_000, io.StringIO(), (x, o), choices=choices).solve(
            executor, 1, None
        )
    canon, symmetry = CUBE.orient(*Board.from_moves(moves(second)[:-1]).bits[:2])
    assert Checkpoint(path).book[canon] == symmetry[parse_cell("434")]


def test_at_a_chosen_position_the_books_walk_plays_the_choice_before_a_setup_win() -> None:
    # X 111 114, O 221 331: X has a win with two setups, which the walk plays before the
    # proof's move, unless the position is a choice (the proof's move there is the choice).
    pytest.importorskip("numba")
    x, o = Board.from_moves(moves("111 221 114 331")).bits[:2]
    setup = setup_first(x, o, {}, fast=True, scan=SCAN_NODES)
    assert setup is not None and setup.reason == "setup"
    key, symmetry = CUBE.orient(x, o)
    chosen = next(cell for cell in iter_bits(CUBE.full_mask & ~(x | o)) if cell != setup.cell)
    book = {key: symmetry[chosen]}
    assert setup_first(x, o, book, fast=True, scan=SCAN_NODES) == setup
    assert setup_first(x, o, book, fast=True, scan=SCAN_NODES, chosen=(key,)) == (chosen, "book")
