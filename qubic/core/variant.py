"""The games qubic plays, by name: each a cube, a number of sides and a target, as data.

A `Variant` is a complete rule set. The named ones live in `VARIANTS`; `with_options` makes
a changed copy (another size, more sides, ...), checked against the limits. Every front end
(options, the save file, the engine protocol) names a variant the same way, as `spec` words:
`tesseract size 3 dims 4 target 9 sides 4 no-centre`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from qubic.core.geometry import Geometry, geometry
from qubic.core.inputs import NumberError, quoted, whole

SIDES = range(2, 5)  # X O Y Z
DIMS = range(2, 5)
# One digit per coordinate, and the printed board within 80 columns.
MAX_SIZE = {2: 9, 3: 9, 4: 5}
MIN_SIZE = 3


class VariantError(ValueError):
    """Settings that make no game; the message says why in one line."""


@dataclass(frozen=True)
class Variant:
    """A game: the cube (size, dimensions, centre), how many sides play, and how many lines win.

    `target` 1 is sudden death: the first line wins. With a higher target every completed
    line scores a point and play goes on until a side reaches the target or the board is
    full, when the top score wins (a tie at the top is a draw)."""

    name: str
    summary: str
    size: int = 4
    dims: int = 3
    no_centre: bool = False
    sides: int = 2
    target: int = 1
    aliases: tuple[str, ...] = ()

    @cached_property
    def geometry(self) -> Geometry:
        return geometry(self.size, self.dims, self.no_centre)

    @property
    def scoring(self) -> bool:
        """Whether lines are counted as points (rather than the first one ending the game)."""
        return self.target > 1

    @property
    def threat_theory(self) -> bool:
        """Whether the threat searches' theory holds: two sides, and the first line wins."""
        return self.sides == 2 and self.target == 1

    @property
    def is_qubic(self) -> bool:
        """Whether this is QUBIC's game (4x4x4, two sides, the first line wins), by any name."""
        return (self.size, self.dims, self.no_centre, self.sides, self.target) == (
            4,
            3,
            False,
            2,
            1,
        )

    @property
    def spec(self) -> str:
        """The variant as words `parse_spec` reads back: name and every setting."""
        words = [
            self.name,
            "size",
            str(self.size),
            "dims",
            str(self.dims),
            "target",
            str(self.target),
            "sides",
            str(self.sides),
        ]
        if self.no_centre:
            words.append("no-centre")
        elif find_variant(self.name).no_centre:
            words.append("centre")
        return " ".join(words)

    @property
    def shape(self) -> str:
        """The board in words, e.g. '4x4x4 CUBE' or '3x3x3x3 TESSERACT (CENTRE DISABLED)'."""
        kind = {2: "GRID", 3: "CUBE", 4: "TESSERACT"}[self.dims]
        centre = " (CENTRE DISABLED)" if self.no_centre else ""
        return "x".join([str(self.size)] * self.dims) + f" {kind}{centre}"

    def with_options(
        self,
        size: int | None = None,
        dims: int | None = None,
        target: int | None = None,
        sides: int | None = None,
        no_centre: bool | None = None,
    ) -> Variant:
        """This variant with the given settings changed; VariantError past the limits."""
        changes: dict[str, Any] = {
            key: value
            for key, value in (
                ("size", size),
                ("dims", dims),
                ("target", target),
                ("sides", sides),
                ("no_centre", no_centre),
            )
            if value is not None
        }
        changed = replace(self, **changes)
        changed.check()
        return changed

    def check(self) -> None:
        """VariantError unless the settings make a game within the limits."""
        if self.dims not in DIMS:
            raise VariantError(f"dims must be {DIMS[0]} to {DIMS[-1]}, not {self.dims}")
        if not MIN_SIZE <= self.size <= MAX_SIZE[self.dims]:
            raise VariantError(
                f"size must be {MIN_SIZE} to {MAX_SIZE[self.dims]} in "
                f"{self.dims} dimensions, not {self.size}"
            )
        if self.no_centre and self.size % 2 == 0:
            raise VariantError(
                f"no-centre needs an odd size: a size-{self.size} cube has no centre cell"
            )
        if self.sides not in SIDES:
            raise VariantError(f"sides must be {SIDES[0]} to {SIDES[-1]}, not {self.sides}")
        lines = len(self.geometry.lines)
        if not 1 <= self.target <= lines:
            raise VariantError(
                f"target must be 1 to {lines} (the lines there are), not {self.target}"
            )


QUBIC = Variant(
    "qubic", "the classic: 4x4x4, two sides, the first line of four wins", aliases=("4x4x4",)
)
CUBE3 = Variant(
    "cube3",
    "3x3x3, two sides, every line scores, first to 10 lines wins",
    size=3,
    target=10,
    aliases=("3x3x3",),
)
TESSERACT = Variant(
    "tesseract",
    "3x3x3x3, centre disabled (232 lines), 2-4 sides X O Y Z, first to 9 lines wins",
    size=3,
    dims=4,
    no_centre=True,
    target=9,
    aliases=("4d",),
)
VARIANTS: dict[str, Variant] = {v.name: v for v in (QUBIC, CUBE3, TESSERACT)}


def find_variant(name: str) -> Variant:
    """The variant called `name` or one of its aliases, in any case; VariantError if none."""
    wanted = name.lower()
    for variant in VARIANTS.values():
        if wanted == variant.name or wanted in variant.aliases:
            return variant
    raise VariantError(f"there is no variant {quoted(name)}; variants: {', '.join(VARIANTS)}")


SETTINGS = ("size", "dims", "target", "sides")


def parse_spec(words: list[str]) -> Variant:
    """The variant `NAME [size N] [dims D] [target K] [sides N] [no-centre]` names (words in
    any case; `centre` turns a named variant's disabled centre back on); VariantError if
    anything is off."""
    if not words:
        raise VariantError("a variant needs a name")
    variant = find_variant(words[0])
    options: dict[str, int | bool] = {}
    rest = iter(words[1:])
    for word in rest:
        key = word.lower()
        if key in ("no-centre", "centre"):
            if "no_centre" in options:
                raise VariantError("say the centre once: centre or no-centre")
            options["no_centre"] = key == "no-centre"
            continue
        if key in options:
            raise VariantError(f"{quoted(word)} is given twice")
        if key not in SETTINGS:
            raise VariantError(
                f"unknown setting {quoted(word)}; settings: {', '.join(SETTINGS)}, no-centre, "
                "centre"
            )
        value = next(rest, None)
        if value is None:
            raise VariantError(f"{key} needs a whole number: {key} N")
        try:
            options[key] = whole(value)
        except NumberError as error:
            raise VariantError(f"{key}: {error}") from None
    return variant.with_options(**options)  # type: ignore[arg-type]
