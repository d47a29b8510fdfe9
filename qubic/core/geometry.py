"""The cube's geometry: cells, coordinates and winning lines, generated from size and dimensions.

A cell is a small int. Its coordinates are a tuple in notation order (for the 3-D game: level,
column, row, each counted from 0), and the cell's index reads them as digits in base `size`,
the first coordinate most significant. Bitboards are plain ints with bit `cell` set. A cube
may have its centre disabled (odd sizes): nobody plays there and no line runs through it.

People number the cells 1, 2, ... in the order the board is printed: for 3-D level by level,
each row by row from the left (axes level, row, column); for 4-D the grid of grids row by row
(big row, row, big column, column); for 2-D row by row.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import cache, cached_property
from itertools import permutations, product
from typing import Literal, NamedTuple

Orientation = tuple[tuple[int, int], tuple[int, ...]]
"""A pair of bitboards' canonical key and a symmetry mapping the pair onto it."""

# The guide's names for the seven line families of the 3-D game, keyed by the axes a line runs
# along (0 = level, 1 = column, 2 = row).
FAMILY_NAMES_3D = {
    frozenset({1}): "row",
    frozenset({2}): "column",
    frozenset({1, 2}): "level diagonal",
    frozenset({0}): "pillar",
    frozenset({0, 2}): "column-slice diagonal",
    frozenset({0, 1}): "row-slice diagonal",
    frozenset({0, 1, 2}): "space diagonal",
}
# The axes in printing (and numbering) order, most significant first, by number of dimensions.
READING_AXES = {1: (0,), 2: (1, 0), 3: (0, 2, 1), 4: (2, 3, 0, 1)}
# memoryview's format of each width of int
_FORMATS: dict[int, Literal["B", "H", "I", "Q"]] = {8: "B", 16: "H", 32: "I", 64: "Q"}


@dataclass(frozen=True)
class Line:
    """One winning line: its cells in order along the line, their bitboard, and its family."""

    cells: tuple[int, ...]
    mask: int
    family: str


