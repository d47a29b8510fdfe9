"""Variants as data: the registry, the limits, line counts, scoring and the end of the game."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qubic.core.board import Board, IllegalMoveError, Mark
from qubic.core.geometry import geometry
from qubic.core.notation import parse_cell
from qubic.core.variant import (
    CUBE3,
    QUBIC,
    TESSERACT,
    VARIANTS,
    VariantError,
    find_variant,
    parse_spec,
)


@pytest.mark.parametrize(
    "size, dims", [(3, 2), (4, 2), (3, 3), (4, 3), (5, 3), (3, 4), (4, 4), (9, 3), (5, 4)]
)
def test_line_counts_follow_the_formula(size, dims):
    assert len(geometry(size, dims).lines) == ((size + 2) ** dims - size**dims) // 2


def test_the_seeds_counts_49_76_272_and_232_without_the_tesseract_centre():
    assert [len(v.geometry.lines) for v in (CUBE3, QUBIC)] == [49, 76]
    assert len(geometry(3, 4).lines) == 272
    assert len(TESSERACT.geometry.lines) == 232
    assert bin(TESSERACT.geometry.full_mask).count("1") == 80


def test_variants_are_found_by_name_or_alias_in_any_case():
    assert find_variant("CUBE3") is CUBE3 and find_variant("4D") is TESSERACT
    assert find_variant("qubic") is QUBIC and set(VARIANTS) == {"qubic", "cube3", "tesseract"}
    with pytest.raises(VariantError, match="no variant 'go'"):
        find_variant("go")


@pytest.mark.parametrize(
    "variant",
    [
        QUBIC,
        CUBE3,
        TESSERACT,
        TESSERACT.with_options(sides=4),
        TESSERACT.with_options(no_centre=False),
        QUBIC.with_options(size=5, dims=2, target=3, sides=3),
    ],
)
def test_the_spec_reads_back_as_the_same_variant(variant):
    assert parse_spec(variant.spec.split()) == variant


@pytest.mark.parametrize(
    "words, reason",
    [
        ("", "needs a name"),
        ("qubic dims 5", "dims must be 2 to 4"),
        ("tesseract size 6", "size must be 3 to 5 in 4 dimensions"),
        ("qubic sides 1", "sides must be 2 to 4"),
        ("cube3 target 50", "target must be 1 to 49"),
        ("qubic no-centre", "odd size"),
        ("qubic size 4 size 4", "given twice"),
        ("qubic colour red", "unknown setting"),
    ],
)
def test_bad_settings_say_why(words, reason):
    with pytest.raises(VariantError, match=reason):
        parse_spec(words.split())


def test_the_tesseract_centre_is_no_move():
    board = Board(TESSERACT)
    centre = TESSERACT.geometry.cell((1, 1, 1, 1))
    assert not board.is_legal(centre) and centre not in board.legal_moves()
    with pytest.raises(IllegalMoveError):
        board.push(centre)


def test_sides_take_turns_x_o_y_z_from_the_first_mover():
    board = Board(TESSERACT.with_options(sides=4), first=Mark.O)
    marks = []
    for cell in board.legal_moves()[:6]:
        marks.append(board.turn)
        board.push(cell)
    assert marks == [Mark.O, Mark.Y, Mark.Z, Mark.X, Mark.O, Mark.Y]
    with pytest.raises(ValueError):
        Board(CUBE3, first=Mark.Y)


def cube3(*moves: str, variant=CUBE3) -> Board:
    return Board.from_moves([parse_cell(m, variant.geometry) for m in moves], variant)


def test_lines_score_and_play_goes_on_until_the_target():
    # X: 111 112 113 (a row of level 1), then 121 122 123 (another).
    board = cube3("111", "331", "112", "312", "113", variant=CUBE3.with_options(target=2))
    assert board.scores == [1, 0] and not board.is_over() and board.outcome() is None
    for move in ("321", "131", "233", "132", "213", "133"):
        board.push(parse_cell(move, board.geometry))
    outcome = board.outcome()
    assert outcome is not None and outcome.winner is Mark.X and not outcome.full
    assert board.scores == [2, 0] and len(outcome.lines) == 2
    board.pop()
    assert board.scores == [1, 0] and board.winner is None and board.outcome() is None


def test_one_move_can_complete_several_lines_and_pop_takes_them_all_back():
    # X holds 112 132 and 121 123: 122 completes a column and a row of level 1 at once.
    board = cube3("112", "311", "132", "312", "121", "321", "123", "333")
    board.push(parse_cell("122", board.geometry))  # completes the row and the column at once
    assert board.scores == [2, 0] and board.completed[-1] != ()
    board.pop()
    assert board.scores == [0, 0] and board.lines_of(Mark.X) == ()


def full_board(variant, first: Mark = Mark.X, seed: int = 0) -> Board:
    import random

    rng = random.Random(seed)
    board = Board(variant, first)
    while not board.is_over():
        board.push(rng.choice(board.legal_moves()))
    return board


def test_a_full_board_goes_to_the_top_score_and_a_tie_at_the_top_is_a_draw():
    variant = CUBE3.with_options(sides=3, target=49)  # nobody can reach it: the board fills
    outcomes = {}
    for seed in range(60):
        board = full_board(variant, seed=seed)
        outcome = board.outcome()
        assert outcome is not None and outcome.full
        top = max(board.scores)
        leaders = [mark for mark in board.sides if board.scores[mark] == top]
        assert outcome.winner == (leaders[0] if len(leaders) == 1 else None)
        outcomes[outcome.winner is None] = True
    assert outcomes == {True: True, False: True}, "both a win and a draw on a full board"


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(
        [CUBE3, TESSERACT.with_options(sides=3), TESSERACT.with_options(sides=4, target=3)]
    ),
    st.randoms(use_true_random=False),
)
def test_scores_counts_and_bits_agree_with_a_recount_and_pop_undoes_all(variant, rng):
    board = Board(variant)
    lines = variant.geometry.lines
    while not board.is_over():
        board.push(rng.choice(board.legal_moves()))
        for mark in board.sides:
            assert board.counts[mark] == [
                (board.bits[mark] & line.mask).bit_count() for line in lines
            ]
            assert board.scores[mark] == sum(
                board.bits[mark] & line.mask == line.mask for line in lines
            )
    assert board.winner is None or board.scores[board.winner] >= variant.target
    while board.moves:
        board.pop()
    assert board.bits == [0] * variant.sides and board.scores == [0] * variant.sides
    assert all(not any(counts) for counts in board.counts)
