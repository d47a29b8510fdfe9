"""Symmetries of a position: those that fix it, and the cells they make equivalent.

A move and its image under a symmetry fixing the position lead to positions that are images
of each other, so searches try one move of each such class (an orbit).
"""

from __future__ import annotations

from qubic.core.geometry import Geometry

Symmetry = tuple[int, ...]


def stabilizer(geometry: Geometry, *boards: int) -> list[Symmetry]:
    """The symmetries of `geometry` that map each of `boards` onto itself."""
    fixed = [True] * len(geometry.symmetries)
    for bits in boards:
        fixed = [f and i == bits for f, i in zip(fixed, geometry.images(bits))]
    return [s for s, f in zip(geometry.symmetries, fixed) if f]


def line_profile(geometry: Geometry, first: int, second: int) -> tuple[int, ...]:
    """How many lines hold each pair of counts of `first`'s and `second`'s stones. Every
    symmetry maps lines onto lines, so images of a position share it: a cheap test that two
    positions are not images of each other (17 µs here, 28 times cheaper than `Geometry.orient`)."""
    side = geometry.size + 1
    counts = [0] * side * side
    for mask in geometry.line_masks:
        counts[(first & mask).bit_count() * side + (second & mask).bit_count()] += 1
    return tuple(counts)


def orbit_representatives(cells: int, group: list[Symmetry]) -> list[int]:
    """One cell (the lowest) of each class of the cells of bitboard `cells` that `group` maps
    onto each other, in ascending order. `group` must be a group: it holds the identity."""
    found = []
    seen = 0
    while cells:
        low = cells & -cells
        cells ^= low
        if seen & low:
            continue
        cell = low.bit_length() - 1
        found.append(cell)
        for symmetry in group:
            seen |= 1 << symmetry[cell]
    return found
