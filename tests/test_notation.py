import pytest

from qubic.geometry import CUBE, Geometry
from qubic.notation import NotationError, format_cell, looks_like_move, parse_cell


@pytest.mark.parametrize("text, coords", [
    ("234", (1, 2, 3)),
    ("2,3,4", (1, 2, 3)),
    (" 2 , 3 , 4 ", (1, 2, 3)),
    ("2, 3,4", (1, 2, 3)),
    ("2 3 4", (1, 2, 3)),
    ("111", (0, 0, 0)),
    ("444", (3, 3, 3)),
    ("  412\t", (3, 0, 1)),
])
def test_good_moves(text, coords):
    assert parse_cell(text) == CUBE.cell(coords)


@pytest.mark.parametrize("text, reason", [
    ("24", "three coordinates"),
    ("2,4", "three coordinates"),
    ("2345", "three coordinates"),
    ("23,4", "three coordinates"),
    ("1,2,3,4", "three coordinates"),
    ("2,,3", "three coordinates"),
    ("534", "5 is off the cube"),
    ("204", "0 is off the cube"),
    ("2,3,9", "9 is off the cube"),
    ("", "is not a move"),
    ("abc", "is not a move"),
    ("2a4", "is not a move"),
    ("-234", "is not a move"),
    ("2.3.4", "is not a move"),
])
def test_bad_moves_say_why(text, reason):
    with pytest.raises(NotationError, match=reason):
        parse_cell(text)


def test_format_is_level_column_row():
    assert format_cell(CUBE.cell((1, 2, 3))) == "234"
    assert all(parse_cell(format_cell(cell)) == cell for cell in CUBE.cells)


def test_looks_like_move_means_only_digits_commas_and_spaces():
    assert looks_like_move("2, 3 4")
    assert not looks_like_move("show")
    assert not looks_like_move("   ")


def test_other_geometries_use_their_own_digit_count():
    plane = Geometry(3, 2)
    assert parse_cell("23", plane) == plane.cell((1, 2))
    with pytest.raises(NotationError, match="two coordinates"):
        parse_cell("231", plane)
