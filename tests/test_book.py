"""The opening book: its entries are legal, and it answers every rotation and reflection of a
position it holds."""

import re
import signal
import subprocess
import sys
import time
from importlib import resources
from pathlib import Path

import pytest

from qubic.core.board import Board
from qubic.core.geometry import CUBE
from qubic.core.notation import parse_cell
from qubic.core.symmetry import lookup
from qubic.players.levels import make_player
from qubic.players.opening import BOOK_FILE, book_move, entries, parse_lines
from qubic.proof.fast_prover import FastProver
from qubic.proof.opening_build import (
    WIDTH,
    Choice,
    Setups,
    Verdicts,
    book_entries,
    build,
    choose,
    exposed,
    on_book,
    read_games,
    replied,
    same_position,
    setups_needed,
)
from qubic.proof.pool import Journal, workers
from qubic.search.prover import PROVED
from tests.scripted import moves

ANSWERED = list(
    parse_lines(resources.files("qubic.players").joinpath(BOOK_FILE).read_text(encoding="utf-8"))
)


@pytest.fixture(scope="module")
def compiled() -> None:
    """The compiled prover, compiled once in this process: the pools' workers, forked from it,
    start with it instead of compiling it again (seconds each)."""
    FastProver(WIDTH).prove(0, 0, 1)


def after(board: Board, cell: int) -> tuple[int, int]:
    """The canonical key of the position after `cell` is played."""
    board.push(cell)
    try:
        return CUBE.canonical(*board.bits)
    finally:
        board.pop()


def test_the_book_answers_the_start_and_every_kind_of_first_move():
    assert len(ANSWERED) >= 3
    assert book_move(Board()) is not None
    for first in (parse_cell("111"), parse_cell("222"), parse_cell("112"), parse_cell("123")):
        assert book_move(Board.from_moves([first])) is not None


def test_every_entry_is_a_legal_reply():
    for line, reply in ANSWERED:
        board = Board.from_moves(line)
        assert board.is_legal(reply)
        assert after(board, book_move(board)) == after(board, reply)


def test_the_book_answers_each_image_of_a_position_with_the_image_of_its_reply():
    for line, reply in ANSWERED:
        for symmetry in CUBE.symmetries[::11]:
            image = Board.from_moves([symmetry[cell] for cell in line])
            move = book_move(image)
            assert move is not None and image.is_legal(move)
            assert after(image, move) == after(image, symmetry[reply])


def test_positions_outside_the_book_get_no_answer():
    deepest = max(len(line) for line, _ in ANSWERED)
    deep = Board.from_moves(
        moves("111 114 141 441 444 414 222 333 223 332 122 133 211 244 311 344 321 412 413 421 422")
    )
    assert deep.occupied.bit_count() > deepest and not deep.is_over()
    assert book_move(deep) is None
    first = Board.from_moves([parse_cell("111")])
    assert after(first, book_move(first)) != after(first, parse_cell("112"))
    off_book = Board.from_moves(moves("111 112 113"))
    assert book_move(off_book) is None


def test_expert_opens_from_the_book():
    for line, reply in ANSWERED:
        board = Board.from_moves(line)
        move = make_player("expert", seed=5).choose(board.copy()).cell
        assert after(board, move) == after(board, reply)


def test_every_entry_is_reached_by_following_the_book():
    # Each answers a position some game reached with O's moves the book's: in some order of
    # its moves, since the book answers positions, not lines.
    assert max(len(line) for line, _ in ANSWERED) >= 9
    answers = book_entries(Path(str(resources.files("qubic.players").joinpath(BOOK_FILE))))
    after = replied(answers)
    assert all(on_book(line, after) for line, _ in ANSWERED if line)


def kind(moves_text: str) -> tuple[int, int]:
    return CUBE.canonical(*Board.from_moves(moves(moves_text)).bits)


# The classic machine's line against expert in the gauntlet (seeds 1, 3, 4, 9 and 13): after
# O's 333 here it won in 35 plies. The prover shows every kind of reply lost within a few
# thousand expansions but 144 (45,025) and 232 (not in 200,000), and the build answers 232.
CLASSIC_LINE = "111 114 411 441 141"


