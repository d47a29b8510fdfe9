import pytest
from hypothesis import given
from hypothesis import strategies as st

from qubic.core.board import PASS, Board, IllegalMoveError, Mark, iter_bits
from qubic.core.geometry import CUBE
from qubic.core.notation import parse_cell
from qubic.players.normal import NormalPlayer
from tests.scripted import find_game


def cells(*moves: str) -> list[int]:
    return [parse_cell(m) for m in moves]


def test_a_new_board_is_empty_and_x_moves_first():
    board = Board()
    assert board.turn is Mark.X
    assert board.legal_moves() == list(range(64))
    assert board.winner is None and not board.is_over()


def test_the_first_mover_can_be_o():
    board = Board(first=Mark.O)
    board.push(0)
    assert board.mark_at(0) is Mark.O
    assert board.turn is Mark.X


def test_pair_puts_the_side_to_move_first():
    board = Board.from_moves(cells("111", "444", "112"))
    x, o = 1 << parse_cell("111") | 1 << parse_cell("112"), 1 << parse_cell("444")
    assert board.pair() == (o, x)
    assert board.pair(Mark.X) == (x, o)
    board.push(parse_cell("113"))
    assert board.pair() == (x, o | 1 << parse_cell("113"))


def test_push_and_pop_restore_everything():
    board = Board()
    before = (list(board.bits), [list(c) for c in board.counts])
    board.push(5)
    board.push(42)
    assert board.mark_at(5) is Mark.X and board.mark_at(42) is Mark.O
    assert board.pop() == 42
    assert board.pop() == 5
    assert (list(board.bits), [list(c) for c in board.counts]) == before
    assert board.turn is Mark.X


def test_used_and_unknown_cells_are_illegal():
    board = Board()
    board.push(7)
    for cell in (7, -1, 64):
        with pytest.raises(IllegalMoveError):
            board.push(cell)
    assert board.moves == [7]


def test_four_in_a_line_wins_and_names_the_line():
    # X plays the space diagonal 111 222 333 444; O plays elsewhere.
    board = Board.from_moves(cells("111", "112", "222", "113", "333", "114", "444"))
    assert board.winner is Mark.X
    outcome = board.outcome()
    assert outcome is not None and outcome.winner is Mark.X and not outcome.full
    assert set(CUBE.lines[outcome.lines[0]].cells) == set(cells("111", "222", "333", "444"))
    assert board.is_over() and board.scores == [1, 0]
    assert board.legal_moves() == []
    with pytest.raises(IllegalMoveError):
        board.push(parse_cell("121"))
    board.pop()
    assert board.winner is None and board.outcome() is None and board.scores == [0, 0]


def test_o_can_win_too():
    board = Board.from_moves(cells("111", "211", "112", "212", "121", "213", "131", "214"))
    assert board.winner is Mark.O
    assert board.lines_of(Mark.O) == (
        CUBE.lines.index(
            next(
                line
                for line in CUBE.lines
                if line.cells == tuple(cells("211", "212", "213", "214"))
            )
        ),
    )


def test_winning_cells_finds_open_threes_only():
    board = Board.from_moves(cells("111", "444", "112", "443", "113"))
    assert board.winning_cells(Mark.X) == [parse_cell("114")]
    assert board.winning_cells(Mark.O) == []
    board.push(parse_cell("114"))  # O blocks
    assert board.winning_cells(Mark.X) == []


def test_completed_by_counts_the_lines_a_cell_completes_and_leaves_the_board():
    # X holds 112-113-114 and 121-131-141: 111 completes both lines, 122 neither.
    x = cells("112", "113", "114", "121", "131", "141")
    o = cells("444", "443", "442", "434", "424", "333")
    board = Board.from_moves([m for pair in zip(x, o) for m in pair])
    before = (list(board.moves), list(board.bits), board.scores[:])
    assert board.completed_by(parse_cell("111")) == 2
    assert board.completed_by(parse_cell("122")) == 0
    assert (board.moves, board.bits, board.scores) == before


def test_a_full_board_without_a_line_is_a_draw():
    game = find_game(None, NormalPlayer(1))
    board = Board.from_moves(game.moves)
    assert board.is_over() and board.winner is None
    assert board.outcome() is not None and board.outcome().winner is None


def test_a_pass_hands_the_turn_over_and_pops_cleanly():
    board = Board()
    board.push(5)
    board.push_pass()
    assert board.turn is Mark.X and board.moves == [5, PASS]
    board.push(6)
    assert board.mark_at(6) is Mark.X and board.last_cell == 6
    board.push_pass()
    assert board.last_cell == 6 and board.turn is Mark.X
    assert board.pop() == PASS and board.turn is Mark.O
    assert board.pop() == 6 and board.mark_at(6) is None
    assert board.pop() == PASS and board.turn is Mark.O
    assert Board.from_moves([5, PASS, 6]).bits == [1 << 5 | 1 << 6, 0]


def test_no_pass_once_the_game_is_over():
    board = Board.from_moves(cells("111", "112", "222", "113", "333", "114", "444"))
    with pytest.raises(IllegalMoveError):
        board.push_pass()
    assert Board().last_cell is None


@given(
    st.permutations(range(64)),
    st.sampled_from([Mark.X, Mark.O]),
    st.lists(st.booleans(), max_size=80),
)
def test_counts_bits_and_winner_agree_with_a_recount(order, first, passes):
    """Random games, with a pass before a move wherever `passes` says so."""
    board = Board(first=first)
    passes_left = iter(passes)
    for cell in order:
        if board.is_over():
            break
        if next(passes_left, False):
            board.push_pass()
        board.push(cell)
        for mark in board.sides:
            assert board.bits[mark] == sum(
                1 << c
                for i, c in enumerate(board.moves)
                if c != PASS and (i % 2 == 0) == (mark is first)
            )
            assert board.counts[mark] == [
                (board.bits[mark] & mask).bit_count() for mask in CUBE.line_masks
            ]
        complete = [
            line
            for line in CUBE.lines
            if any(board.bits[m] & line.mask == line.mask for m in board.sides)
        ]
        assert (board.winner is not None) == bool(complete)
    while board.moves:
        board.pop()
    assert board.bits == [0, 0] and board.counts == ([0] * 76, [0] * 76)


def test_iter_bits_lists_set_bits_lowest_first():
    assert list(iter_bits(0b1010_0001)) == [0, 5, 7]
    assert list(iter_bits(0)) == []
