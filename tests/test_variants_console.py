"""The other cubes end to end: the installed program in a pseudo-terminal, played beside a
Session with the same settings (a mirror), which says what the program must print."""

from __future__ import annotations

import re

import pexpect
import pytest

from qubic.core.notation import format_cell
from qubic.core.variant import CUBE3, TESSERACT, Variant
from qubic.play.render import Picture, render
from qubic.play.session import Session
from qubic.play.settings import Settings
from qubic.play.text import Hanging, fit
from qubic.ui.cli import program_name
from tests.conftest import expect_goodbye, expect_prompt, qubic_command, spawn

SEED = 7


class Mirrored:
    """The program and a mirror session, answered alike; every line the mirror prints (of a
    board, its first) must come from the program in order."""

    def __init__(
        self, variant: Variant, players: int, level: str, *args: str, cwd: str | None = None
    ) -> None:
        self.child = spawn(
            "--variant",
            variant.name,
            "--seed",
            str(SEED),
            "--no-color",
            "--players",
            str(players),
            "--level",
            level,
            *args,
            timeout=40,
            cwd=cwd,
        )
        self.mirror = Session(Settings(players=players, seed=SEED, variant=variant, level=level))
        self.mirror.program = program_name(qubic_command())  # as the program names itself
        self.expect(self.mirror.start())

    def expect(self, output: list) -> None:
        for item in output:
            # The program wraps long lines at the terminal's width (spawn's 120 columns), and
            # paragraphs and tables at 80.
            width = 80 if isinstance(item, Hanging) else 120
            lines = render(item)[:1] if isinstance(item, Picture) else fit(item, width)
            for text in lines:
                if text.strip():
                    self.child.expect_exact(text)

    def answer(self, text: str) -> list:
        """Answer the program's question (the mirror's prompt) with `text`; what the mirror
        printed, machine moves included."""
        expect_prompt(self.child, re.escape(self.mirror.prompt))
        self.child.sendline(text)
        output = self.mirror.answer(text)
        while self.mirror.machine_to_move:
            output += self.mirror.machine_move()
        self.expect(output)
        return output

    def finish(self) -> None:
        """The program has said goodbye: it exits with status 0, without a traceback."""
        self.child.expect(pexpect.EOF)
        assert "Traceback" not in self.child.before
        self.child.close()
        assert self.child.exitstatus == 0

    def free(self, count: int) -> list[int]:
        """The first `count` empty cells."""
        return self.mirror.board.legal_moves()[:count]


@pytest.mark.slow
def test_a_cube3_game_end_to_end(tmp_path, monkeypatch):
    # Saved by a short name from the test's directory: a long path would wrap in the terminal.
    # The mirror saves its own copy in a folder of its own: SAVE never replaces a file that
    # another game wrote.
    (tmp_path / "mirror").mkdir()
    monkeypatch.chdir(tmp_path / "mirror")
    game = Mirrored(CUBE3, 1, "normal", cwd=str(tmp_path))
    assert any("FIRST TO 10 LINES WINS" in line for line in game.answer("yes"))
    game.answer("yes")  # move first
    geometry = CUBE3.geometry
    # A move by coordinates and one by number (5 is level 1, row 2, column 2: 122).
    output = game.answer("1,1,1")
    assert output[0].startswith("MACHINE MOVES TO ") and "SCORE" not in " ".join(output)
    cell = next(c for c in game.free(27) if geometry.numbers[c] >= 5)
    number = geometry.numbers[cell]
    named = f"YOU PLAY {format_cell(cell, geometry)} (SQUARE {number})"
    assert game.answer(str(number))[0] == named, "a move by number names its square"
    assert game.answer("444") == ["COORDINATES RUN FROM 1 TO 3: 4 IS OFF THE CUBE."]
    assert game.answer("28") == ["SQUARES ARE NUMBERED 1 TO 27: 28 IS OFF THE CUBE."]
    assert game.answer("111") == ["111 IS TAKEN BY X (YOU). TRY ANOTHER SQUARE."]
    moves = list(game.mirror.board.moves)
    undo = game.answer("UNDO")
    assert undo[0].startswith("TAKEN BACK: YOUR ") and game.mirror.board.moves == moves[:2]
    assert game.answer("LINES") == ["X'S LINES (0): NONE YET", "O'S LINES (0): NONE YET"]
    # SAVE and EXPORT, each loaded back in a second program that must show the same game.
    path = "cube3.txt"
    game.answer(f"SAVE {path}")
    export = game.answer("EXPORT")[0]
    assert export.startswith("qubic-save 2; variant: cube3 size 3 dims 3 target 10 sides 2")
    for source in (str(path), export):
        loaded = spawn("--load", source, "--no-color", timeout=40, cwd=str(tmp_path))
        loaded.expect_exact(f"RESUMING A SAVED GAME AT MOVE {len(game.mirror.board.moves) + 1}")
        loaded.expect_exact("SCORE X 0 O 0")
        expect_prompt(loaded, re.escape("YOUR MOVE?"))
        loaded.sendline("MOVES")
        loaded.expect_exact(f" 2. O {format_cell(moves[1], geometry)} (MACHINE)")
        expect_prompt(loaded, re.escape("YOUR MOVE?"))
        loaded.sendcontrol("d")
        expect_goodbye(loaded)
    # Play on to the end: the lowest empty cell each time.
    while game.mirror.board.outcome() is None:
        game.answer(format_cell(game.free(1)[0], geometry))
    board = game.mirror.board
    verdict = game.mirror.answer("HINT")  # at the play-again question: not a yes or no
    assert verdict == [
        "HINT WORKS AT YOUR MOVE. HERE: YES OR NO, REVIEW TO LOOK BACK ON THE GAME, OR HELP."
    ]
    assert board.outcome() is not None
    assert game.answer("no") == ["GOODBYE. THANKS FOR PLAYING QUBIC."]
    game.finish()


