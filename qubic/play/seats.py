"""Who plays which side: the people at the keyboard take the first sides, the machine the rest."""

from __future__ import annotations

from dataclasses import dataclass

from qubic.core.board import Mark


@dataclass(frozen=True)
class Seats:
    """`people` people play the first sides (X, then O, Y, Z) of `sides`; the machine plays the
    rest, or every side when nobody plays."""

    people: int
    sides: int

    @property
    def persons(self) -> tuple[Mark, ...]:
        """The marks people play."""
        return tuple(Mark(side) for side in range(self.people))

    @property
    def machines(self) -> tuple[Mark, ...]:
        """The marks the machine plays."""
        return tuple(Mark(side) for side in range(self.people, self.sides))

    @property
    def one_on_one(self) -> bool:
        """One person against one machine side: the game says YOU and MACHINE."""
        return self.people == 1 and self.sides == 2

    @property
    def lone_machine(self) -> bool:
        """People at the board and a single machine side among them."""
        return self.people > 0 and len(self.machines) == 1

    def is_machine(self, mark: Mark) -> bool:
        return mark.value >= self.people

    def owner(self, mark: Mark) -> str:
        """With people and machines at the board, who plays `mark`: ' (YOU)' for the one
        person, ' (MACHINE)'; else ''."""
        if not self.people or not self.machines:
            return ""
        if self.is_machine(mark):
            return " (MACHINE)"
        return " (YOU)" if self.people == 1 else ""

    def whose(self, mark: Mark) -> str:
        """A mark's owner as UNDO names it: YOUR, THE MACHINE'S, or X'S."""
        if self.people == 1 and not self.is_machine(mark):
            return "YOUR"
        if self.lone_machine and self.is_machine(mark):
            return "THE MACHINE'S"
        return f"{mark.name}'S"