@pytest.mark.slow
def test_the_build_answers_with_the_reply_whose_loss_is_hardest_to_show(compiled):
    # Counted to none, only X's forced wins by threats are setups' measure: after each reply
    # but 223 (an O three, whose block needs a setup) X has none, and the prover decides.
    position = Choice(moves(CLASSIC_LINE))
    with workers(1) as pool:
        known = Verdicts(pool.executor, Journal(None), setup_nodes=1_000_000, most=0)
        choose([position], known, nodes=60_000, screen=20_000)
    assert after(Board.from_moves(position.moves), position.reply) == kind(f"{CLASSIC_LINE} 232")
    assert position.verdict.startswith(
        "X has no win with 0 setups; not shown lost in 60000 expansions"
    )


# Against the four perfect first players of benchmarks/perfect_x.py, O's search played 444
# here, after which X wins with three setups; they won in 35 to 39 plies. After 232 and 333
# (one kind here) X has no win with five, and the build answers one of them.
PERFECT_X_LINE = "111 114 141 441 121 131 323"


@pytest.mark.slow
def test_setups_needed_counts_xs_fewest_setups_after_a_reply():
    x, o = Board.from_moves(moves(PERFECT_X_LINE)).bits

    def count(reply: str, most: int, nodes: int) -> Setups:
        return setups_needed((x, o | 1 << parse_cell(reply), most, nodes))

    assert count("444", 3, 30_000_000) == Setups(3, True)
    assert count("414", 3, 30_000_000) == Setups(4, False)  # none with three: it needs four
    assert count("232", 3, 1_000) == Setups(1, False)  # the budget ran out at one


# Hard as X in the gauntlet (seeds 500 to 563): after 444 here X has no win with five setups.
HARD_LINE = "223 233 232 322 323 144 411 114 414 141 332"
# Sage as X in the ladder's games, after O's 232 at PERFECT_X_LINE: the same after 113.
SAGE_LINE = "323 223 322 332 321 324 411 144 141 231 414 232 413 412 233 143 114"


@pytest.mark.parametrize(
    ("line", "replies"),
    [(PERFECT_X_LINE, ("232", "333")), (HARD_LINE, ("444",)), (SAGE_LINE, ("113",))],
)
def test_expert_and_perfect_answer_by_the_setups_x_needs_from_the_book(line, replies):
    board = Board.from_moves(moves(line))
    for level in ("expert", "perfect"):
        move = make_player(level, seed=1).choose(board.copy()).cell
        assert move == book_move(board)
        assert after(board, move) in [kind(f"{line} {reply}") for reply in replies]


# Against the perfect first players, after the book's answers to 19 stones: X wins with five
# setups after every reply of O's, so the second player's own search answers.
DEEP_LINE = f"{PERFECT_X_LINE} 232 223 333 434 423 414 444 222 424 411 224 334 442 443"


@pytest.mark.slow
def test_the_build_leaves_a_position_where_x_wins_with_few_setups_to_the_game(compiled):
    position = Choice(moves(DEEP_LINE))
    with workers(1) as pool:
        choose([position], Verdicts(pool.executor, Journal(None)), nodes=20_000, screen=20_000)
    assert position.reply == -1
    assert position.verdict == "X wins with 5 setups"


def test_expert_and_perfect_answer_the_classic_machines_winning_line_from_the_book():
    # Post-mortem: without the entry, expert's search played 333 here and lost in 35 plies.
    board = Board.from_moves(moves(CLASSIC_LINE))
    for level in ("expert", "perfect"):
        move = make_player(level, seed=3).choose(board.copy()).cell
        assert after(board, move) == kind(f"{CLASSIC_LINE} 232")


# Expert as X in the gauntlet (8 of its 10 wins in 20 games): O's 221 here, then 443, and
# X's quiet 131 at ply 11 left O no stop; X won in 33 plies. The build answers 141 (in its
# orientation), a reply the prover cannot show lost against X's best moves.
EXPERT_LINE = "111 114 444 144 441 222 333"


def test_expert_and_perfect_answer_expert_as_x_from_the_book():
    board = Board.from_moves(moves(EXPERT_LINE))
    lost = kind(f"{EXPERT_LINE} 221")
    for level in ("expert", "perfect"):
        move = make_player(level, seed=2).choose(board.copy()).cell
        assert after(board, move) != lost
        assert book_move(board) == move