@pytest.mark.slow
def test_a_four_sided_tesseract_end_to_end():
    variant = TESSERACT.with_options(sides=4)
    game = Mirrored(variant, 2, "normal", "--sides", "4")
    game.answer("no")  # no instructions: X starts, two people (X, O), the machine Y and Z
    geometry = variant.geometry
    assert game.answer("2222") == ["2222 IS THE CENTRE, WHICH IS DISABLED."]
    assert game.answer("41") == ["2222 IS THE CENTRE, WHICH IS DISABLED."]
    # The score is printed only when it changes (it used to come after every move).
    assert game.answer("1111") == []
    output = game.answer("2")  # tile 2 is 1211; then Y and Z, the machine, move
    assert output[0] == "O PLAYS 1211 (SQUARE 2)"
    assert output[1].startswith("Y MOVES TO ") and output[2].startswith("Z MOVES TO ")
    assert game.mirror.board.mark_at(geometry.cell((0, 1, 0, 0))) is not None
    show = game.answer("SHOW")
    assert render(show[0])[0] == "DIGITS: BIG COLUMN, COLUMN, BIG ROW, ROW"
    assert show[-1].startswith("SCORE X 0")
    moves = game.answer("MOVES")
    assert moves[0] == " 1. X 1111" and moves[2].endswith("(MACHINE)")
    game.answer(format_cell(game.free(1)[0], geometry))  # X
    before = list(game.mirror.board.moves)
    assert game.answer("UNDO")[0].startswith("TAKEN BACK: X'S ")
    assert game.mirror.board.moves == before[:-1]
    export = game.answer("EXPORT")[0]
    loaded = spawn("--load", export, "--no-color", timeout=40)
    loaded.expect_exact(f"RESUMING A SAVED GAME AT MOVE {len(game.mirror.board.moves) + 1}")
    expect_prompt(loaded, re.escape(game.mirror.prompt))
    loaded.sendline("EXPORT")
    loaded.expect_exact(export)
    expect_prompt(loaded, re.escape(game.mirror.prompt))
    loaded.sendcontrol("d")
    expect_goodbye(loaded)
    # Play on, X and O taking the lowest empty tile, until the game ends; LINES on the way.
    while game.mirror.board.outcome() is None:
        if any(game.mirror.board.scores):
            mark = max(game.mirror.board.sides, key=lambda m: game.mirror.board.scores[m])
            lines = game.answer(f"LINES {mark.name.lower()}")
            assert lines[0].startswith(f"{mark.name}'S LINES ({game.mirror.board.scores[mark]}): ")
        game.answer(format_cell(game.free(1)[0], geometry))
    assert game.answer("no") == ["GOODBYE. THANKS FOR PLAYING QUBIC."]
    game.finish()
