import random
from itertools import combinations, pairwise

import pytest

from qubic.core.geometry import CUBE, Geometry
from qubic.core.symmetry import line_profile, profile_after


def test_the_cube_has_64_cells_and_76_lines():
    assert len(CUBE.cells) == 64
    assert len(CUBE.lines) == 76
    assert len({line.cells for line in CUBE.lines}) == 76


def test_the_guides_seven_families_with_their_counts():
    assert CUBE.family_counts() == {
        "row": 16,
        "column": 16,
        "level diagonal": 8,
        "pillar": 16,
        "column-slice diagonal": 8,
        "row-slice diagonal": 8,
        "space diagonal": 4,
    }


def test_corners_and_centre_cells_lie_on_seven_lines_the_rest_on_four():
    sevens = {cell for cell in CUBE.cells if len(CUBE.lines_through[cell]) == 7}
    fours = {cell for cell in CUBE.cells if len(CUBE.lines_through[cell]) == 4}
    # 0-based coordinates: a corner has every coordinate 0 or 3, a centre cell every one 1 or 2.
    expected = {
        CUBE.cell(c)
        for c in CUBE.coords
        if all(x in (0, 3) for x in c) or all(x in (1, 2) for x in c)
    }
    assert sevens == expected
    assert len(sevens) == 16
    assert len(fours) == 48


def test_each_line_is_four_equally_spaced_cells_in_a_straight_line():
    for line in CUBE.lines:
        points = [CUBE.coords[cell] for cell in line.cells]
        step = tuple(b - a for a, b in zip(points[0], points[1]))
        assert all(s in (-1, 0, 1) for s in step) and any(step)
        for a, b in pairwise(points):
            assert tuple(y - x for x, y in zip(a, b)) == step
        assert line.mask == sum(1 << cell for cell in line.cells)


def test_lines_through_a_cell_are_exactly_the_lines_holding_it():
    for cell in CUBE.cells:
        holding = [i for i, line in enumerate(CUBE.lines) if cell in line.cells]
        assert list(CUBE.lines_through[cell]) == holding


def test_two_lines_share_at_most_one_cell():
    for a, b in combinations(CUBE.line_masks, 2):
        assert (a & b).bit_count() <= 1


def test_family_names_match_the_guides_examples():
    # 0-based (level, column, row): a pillar changes level only, a row changes column only.
    by_cells = {frozenset(line.cells): line.family for line in CUBE.lines}

    def family(*coords):
        return by_cells[frozenset(CUBE.cell(c) for c in coords)]

    assert family((0, 0, 0), (0, 1, 0), (0, 2, 0), (0, 3, 0)) == "row"
    assert family((0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 0, 3)) == "column"
    assert family((0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0)) == "pillar"
    assert family((0, 2, 0), (1, 2, 1), (2, 2, 2), (3, 2, 3)) == "column-slice diagonal"
    assert family((0, 0, 1), (1, 1, 1), (2, 2, 1), (3, 3, 1)) == "row-slice diagonal"
    assert family((3, 0, 0), (2, 1, 1), (1, 2, 2), (0, 3, 3)) == "space diagonal"


@pytest.mark.parametrize("size, dims", [(3, 3), (4, 2), (5, 3), (3, 4), (4, 4)])
def test_other_cubes_have_the_textbook_number_of_lines(size, dims):
    geometry = Geometry(size, dims)
    assert len(geometry.cells) == size**dims
    assert len(geometry.lines) == ((size + 2) ** dims - size**dims) // 2


def test_cell_numbering_reads_coordinates_as_digits():
    assert CUBE.cell((0, 0, 0)) == 0
    assert CUBE.cell((1, 2, 3)) == 16 + 8 + 3
    assert all(CUBE.cell(CUBE.coords[cell]) == cell for cell in CUBE.cells)
    with pytest.raises(ValueError):
        CUBE.cell((4, 0, 0))
    with pytest.raises(ValueError):
        CUBE.cell((0, 0))


def test_the_cube_has_192_symmetries_each_taking_lines_to_lines():
    symmetries = CUBE.symmetries
    assert len(set(symmetries)) == 192
    assert symmetries[0] == tuple(CUBE.cells)
    lines = {line.mask for line in CUBE.lines}
    for symmetry in symmetries:
        assert sorted(symmetry) == list(CUBE.cells)
        assert {sum(1 << symmetry[c] for c in line.cells) for line in CUBE.lines} == lines


def test_the_square_and_the_small_cube_have_their_textbook_symmetries():
    assert len(Geometry(size=4, dims=2).symmetries) == 32  # 8 of the square, times 4
    assert len(Geometry(size=3, dims=3).symmetries) == 48  # the rotations and reflections


def test_the_cells_fall_into_two_kinds_under_symmetry():
    kinds = {CUBE.canonical(1 << cell, 0) for cell in CUBE.cells}
    assert len(kinds) == 2  # the 16 cells on seven lines, and the 48 on four


def test_canonical_is_the_same_for_every_image_and_orient_says_how():
    first, second = 1 << 0 | 1 << 21 | 1 << 7, 1 << 42 | 1 << 5
    key = CUBE.canonical(first, second)
    for symmetry in CUBE.symmetries[::7]:
        image = (
            sum(1 << symmetry[c] for c in range(64) if first >> c & 1),
            sum(1 << symmetry[c] for c in range(64) if second >> c & 1),
        )
        assert CUBE.canonical(*image) == key
        found, mapping = CUBE.orient(*image)
        assert found == key
        assert (
            sum(1 << mapping[c] for c in range(64) if image[0] >> c & 1),
            sum(1 << mapping[c] for c in range(64) if image[1] >> c & 1),
        ) == key
    assert CUBE.canonical(second, first) != key  # the two sides are not interchangeable


def test_images_share_a_line_profile_and_most_other_positions_do_not():
    rng = random.Random(4)
    profiles = {}
    for _ in range(300):
        cells = rng.sample(range(64), 10)
        first = sum(1 << c for c in cells[:5])
        second = sum(1 << c for c in cells[5:])
        profile = line_profile(CUBE, first, second)
        for symmetry in CUBE.symmetries[::11]:
            image = (
                sum(1 << symmetry[c] for c in range(64) if first >> c & 1),
                sum(1 << symmetry[c] for c in range(64) if second >> c & 1),
            )
            assert line_profile(CUBE, *image) == profile
        profiles.setdefault(profile, set()).add(CUBE.canonical(first, second))
    # A cheap filter: positions that are not images of each other mostly differ in it.
    assert len(profiles) > 200


@pytest.mark.parametrize("shape", [(4, 3), (3, 3), (4, 4)])
def test_a_line_profile_followed_move_by_move_is_the_profile_of_each_position(shape):
    geometry = Geometry(*shape)
    rng = random.Random(shape[1])
    for _ in range(20):
        cells = rng.sample(range(len(geometry.cells)), len(geometry.cells))
        first = second = 0
        profile = line_profile(geometry, first, second)
        for ply, cell in enumerate(cells):
            by_second = ply % 2 == 1
            profile = profile_after(geometry, profile, first, second, cell, by_second)
            if by_second:
                second |= 1 << cell
            else:
                first |= 1 << cell
            assert profile == line_profile(geometry, first, second)