# Every loss of the gauntlet to hard and to expert as X went through O's 144 here (an old
# entry whose games against hard went 23-0-33). Two plies deep, 6 of X's 60 replies after it
# leave every answer of O's shown lost within 200,000 expansions; after 444, none.
SECOND_MOVE_LINE = "111 114 441"
# With 444 there, the three losses left (hard seed 10, expert as X seeds 17 and 20) went
# through O's 411 here, the search's move; the build answers 331 (423 in its orientation), which
# the prover cannot show lost within 200,000 expansions.
THIRD_MOVE_LINE = "111 114 441 444 144"


@pytest.mark.parametrize(
    ("line", "old", "new"), [(SECOND_MOVE_LINE, "144", "444"), (THIRD_MOVE_LINE, "411", "331")]
)
def test_expert_and_perfect_answer_the_gauntlets_last_losses_from_the_book(line, old, new):
    board = Board.from_moves(moves(line))
    for level in ("expert", "perfect"):
        move = make_player(level, seed=4).choose(board.copy()).cell
        assert move == book_move(board)
        assert after(board, move) == kind(f"{line} {new}") != kind(f"{line} {old}")


def test_the_build_reads_only_the_games_o_lost(tmp_path):
    records = tmp_path / "games.txt"
    records.write_text(
        "expert classic 1 X: 111 114 411\nexpert hard 2 O: 111 114 441\n"
        "perfect random 3 -: 111 114 144\nexpert perfect 4 X: 111 114 141\n",
        encoding="utf-8",
    )
    assert read_games([records]) == [moves("111 114 411"), moves("111 114 141")]


@pytest.mark.slow
def test_the_build_keeps_the_book_answers_what_it_lacks_and_writes_the_same_book_twice(
    tmp_path, compiled
):
    # Built from fresh verdicts, from the verdicts file that build wrote, and with none kept.
    verdicts = tmp_path / "verdicts"
    book = "-> 111\n111 -> 114  # kept\n111 114 441 -> 144  # kept\n"
    lost = moves("111 114 441 144 444 222 322 333")  # O's 144 follows the book, 222 is new
    strayed = moves("111 114 441 141 444 222 322 333")  # O's 141 is not the book's
    books, sizes = [], []
    for name, keep in (("one", True), ("two", True), ("three", False)):
        out = tmp_path / name
        out.write_text(book, encoding="utf-8")
        journal = Journal(verdicts) if keep else None  # read now: "two" reads what "one" wrote
        new = build(
            out, [lost, strayed], 7, 200, 1, 100, shallow=5, journal=journal, setup_nodes=100_000
        )
        if journal is not None:
            journal.close()
        books.append(out.read_bytes())
        sizes.append(verdicts.stat().st_size)
    assert books[0] == books[1] == books[2]
    assert sizes[0] == sizes[1] > 0  # the second build proved nothing again
    assert [len(choice.moves) for choice in new][:1] == [5]
    assert all(same_position(choice.moves, lost[: len(choice.moves)]) for choice in new)
    text = books[0].decode()
    assert "111 -> 114  # kept" in text.splitlines()
    found = list(parse_lines(text))
    assert [same_position(line, lost[:3]) for line, _ in found].count(True) == 1
    assert not any(same_position(line, strayed[:5]) for line, _ in found if len(line) == 5)
    for line, reply in found:
        assert Board.from_moves(line).is_legal(reply)


def test_the_build_drops_entries_that_no_order_of_their_moves_reaches(tmp_path):
    out = tmp_path / "book.txt"
    out.write_text(
        "-> 111\n111 -> 114\n111 114 441 -> 444\n"
        "111 144 441 -> 222\n"  # dead: after either corner of X's, O's 144 is not the book's
        "111 114 441 144 222 -> 333\n",  # its line strays at 441, but 111 114 222 144 441 not
        encoding="utf-8",
    )
    build(out, [], 7, 200, 1, screen=100)
    kept = [line for line, _ in parse_lines(out.read_text(encoding="utf-8"))]
    assert len(kept) == 4
    assert any(same_position(line, moves("111 114 441 144 222")) for line in kept)
    assert not any(same_position(line, moves("111 144 441")) for line in kept)


