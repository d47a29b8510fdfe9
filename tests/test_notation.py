import pytest

from qubic.core.geometry import CUBE, Geometry, geometry
from qubic.core.notation import (
    NotationError,
    example_move,
    format_cell,
    looks_like_move,
    numbered,
    parse_cell,
    parse_moves,
)


@pytest.mark.parametrize(
    "text, coords",
    [
        ("234", (1, 2, 3)),
        ("2,3,4", (1, 2, 3)),
        (" 2 , 3 , 4 ", (1, 2, 3)),
        ("2, 3,4", (1, 2, 3)),
        ("2 3 4", (1, 2, 3)),
        ("111", (0, 0, 0)),
        ("444", (3, 3, 3)),
        ("  412\t", (3, 0, 1)),
    ],
)
def test_good_moves(text, coords):
    assert parse_cell(text) == CUBE.cell(coords)


@pytest.mark.parametrize(
    "text, reason",
    [
        ("2345", "three coordinates"),
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
    ],
)
def test_bad_moves_say_why(text, reason):
    with pytest.raises(NotationError, match=reason):
        parse_cell(text)


@pytest.mark.parametrize("text", ["24", "1", "64", "1 2", "1,2", "12 3", "1 23"])
def test_on_the_4x4x4_cube_a_dropped_digit_is_never_a_square_number(text):
    with pytest.raises(NotationError, match="moves need three coordinates"):
        parse_cell(text, CUBE, numbers=numbered(CUBE))


def test_only_the_4x4x4_cube_goes_without_square_numbers():
    assert not numbered(CUBE)
    assert numbered(geometry(3, 3)) and numbered(geometry(3, 4)) and numbered(geometry(5, 3))


def test_digits_apart_are_coordinates_never_one_number():
    cube3 = geometry(3, 3)
    assert parse_cell("12", cube3) == parse_cell("231", cube3)  # square 12
    with pytest.raises(NotationError, match="three coordinates"):
        parse_cell("1 2", cube3)


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


def test_cells_are_numbered_in_printing_order():
    cube3 = geometry(3, 3)
    # The seed's 1-27: level by level, each row by row from the left.
    assert parse_cell("1", cube3) == parse_cell("111", cube3)
    assert parse_cell("2", cube3) == parse_cell("121", cube3)
    assert parse_cell("4", cube3) == parse_cell("112", cube3)
    assert parse_cell("27", cube3) == parse_cell("333", cube3)
    tesseract = geometry(3, 4, no_centre=True)
    # The essay's grid of grids, read row by row: g1111 g1211 g1311 g2111 ... g3333.
    assert [format_cell(parse_cell(str(n), tesseract), tesseract) for n in (1, 2, 4, 10, 81)] == [
        "1111",
        "1211",
        "2111",
        "1112",
        "3333",
    ]
    assert sorted(tesseract.numbers) == list(range(1, 82))


@pytest.mark.parametrize(
    "text, reason",
    [
        ("41", "numbered 1 to 27: 41 is off"),
        ("14", "222 is the centre, which is disabled"),
        ("0", "numbered 1 to 27"),
    ],
)
def test_bad_cell_numbers_and_the_disabled_centre_say_why(text, reason):
    with pytest.raises(NotationError, match=reason):
        parse_cell(text, geometry(3, 3, no_centre=True))


def test_a_move_list_is_one_move_a_word():
    assert parse_moves("111 114  2,4,1") == [
        parse_cell("111"),
        parse_cell("114"),
        parse_cell("241"),
    ]
    assert parse_moves("") == []
    with pytest.raises(NotationError, match="off the cube"):
        parse_moves("111 511")


def test_the_example_move_fits_each_geometry():
    assert example_move(CUBE) == "234"
    assert example_move(geometry(3, 3)) == "233"
    assert example_move(geometry(3, 4)) == "2333"
    assert example_move(geometry(4, 2)) == "23"
