"""Game flow: the questions, the turns, the messages and the replay. No terminal in sight.

A `Session` is driven by its console: show `prompt`, feed the answer to `answer`, print what
comes back; whenever `machine_to_move` is true, call `machine_move` instead of asking.
Output is a list of text lines and `Picture`s of the cube. Bad input returns a one-line
explanation and leaves everything as it was, including the question.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from qubic.board import Board, Mark
from qubic.levels import DEFAULT_LEVEL, LEVELS, make_player
from qubic.notation import NotationError, format_cell, looks_like_move, parse_cell

HUMAN, MACHINE = Mark.X, Mark.O

TITLE = ["QUBIC", "3-D TIC-TAC-TOE ON A 4x4x4 CUBE", ""]
INSTRUCTIONS = """\
THE CUBE HAS 4 LEVELS, EACH A 4x4 GRID: 64 SQUARES. YOU ARE X, THE MACHINE IS O.
TAKE TURNS; THE FIRST TO GET FOUR IN A STRAIGHT LINE WINS. THERE ARE 76 LINES:
ROWS, COLUMNS AND DIAGONALS ON EACH LEVEL, PILLARS STRAIGHT UP THROUGH THE LEVELS,
DIAGONALS UP THROUGH THE VERTICAL SLICES, AND THE 4 SPACE DIAGONALS CORNER TO CORNER.

NAME A SQUARE BY THREE DIGITS, LEVEL COLUMN ROW, EACH 1 TO 4: 234 OR 2,3,4 IS
LEVEL 2, COLUMN 3, ROW 4. LEVEL 1 IS THE BOTTOM, COLUMN 1 THE LEFT, ROW 1 THE TOP.

AT YOUR MOVE, TYPE SHOW (OR BOARD) TO SEE ALL FOUR LEVELS.
IF ALL 64 SQUARES FILL WITH NO LINE, THE GAME IS A DRAW.
""".splitlines()
GOODBYE = "GOODBYE. THANKS FOR PLAYING QUBIC."
# What can be typed at YOUR MOVE?, for help texts: (how to type it, what it does).
COMMAND_HELP = [
    ("234 or 2,3,4", "play level 2, column 3, row 4"),
    ("SHOW or BOARD", "print the cube, level 1 to level 4"),
    ("LEVEL NAME", "change the machine's level; LEVEL alone names the current one"),
]
MOVE_HINT = "TYPE A MOVE LIKE 234 OR 2,3,4, OR SHOW TO SEE THE BOARD."


class Stage(Enum):
    """Where the session is; each stage's value is its question."""

    INSTRUCTIONS = "DO YOU WANT INSTRUCTIONS?"
    MOVE_FIRST = "DO YOU WANT TO MOVE FIRST?"
    MOVE = "YOUR MOVE?"
    PLAY_AGAIN = "DO YOU WANT TO PLAY ANOTHER GAME?"
    DONE = ""


@dataclass(frozen=True)
class Picture:
    """The cube to print: each cell's mark (or None), the last move and the winning line."""

    marks: tuple[Mark | None, ...]
    last: int | None = None
    line: tuple[int, ...] | None = None

    @classmethod
    def of(cls, board: Board) -> Picture:
        return cls(
            tuple(board.mark_at(cell) for cell in board.geometry.cells),
            board.moves[-1] if board.moves else None,
            board.winning_line,
        )


Output = list["str | Picture"]


def parse_yes_no(text: str) -> bool | None:
    """True for yes/y, False for no/n (any case, spaces ignored), None for anything else."""
    return {"YES": True, "Y": True, "NO": False, "N": False}.get(text.strip().upper())


class Session:
    """One sitting at the console: instructions once, then games until the player stops."""

    def __init__(self, level: str = DEFAULT_LEVEL, seed: int | None = None) -> None:
        self.seed = seed
        self.level = level
        self.machine = make_player(level, seed)
        self.board = Board()
        self.stage = Stage.INSTRUCTIONS
        self.commands: dict[str, Callable[[str], Output]] = {
            "SHOW": self._show,
            "BOARD": self._show,
            "LEVEL": self._level,
        }

    @property
    def prompt(self) -> str:
        """The question waiting for an answer."""
        return self.stage.value

    @property
    def done(self) -> bool:
        return self.stage is Stage.DONE

    @property
    def machine_to_move(self) -> bool:
        return self.stage is Stage.MOVE and self.board.turn is MACHINE

    def start(self) -> Output:
        return list(TITLE)

    def answer(self, text: str) -> Output:
        """Act on the player's answer to the current question."""
        if self.stage is Stage.MOVE:
            return self._move_answer(text)
        choice = parse_yes_no(text)
        if choice is None:
            return ["PLEASE ANSWER YES OR NO."]
        if self.stage is Stage.INSTRUCTIONS:
            self.stage = Stage.MOVE_FIRST
            return [*INSTRUCTIONS, ""] if choice else []
        if self.stage is Stage.MOVE_FIRST:
            self.board = Board(first=HUMAN if choice else MACHINE)
            self.stage = Stage.MOVE
            return []
        if self.stage is Stage.PLAY_AGAIN:
            self.stage = Stage.MOVE_FIRST if choice else Stage.DONE
            return [] if choice else [GOODBYE]
        raise RuntimeError("the session is over")

    def machine_move(self) -> Output:
        """Let the machine play its move; may take a while at the stronger levels."""
        reply = self.machine.choose(self.board)
        self.board.push(reply.cell)
        return [f"{reply.announcement} {format_cell(reply.cell)}", *self._after_move()]

    def _move_answer(self, text: str) -> Output:
        words = text.split(maxsplit=1)
        if not words:
            return [MOVE_HINT]
        command = self.commands.get(words[0].upper())
        if command is not None:
            return command(words[1] if len(words) > 1 else "")
        if not looks_like_move(text):
            return [f"{text.strip()!r} IS NOT A MOVE. {MOVE_HINT}"]
        try:
            cell = parse_cell(text)
        except NotationError as error:
            return [f"{str(error).upper()}."]
        if not self.board.is_legal(cell):
            return ["THAT SQUARE IS USED, TRY AGAIN."]
        self.board.push(cell)
        return self._after_move()

    def _after_move(self) -> Output:
        board = self.board
        if board.winner is not None:
            line = " ".join(format_cell(cell) for cell in board.winning_line or ())
            verdict = "YOU WIN!" if board.winner is HUMAN else "MACHINE WINS."
            self.stage = Stage.PLAY_AGAIN
            return [f"{verdict} THE LINE: {line}"]
        if board.is_draw():
            self.stage = Stage.PLAY_AGAIN
            return ["THE GAME IS A DRAW."]
        return []

    def _show(self, argument: str) -> Output:
        return [Picture.of(self.board)]

    def _level(self, argument: str) -> Output:
        choices = ", ".join(name.upper() for name in LEVELS)
        name = argument.strip().lower()
        if not name:
            return [f"THE LEVEL IS {self.level.upper()}. CHOOSE ONE OF {choices}: LEVEL HARD."]
        if name not in LEVELS:
            return [f"THERE IS NO LEVEL {name.upper()!r}. CHOOSE ONE OF {choices}."]
        self.level = name
        self.machine = make_player(name, self.seed)
        return [f"THE LEVEL IS NOW {name.upper()}."]
