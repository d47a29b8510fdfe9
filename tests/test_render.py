"""The cube as text: the plain grid, and the colours and highlights in a terminal."""

import re

from qubic.core.board import Board, Mark
from qubic.core.notation import parse_cell
from qubic.play.render import COLOURS, Picture, render

SGR = re.compile(r"\x1b\[([0-9;]*)m")


def won_board() -> Board:
    # X takes the space diagonal; O's last move was 114, X's winning move 444.
    return Board.from_moves(
        [parse_cell(m) for m in ("111", "112", "222", "113", "333", "114", "444")]
    )


def test_plain_grid_has_no_escape_codes_and_the_guides_layout():
    lines = render(Picture.of(won_board()))
    assert "\x1b" not in "".join(lines)
    assert lines[:6] == [
        "LEVEL 1",
        "  C1 C2 C3 C4",
        "R1  X  .  .  .",
        "R2  O  .  .  .",
        "R3  O  .  .  .",
        "R4  O  .  .  .",
    ]
    assert len(lines) == 4 * 7


def test_colour_marks_x_and_o_apart_and_highlights_last_move_and_line():
    board = won_board()
    lines = render(Picture.of(board), colour=True)
    styled = {}
    for line in lines:
        for codes, symbol in re.findall(r"\x1b\[([0-9;]*)m([XO])\x1b\[0m", line):
            styled.setdefault(symbol, []).append(codes.split(";"))
    assert len(styled["X"]) == 4 and len(styled["O"]) == 3
    assert COLOURS[Mark.X] != COLOURS[Mark.O]
    # The four X's are the winning line: all reversed; the last (444) is also underlined.
    assert all("7" in codes for codes in styled["X"])
    assert sum("4" in codes for codes in styled["X"]) == 1
    assert not any("7" in codes or "4" in codes for codes in styled["O"])
    plain = render(Picture.of(board))
    assert [SGR.sub("", line) for line in lines] == [line.upper() for line in plain]


def test_colour_underlines_the_last_move_during_the_game():
    board = Board.from_moves([parse_cell("111"), parse_cell("234")])
    text = "\n".join(render(Picture.of(board), colour=True))
    assert f"\x1b[{COLOURS[Mark.O]};4mO" in text
    assert f"\x1b[{COLOURS[Mark.X]}mX" in text


def test_plain_grid_marks_the_last_move_in_lowercase_in_its_column():
    board = Board.from_moves([parse_cell("111"), parse_cell("234")])
    lines = render(Picture.of(board))
    assert lines[2] == "R1  X  .  .  ." and lines[12] == "R4  .  .  o  ."
    assert "x" not in "".join(lines) and "".join(lines).count("o") == 1