class Geometry:
    """An n^d cube with every winning line and, for each cell, the lines through it.

    `cells` are all cell indexes; `full_mask` has a bit for each playable one (the disabled
    centre left out), and `lines` are those that avoid disabled cells."""

    def __init__(self, size: int = 4, dims: int = 3, no_centre: bool = False) -> None:
        if size < 2 or dims < 1:
            raise ValueError("a cube needs size >= 2 and at least one dimension")
        if no_centre and size % 2 == 0:
            raise ValueError("only a cube of odd size has a centre cell")
        self.size = size
        self.dims = dims
        self.no_centre = no_centre
        self.coords: tuple[tuple[int, ...], ...] = tuple(product(range(size), repeat=dims))
        self.cells = range(len(self.coords))
        self.disabled = frozenset({self.cell((size // 2,) * dims)} if no_centre else ())
        self.full_mask = (1 << len(self.coords)) - 1 - sum(1 << c for c in self.disabled)
        self.lines: tuple[Line, ...] = tuple(
            line for line in self._generate_lines() if not self.disabled & set(line.cells)
        )
        through: list[list[int]] = [[] for _ in self.cells]
        for index, line in enumerate(self.lines):
            for cell in line.cells:
                through[cell].append(index)
        self.lines_through: tuple[tuple[int, ...], ...] = tuple(map(tuple, through))
        self.line_masks: tuple[int, ...] = tuple(line.mask for line in self.lines)

    def __reduce__(self) -> tuple[object, tuple[int, int, bool]]:
        """Pickled by its shape, unpickled as the shared Geometry of that shape: the tables
        are not copied (a session goes to another process and back while the machine
        thinks)."""
        return geometry, (self.size, self.dims, self.no_centre)

    def cell(self, coords: tuple[int, ...]) -> int:
        """The cell at 0-based `coords` (notation order); ValueError when off the cube."""
        if len(coords) != self.dims or not all(0 <= c < self.size for c in coords):
            raise ValueError(f"{coords} is not a cell of a {self.size}^{self.dims} cube")
        index = 0
        for c in coords:
            index = index * self.size + c
        return index

    @cached_property
    def cell_line_masks(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the masks of the lines through it."""
        return tuple(tuple(self.line_masks[i] for i in lines) for lines in self.lines_through)

    @cached_property
    def cell_line_pairs(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        """For each cell, each line through it as (the line's bit in a set of lines, its mask)."""
        return tuple(
            tuple((1 << i, self.line_masks[i]) for i in lines) for lines in self.lines_through
        )

    @cached_property
    def cell_line_bits(self) -> tuple[int, ...]:
        """For each cell, the set of lines through it, a bit per line."""
        return tuple(sum(1 << i for i in lines) for lines in self.lines_through)

    @cached_property
    def key_cells(self) -> frozenset[int]:
        """The playable cells on the most lines (4 x 4 x 4: the corners and the centre cells)."""
        most = max(len(lines) for lines in self.lines_through)
        return frozenset(c for c in self.cells if len(self.lines_through[c]) == most)

    @cached_property
    def numbers(self) -> tuple[int, ...]:
        """Each cell's number, 1 up, in printing order (see the module's docstring)."""
        axes = READING_AXES.get(self.dims, tuple(range(self.dims)))
        numbers = [0] * len(self.coords)
        for cell, coords in enumerate(self.coords):
            number = 0
            for axis in axes:
                number = number * self.size + coords[axis]
            numbers[cell] = number + 1
        return tuple(numbers)

    @cached_property
    def by_number(self) -> dict[int, int]:
        """The cell of each number."""
        return {number: cell for cell, number in enumerate(self.numbers)}

    @cached_property
    def symmetries(self) -> tuple[tuple[int, ...], ...]:
        """Every map of the cells onto themselves that takes lines to lines, each as the tuple
        of images of the cells; the identity first. The 4 x 4 x 4 cube has 192."""
        n, last = self.size, self.size - 1
        # A symmetry permutes the axes and renumbers the coordinates along each, by one
        # renumbering that keeps opposite ends opposite, reversed along some axes.
        renumberings = [
            p for p in permutations(range(n)) if all(p[last - t] == last - p[t] for t in range(n))
        ]
        lines = {line.mask for line in self.lines}
        found: dict[tuple[int, ...], None] = {}
        for axes in permutations(range(self.dims)):
            for base in renumberings:
                for flips in product((False, True), repeat=self.dims):
                    maps = [
                        [last - base[t] if flip else base[t] for t in range(n)] for flip in flips
                    ]
                    image = tuple(
                        self.cell(tuple(maps[i][coords[axis]] for i, axis in enumerate(axes)))
                        for coords in self.coords
                    )
                    if all(sum(1 << image[c] for c in line.cells) in lines for line in self.lines):
                        found[image] = None
        return tuple(found)

    def canonical(self, first: int, second: int) -> tuple[int, int]:
        """The same key for a pair of bitboards (say, X's and O's) and for every symmetric
        image of the pair: the least image."""
        return self.orient(first, second)[0]

    def orient(self, first: int, second: int) -> Orientation:
        """The pair's canonical key, and a symmetry that maps the pair onto it (the least
        such symmetry)."""
        firsts = self.images(first)
        least = min(firsts)
        if firsts.count(least) == 1:
            i = firsts.index(least)
            return (least, self.images(second)[i]), self.symmetries[i]
        seconds = self.images(second)
        return min(
            ((least, seconds[i]), self.symmetries[i])
            for i, value in enumerate(firsts)
            if value == least
        )

    def images(self, bits: int) -> list[int]:
        """The images of bitboard `bits` under each of the symmetries, in their order."""
        chunk, tables, size, read = self._image_tables
        together = 0  # every image at once, `size` bytes each
        mask = (1 << chunk) - 1
        for table in tables:
            if not bits:
                break
            together |= table[bits & mask]
            bits >>= chunk
        data = together.to_bytes(size * len(self.symmetries), "little")
        if read is not None:
            return memoryview(data).cast(read).tolist()
        return [int.from_bytes(data[i : i + size], "little") for i in range(0, len(data), size)]

    @cached_property
    def _image_tables(self) -> _ImageTables:
        count = len(self.cells)
        field = next((f for f in _FORMATS if f >= count), -(-count // 8) * 8)
        chunk = 8 if count <= 64 else 2  # the cube's tables take 3 MB; bytes would swell larger
        per_cell = []  # each cell's images at once
        for cell in range(count):
            data = bytearray(field // 8 * len(self.symmetries))
            for i, symmetry in enumerate(self.symmetries):
                bit = i * field + symmetry[cell]
                data[bit >> 3] |= 1 << (bit & 7)
            per_cell.append(int.from_bytes(data, "little"))
        tables = []
        for offset in range(0, count, chunk):
            table = [0] * (1 << min(chunk, count - offset))
            for value in range(1, len(table)):
                # The images of the value without its lowest bit, and of that bit.
                low = (value & -value).bit_length() - 1
                table[value] = table[value & (value - 1)] | per_cell[offset + low]
            tables.append(table)
        read = _FORMATS.get(field) if sys.byteorder == "little" else None
        return _ImageTables(chunk, tables, field // 8, read)

    def family_counts(self) -> dict[str, int]:
        """How many lines each family has, in the order the families first appear."""
        counts: dict[str, int] = {}
        for line in self.lines:
            counts[line.family] = counts.get(line.family, 0) + 1
        return counts

    def _family(self, direction: tuple[int, ...]) -> str:
        axes = frozenset(i for i, step in enumerate(direction) if step)
        if self.dims == 3:
            return FAMILY_NAMES_3D[axes]
        return "axes " + "+".join(str(axis) for axis in sorted(axes))

    def _generate_lines(self) -> list[Line]:
        # One direction per pair of opposites: the first nonzero step is +1.
        directions = [
            d
            for d in product((0, 1, -1), repeat=self.dims)
            if any(d) and d[next(i for i, s in enumerate(d) if s)] == 1
        ]
        last = self.size - 1
        lines = []
        for direction in directions:
            for start in self.coords:
                if any(
                    (step == 1 and s != 0) or (step == -1 and s != last)
                    for step, s in zip(direction, start)
                ):
                    continue
                cells = tuple(
                    self.cell(tuple(s + t * step for s, step in zip(start, direction)))
                    for t in range(self.size)
                )
                mask = sum(1 << c for c in cells)
                lines.append(Line(cells, mask, self._family(direction)))
        return lines


class _ImageTables(NamedTuple):
    """`Geometry.images`' tables: the bits of a bitboard's chunk; for each chunk, every
    value's images under all the symmetries at once, one int, an image every `size` bytes;
    and the memoryview format that reads those back as ints (None: `int.from_bytes`)."""

    chunk: int
    tables: list[list[int]]
    size: int
    read: Literal["B", "H", "I", "Q"] | None


def geometry(size: int = 4, dims: int = 3, no_centre: bool = False) -> Geometry:
    """The one shared Geometry of each shape: its tables are built once."""
    return _shared(size, dims, no_centre)


@cache
def _shared(size: int, dims: int, no_centre: bool) -> Geometry:
    return Geometry(size, dims, no_centre)


CUBE = geometry()
"""The QUBIC cube: 4 x 4 x 4, 64 cells, 76 lines."""
