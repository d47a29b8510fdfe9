"""A variant's rules in words, as the game prints them: its title and its instructions."""

from __future__ import annotations

import textwrap

from qubic.core.board import Mark
from qubic.core.notation import AXES, numbered
from qubic.core.variant import Variant


def title(variant: Variant) -> list[str]:
    """The lines a session opens with."""
    return [variant.name.upper(), f"{variant.dims}-D TIC-TAC-TOE ON A {variant.shape}", ""]


def instructions(variant: Variant) -> list[str]:
    """The rules of `variant`, as the game prints them."""
    geometry = variant.geometry
    n, cells = variant.size, len(geometry.coords)
    marks = [Mark(side).name for side in range(variant.sides)]
    sides = ", ".join(marks[:-1]) + " AND " + marks[-1]
    centre = " THE CENTRE SQUARE IS DISABLED: NOBODY PLAYS THERE." if variant.no_centre else ""
    if variant.scoring:
        goal = (
            f"EVERY STRAIGHT LINE OF {n} YOU COMPLETE SCORES A POINT, AND PLAY GOES ON. "
            f"THE FIRST TO {variant.target} LINES WINS; IF THE BOARD FILLS FIRST, THE TOP "
            "SCORE WINS, AND A TIE AT THE TOP IS A DRAW."
        )
        end = ""
    else:
        goal = f"THE FIRST TO GET {n} IN A STRAIGHT LINE WINS."
        end = (
            f" IF ALL {geometry.full_mask.bit_count()} SQUARES FILL WITH NO LINE, "
            "THE GAME IS A DRAW."
        )
    example = "".join(str(min(i + 2, n)) for i in range(variant.dims))
    axes = AXES[variant.dims].upper().replace(",", "")
    number = (
        f" OR BY ITS NUMBER, 1 TO {cells}, COUNTING THE SQUARES AS SHOW PRINTS THEM, ROW BY ROW "
        "FROM THE TOP LEFT."
        if numbered(geometry)
        else ""
    )
    text = (
        f"THE BOARD IS A {variant.shape} OF {cells} SQUARES.{centre} {sides} TAKE TURNS; "
        f"AGAINST THE MACHINE YOU ARE X. {goal} THERE ARE {len(geometry.lines)} LINES: ROWS, "
        "COLUMNS AND DIAGONALS IN EVERY DIRECTION.\n\n"
        f"NAME A SQUARE BY {variant.dims} DIGITS, {axes}, EACH 1 TO {n}: {example} OR "
        f"{','.join(example)}.{number}\n\n"
        f"AT YOUR MOVE, TYPE SHOW (OR BOARD) TO SEE THE BOARD, HELP FOR ALL COMMANDS.{end}\n\n"
        "TO LEAVE, TYPE QUIT (OR EXIT) AT ANY QUESTION: A GAME IN PROGRESS CAN BE SAVED FIRST. "
        "CTRL-C OR CTRL-D LEAVES AT ONCE."
    )
    return [
        line for paragraph in text.split("\n") for line in (textwrap.wrap(paragraph, 79) or [""])
    ]
