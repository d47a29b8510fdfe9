"""The opening book: its entries are legal, and it answers every rotation and reflection of a
position it holds."""

import multiprocessing
from importlib import resources

from qubic.board import Board, Mark
from qubic.book import BOOK_FILE, DEEPEN_PLIES, best_reply, book_move, lines_but, parse
from qubic.geometry import CUBE
from qubic.levels import make_player
from qubic.notation import parse_cell
from tests.scripted import moves

ENTRIES = list(parse(resources.files("qubic").joinpath(BOOK_FILE).read_text(encoding="utf-8")))


def after(board: Board, cell: int) -> tuple[int, int]:
    """The canonical key of the position after `cell` is played."""
    board.push(cell)
    try:
        return CUBE.canonical(*board.bits)
    finally:
        board.pop()


def test_the_book_answers_the_start_and_every_kind_of_first_move():
    assert len(ENTRIES) >= 3
    assert book_move(Board()) is not None
    for first in (parse_cell("111"), parse_cell("222"), parse_cell("112"), parse_cell("123")):
        assert book_move(Board.from_moves([first])) is not None


def test_every_entry_is_a_legal_reply():
    for line, reply in ENTRIES:
        board = Board.from_moves(line)
        assert board.is_legal(reply)
        assert after(board, book_move(board)) == after(board, reply)


def test_the_book_answers_each_image_of_a_position_with_the_image_of_its_reply():
    for line, reply in ENTRIES:
        for symmetry in CUBE.symmetries[::11]:
            image = Board.from_moves([symmetry[cell] for cell in line])
            move = book_move(image)
            assert move is not None and image.is_legal(move)
            assert after(image, move) == after(image, symmetry[reply])


def test_positions_outside_the_book_get_no_answer():
    deep = Board.from_moves(moves("111 444 114 441 141"))
    assert book_move(deep) is None
    first = Board.from_moves([parse_cell("111")])
    assert after(first, book_move(first)) != after(first, parse_cell("112"))
    off_book = Board.from_moves(moves("111 112 113"))
    assert book_move(off_book) is None


def test_expert_opens_from_the_book():
    for line, reply in ENTRIES:
        board = Board.from_moves(line)
        move = make_player("expert", seed=5).choose(board.copy()).cell
        assert after(board, move) == after(board, reply)


def o_wins_after_a_centre(moves: list[int], seed: int) -> Mark | None:
    """A stand-in game for the build: O wins when its last move is a centre cell, else X."""
    return Mark.O if moves[-1] in CENTRES else Mark.X


CENTRES = {parse_cell(c) for c in ("222", "223", "232", "233", "322", "323", "332", "333")}


def test_the_build_keeps_the_reply_whose_games_go_best():
    with multiprocessing.Pool(1) as pool:
        reply, (wins, draws, losses) = best_reply(moves("111 114 141"), pool,
                                                  o_wins_after_a_centre, (1, 2))
    assert reply in CENTRES
    assert (wins, draws, losses) == (3, 0, 0)


def test_each_deepened_line_follows_the_book():
    deep = [line for line, _ in ENTRIES if len(line) == max(DEEPEN_PLIES)]
    assert deep
    for line in deep:
        for ply in range(1, len(line), 2):
            board = Board.from_moves(line[:ply])
            assert after(board, book_move(board)) == after(board, line[ply])


def test_deepening_keeps_the_comments_and_the_entries_of_other_plies():
    text = "# the moves -> reply  # a b c\n-> 111  # 1 2 3\n111 -> 114\n111 114 141 -> 441  # x\n"
    assert lines_but(text, (3,)) == ["# the moves -> reply  # a b c", "-> 111  # 1 2 3",
                                     "111 -> 114"]
    assert lines_but(text, (1, 5)) == ["# the moves -> reply  # a b c", "-> 111  # 1 2 3",
                                       "111 114 141 -> 441  # x"]
