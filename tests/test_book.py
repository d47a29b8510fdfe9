"""The opening book: its entries are legal, and it answers every rotation and reflection of a
position it holds."""

import multiprocessing
from importlib import resources

from qubic.core.board import Board, Mark
from qubic.core.geometry import CUBE
from qubic.core.notation import parse_cell
from qubic.players.levels import make_player
from qubic.players.opening import BOOK_FILE, LOST, book_move, entries, parse_lines
from qubic.proof.opening_build import best_reply, deciding, likely_replies, not_shown_lost
from qubic.search.prover import shown_lost
from tests.scripted import moves

ENTRIES = list(
    parse_lines(resources.files("qubic.players").joinpath(BOOK_FILE).read_text(encoding="utf-8"))
)
ANSWERED = [(line, reply) for line, reply in ENTRIES if reply is not None]


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
    deep = Board.from_moves(moves("111 444 114 441 141"))
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


def o_wins_after_a_centre(moves: list[int], seed: int) -> Mark | None:
    """A stand-in game for the build: O wins when its last move is a centre cell, else X."""
    return Mark.O if moves[-1] in CENTRES else Mark.X


CENTRES = {parse_cell(c) for c in ("222", "223", "232", "233", "322", "323", "332", "333")}


def test_the_build_keeps_the_reply_whose_games_go_best():
    with multiprocessing.Pool(1) as pool:
        reply, (wins, draws, losses) = best_reply(
            moves("111 114 141"), pool, o_wins_after_a_centre, (1, 2)
        )
    assert reply in CENTRES
    assert (wins, draws, losses) == (3, 0, 0)


def test_each_deepest_line_follows_the_book():
    deepest = max(len(line) for line, _ in ANSWERED)
    assert deepest >= 9
    for line, _ in ANSWERED:
        if len(line) == deepest:
            for ply in range(1, len(line), 2):
                board = Board.from_moves(line[:ply])
                assert after(board, book_move(board)) == after(board, line[ply])


def test_the_book_leaves_a_position_it_marks_lost_to_the_game():
    for line, reply in ENTRIES:
        if reply is None:
            assert book_move(Board.from_moves(line)) is None


def x_wins(moves: list[int], seed: int) -> Mark | None:
    """A stand-in game: X wins whatever was played."""
    return Mark.X


def test_a_position_where_every_reply_lost_is_written_lost_and_answered_by_none(tmp_path):
    path = tmp_path / "book.txt"
    lines = ["# a book", "111 -> 114"]
    with multiprocessing.Pool(1) as pool:
        decide = deciding(path, lines, pool, x_wins, (1,))
        assert decide(moves("111 114 144")) is None
    text = path.read_text(encoding="utf-8")
    assert text.splitlines()[:2] == ["# a book", "111 -> 114"]
    assert text.splitlines()[2].startswith(f"111 114 144 -> {LOST}  # 0 0 ")
    found = entries(text)
    assert len(found) == 2 and list(found.values()).count(None) == 1


# Level perfect's prover shows this reply lost within its budget, though its games went well.
REJECTED_LINE, REJECTED = "111 114 441 144 444 222 322", "223"


def o_wins_after_the_rejected_reply(line: list[int], seed: int) -> Mark | None:
    """A stand-in game: O wins after the rejected reply (or an image of it), else X."""
    board = Board.from_moves(moves(REJECTED_LINE))
    return (
        Mark.O
        if CUBE.canonical(*Board.from_moves(line).bits) == after(board, parse_cell(REJECTED))
        else Mark.X
    )


def test_deepen_never_chooses_a_reply_that_perfect_would_reject(tmp_path):
    board = Board.from_moves(moves(REJECTED_LINE))
    assert shown_lost(board.bits[board.first], board.bits[board.turn] | 1 << parse_cell(REJECTED))
    with multiprocessing.Pool(1) as pool:
        assert best_reply(moves(REJECTED_LINE), pool, o_wins_after_the_rejected_reply, (1,))[1] == [
            1,
            0,
            0,
        ]  # every kind: the rejected reply wins
        decide = deciding(
            tmp_path / "book.txt", [], pool, o_wins_after_the_rejected_reply, (1,), not_shown_lost
        )
        assert decide(moves(REJECTED_LINE)) is None  # what is left lost its games
    assert f"{REJECTED_LINE} -> {LOST}" in (tmp_path / "book.txt").read_text(encoding="utf-8")


def test_the_build_finds_the_likely_replies_it_answers():
    # The build path once crashed here on a name hard no longer has.
    line = moves("111 114")
    replies = likely_replies(line)
    board = Board.from_moves(line)
    assert replies and set(replies) <= set(board.legal_moves())
    canonical = {CUBE.canonical(*Board.from_moves([*line, cell]).bits) for cell in replies}
    assert len(canonical) == len(replies)  # one of each kind
    key_kinds = {
        CUBE.canonical(*Board.from_moves([*line, c]).bits)
        for c in CUBE.key_cells
        if c in board.legal_moves()
    }
    assert key_kinds <= canonical
