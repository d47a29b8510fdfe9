"""A variant's rules in words, as the game prints them: its title and its instructions."""

from __future__ import annotations

from qubic.core.board import Mark
from qubic.core.notation import AXES, example_move, numbered
from qubic.core.variant import Variant, find_variant
from qubic.play.text import Hanging

NUMBER_WORDS = {2: "TWO", 3: "THREE", 4: "FOUR"}


def title(variant: Variant) -> list[str]:
    """The lines a session opens with: the variant's name (a variant of it, when its board
    is another), and the board."""
    named = find_variant(variant.name)
    same = (named.size, named.dims, named.no_centre) == (
        variant.size,
        variant.dims,
        variant.no_centre,
    )
    name = variant.name.upper() if same else f"A VARIANT OF {variant.name.upper()}"
    return [name, f"{variant.dims}-D TIC-TAC-TOE ON A {variant.shape}", ""]


def numbering(variant: Variant) -> str:
    """How the squares are numbered, for those who name them by number."""
    count = len(variant.geometry.coords)
    if variant.dims == 4:
        return f"1 TO {count}, ROW BY ROW ACROSS THE WHOLE BOARD AS SHOW PRINTS IT"
    return f"1 TO {count}, LEVEL BY LEVEL, EACH ROW BY ROW FROM THE TOP LEFT"


def sides_words(variant: Variant, players: int) -> str:
    """Who plays which mark, in words."""
    marks = [Mark(side).name for side in range(variant.sides)]
    if players == 1:
        return f"YOU ARE X, THE MACHINE {' AND '.join(marks[1:])}."
    people = " AND ".join(marks[:players])
    machine = marks[players:]
    rest = f"; THE MACHINE PLAYS {' AND '.join(machine)}" if machine else ""
    return f"THE {NUMBER_WORDS[players]} OF YOU PLAY {people} AT ONE KEYBOARD{rest}."


def instructions(variant: Variant, players: int = 1) -> list[str]:
    """The rules of `variant` for `players` people, as the game prints them: paragraphs, which
    the front ends wrap to their width."""
    geometry = variant.geometry
    n, cells = variant.size, geometry.full_mask.bit_count()
    marks = [Mark(side).name for side in range(variant.sides)]
    sides = ", ".join(marks[:-1]) + " AND " + marks[-1]
    centre = " THE CENTRE SQUARE IS DISABLED: NOBODY PLAYS THERE." if variant.no_centre else ""
    board = variant.shape.removesuffix(" (CENTRE DISABLED)")
    if variant.scoring:
        goal = (
            f"EVERY STRAIGHT LINE OF {n} YOU COMPLETE SCORES A POINT, AND PLAY GOES ON. "
            f"THE FIRST TO {variant.target} LINES WINS; IF THE BOARD FILLS FIRST, THE TOP "
            "SCORE WINS, AND A TIE AT THE TOP IS A DRAW."
        )
        end = ""
    else:
        goal = f"THE FIRST TO GET {n} IN A STRAIGHT LINE WINS."
        end = f" IF ALL {cells} SQUARES FILL WITH NO LINE, THE GAME IS A DRAW."
    example = example_move(geometry)
    axes = AXES[variant.dims].upper().replace(",", "")
    number = f" OR BY ITS NUMBER, {numbering(variant)}." if numbered(geometry) else ""
    paragraphs = [
        f"THE BOARD IS A {board} OF {cells} SQUARES.{centre} {sides} TAKE TURNS; "
        f"{sides_words(variant, players)} {goal} THERE ARE {len(geometry.lines)} LINES: ROWS, "
        "COLUMNS AND DIAGONALS IN EVERY DIRECTION.",
        "",
        f"NAME A SQUARE BY {variant.dims} DIGITS, {axes}, EACH 1 TO {n}: {example} OR "
        f"{','.join(example)}.{number}",
        "",
        f"AT YOUR MOVE, TYPE SHOW (OR BOARD) TO SEE THE BOARD, HELP FOR ALL COMMANDS.{end}",
        "",
        "TO LEAVE, TYPE QUIT (OR EXIT) AT ANY QUESTION: A GAME IN PROGRESS CAN BE SAVED FIRST. "
        "CTRL-C OR CTRL-D LEAVES AT ONCE.",
    ]
    return [Hanging(paragraph, 0) for paragraph in paragraphs]