@pytest.mark.slow
def test_a_stopped_build_says_one_line_and_resumes_from_its_verdicts(tmp_path):
    book, games, verdicts = tmp_path / "book.txt", tmp_path / "games.txt", tmp_path / "verdicts"
    book.write_text("-> 111\n111 -> 114\n111 114 411 -> 441\n", encoding="utf-8")
    games.write_text(f"expert classic 1 X: {CLASSIC_LINE} 333 444 131\n", encoding="utf-8")
    command = [
        sys.executable,
        *("-m", "qubic.proof", "opening", "--workers", "1", "--nodes", "60000"),
        *("--setup-nodes", "100000"),
        *("--out", str(book), "--games", str(games), "--verdicts", str(verdicts)),
    ]
    build = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 120
    while not (verdicts.exists() and verdicts.read_text(encoding="utf-8").count("\n") >= 3):
        assert build.poll() is None and time.monotonic() < deadline
        time.sleep(0.2)
    build.send_signal(signal.SIGINT)
    output, _ = build.communicate(timeout=60)
    assert build.returncode == 130
    *progress, said = output.strip().splitlines()  # the stones answered so far, then the stop
    assert said == f"stopped; the verdicts so far are kept in {verdicts}: run again to resume"
    assert all(
        re.fullmatch(r"\d+ stones: \d+ positions answered, \d+ left to the game's search \(.*\)", p)
        for p in progress
    )
    kept = verdicts.read_text(encoding="utf-8").count("\n")
    assert book.read_text(encoding="utf-8").count("->") == 3  # the book is not written half
    again = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert verdicts.read_text(encoding="utf-8").count("\n") > kept
    board = Board.from_moves(moves(CLASSIC_LINE))
    found = entries(book.read_text(encoding="utf-8"))
    assert same_position(
        [*moves(CLASSIC_LINE), found_move(found, board)], moves(CLASSIC_LINE + " 232")
    )


def found_move(found: dict[tuple[int, int], int], board: Board) -> int:
    """The move a book's entries give at `board`."""
    cell = lookup(found, *board.pair())
    assert cell is not None
    return cell


@pytest.mark.parametrize(
    ("book_text", "games_text", "said"),
    [
        ("-> 111\n111 114 - 441\n", "", "book.txt, line 2: "),
        ("-> 111\n111 -> 114\n", "expert hard 1 X: 111 11x\n", "games.txt, line 1: '11x' is not"),
    ],
)
def test_a_line_that_does_not_read_stops_the_build_with_one_line(
    tmp_path, book_text, games_text, said
):
    book, games = tmp_path / "book.txt", tmp_path / "games.txt"
    book.write_text(book_text, encoding="utf-8")
    games.write_text(games_text, encoding="utf-8")
    run = subprocess.run(
        [
            sys.executable,
            *("-m", "qubic.proof", "opening", "--out", str(book), "--games", str(games)),
            *("--verdicts", str(tmp_path / "verdicts")),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2
    assert "Traceback" not in run.stderr
    assert said in run.stderr.splitlines()[-1]
    assert book.read_text(encoding="utf-8") == book_text  # nothing written


TWO_PLY_NODES = 2_000  # expansions for each answer in the two-ply test


@pytest.mark.slow
def test_two_plies_count_the_x_replies_after_which_every_answer_is_shown_lost(compiled):
    # Checked against every cell of X's and O's, one by one, without the kinds and rounds:
    # for the first reply only, each check taking seconds.
    board = Board.from_moves(moves(CLASSIC_LINE))
    replies = [parse_cell("232"), parse_cell("333")]
    with workers(1) as pool:
        found = exposed(board, replies, Verdicts(pool.executor, Journal(None)), TWO_PLY_NODES)
    prover = FastProver(WIDTH)
    for reply in replies[:1]:
        board.push(reply)
        lost = 0
        for cell in board.legal_moves():
            board.push(cell)
            x, o = board.bits
            lost += all(
                proved(prover, x, o | 1 << answer, TWO_PLY_NODES) for answer in board.legal_moves()
            )
            board.pop()
        assert found[reply] == (lost, len(board.legal_moves()))
        board.pop()
    assert found[parse_cell("232")][0] < found[parse_cell("333")][0]


def proved(prover: FastProver, x: int, o: int, nodes: int) -> bool:
    prover.clear()
    return prover.prove(x, o, nodes).status == PROVED
