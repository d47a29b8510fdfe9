"""Game flow: the questions, the turns, the commands, the messages and the replay.

A `Session` is driven by its console: show `prompt`, feed the answer to `answer`, print what
comes back; whenever `machine_to_move` is true, call `machine_move` instead of asking, and when
a person's time (`seconds_to_answer`) runs out, call `time_up`. Output is a list of text lines
and `Picture`s of the cube. Bad input returns a one-line explanation and leaves everything as
it was, including the question. No terminal in sight: the one thing a session touches outside
itself is the file SAVE names.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from enum import Enum

from qubic import savefile
from qubic.analysis import analyze, describe
from qubic.board import PASS, Board, Mark
from qubic.levels import HINT_LEVEL, LEVELS, make_player
from qubic.notation import NotationError, format_cell, looks_like_move, parse_cell
from qubic.player import PLAIN_ANNOUNCEMENT, Player
from qubic.settings import Settings

TITLE = ["QUBIC", "3-D TIC-TAC-TOE ON A 4x4x4 CUBE", ""]
INSTRUCTIONS = """\
THE CUBE HAS 4 LEVELS, EACH A 4x4 GRID: 64 SQUARES. X AND O TAKE TURNS; AGAINST THE
MACHINE YOU ARE X, THE MACHINE IS O. THE FIRST TO GET FOUR IN A STRAIGHT LINE WINS.
THERE ARE 76 LINES: ROWS, COLUMNS AND DIAGONALS ON EACH LEVEL, PILLARS STRAIGHT UP
THROUGH THE LEVELS, DIAGONALS UP THROUGH THE VERTICAL SLICES, AND THE 4 SPACE
DIAGONALS CORNER TO CORNER.

NAME A SQUARE BY THREE DIGITS, LEVEL COLUMN ROW, EACH 1 TO 4: 234 OR 2,3,4 IS
LEVEL 2, COLUMN 3, ROW 4. LEVEL 1 IS THE BOTTOM, COLUMN 1 THE LEFT, ROW 1 THE TOP.

AT YOUR MOVE, TYPE SHOW (OR BOARD) TO SEE ALL FOUR LEVELS, HELP FOR ALL COMMANDS.
IF ALL 64 SQUARES FILL WITH NO LINE, THE GAME IS A DRAW.
""".splitlines()
GOODBYE = "GOODBYE. THANKS FOR PLAYING QUBIC."
# What can be typed at YOUR MOVE?, for HELP and --help: (how to type it, what it does).
COMMAND_HELP = [
    ("234 or 2,3,4", "play level 2, column 3, row 4"),
    ("SHOW or BOARD", "print the cube, level 1 to level 4"),
    ("SHOW ALWAYS", "print the cube after every move; SHOW OFF stops that"),
    ("UNDO", "take back your last move and the machine's reply (two players: the last move)"),
    ("HINT", "suggest a move, without playing it"),
    ("ANALYZE", "say who has a forced win by threats, and how to stop one"),
    ("MOVES", "list the moves so far, numbered, with who played each"),
    ("SAVE FILE", "save the game to FILE; qubic --load FILE resumes it"),
    ("LEVEL NAME", "change the machine's level; LEVEL alone names the current one"),
    ("HELP", "list these commands"),
]
MOVE_HINT = "TYPE A MOVE LIKE 234 OR 2,3,4, OR HELP FOR THE COMMANDS."
YES_OR_NO = "PLEASE ANSWER YES OR NO."
SHOW_OPTIONS = ("ALWAYS", "OFF")


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
            board.last_cell,
            board.winning_line,
        )


Output = list["str | Picture"]


def parse_yes_no(text: str) -> bool | None:
    """True for yes/y, False for no/n (any case, spaces ignored), None for anything else."""
    return {"YES": True, "Y": True, "NO": False, "N": False}.get(text.strip().upper())


class Session:
    """One sitting at the console: instructions once, then games until the player stops.

    With one player the person is X and the machine O; with two, both marks are people; with
    none, the machine plays both and nobody is asked anything until the game is over.
    """

    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings if settings is not None else Settings()
        self.machines = self._make_machines()
        self.board = Board()
        # Nothing to ask someone watching the machine play itself: the game starts at once.
        self.stage = Stage.MOVE if self.settings.players == 0 else Stage.INSTRUCTIONS
        self.opening: Output = list(TITLE)
        self.commands: dict[str, Callable[[str], Output]] = {
            "SHOW": self._show,
            "BOARD": self._show,
            "UNDO": self._undo,
            "HINT": self._hint,
            "ANALYZE": self._analyze,
            "MOVES": self._moves,
            "SAVE": self._save,
            "LEVEL": self._level,
            "HELP": self._help,
        }
        self.help_entries = COMMAND_HELP  # what HELP lists

    @classmethod
    def resume(cls, settings: Settings, board: Board) -> Session:
        """A session that continues a saved game at the move."""
        session = cls(settings)
        session.board = board
        session.stage = Stage.MOVE
        session.opening = [*TITLE, f"RESUMING A SAVED GAME AT MOVE {len(board.moves) + 1}.",
                           Picture.of(board)]
        return session

    @property
    def prompt(self) -> str:
        """The question waiting for an answer."""
        if self.stage is Stage.MOVE and self.settings.players == 2:
            return f"{self.board.turn.name}, {Stage.MOVE.value}"
        return self.stage.value

    @property
    def done(self) -> bool:
        return self.stage is Stage.DONE

    @property
    def machine_to_move(self) -> bool:
        return self.stage is Stage.MOVE and self.board.turn in self.machines

    @property
    def seconds_to_answer(self) -> float | None:
        """The time limit on the question waiting, if it is a person's move under one."""
        if self.stage is Stage.MOVE and not self.machine_to_move:
            return self.settings.time_limit
        return None

    @property
    def status(self) -> str:
        """One line on the state of play: move number, level(s), whose turn."""
        settings = self.settings
        if settings.players == 2:
            level = "TWO PLAYERS"
        elif settings.players == 0:
            level = f"X {settings.level.upper()} AGAINST O {settings.level_o.upper()}"
        else:
            level = f"LEVEL {settings.level.upper()}"
        if self.stage is not Stage.MOVE:
            return level
        turn = self.board.turn
        number = len(self.board.moves) + 1
        return f"MOVE {number} | {level} | {turn.name} TO PLAY{self._owner(turn)}"

    @property
    def words(self) -> list[str]:
        """The words worth completing at the current question."""
        if self.stage is Stage.MOVE:
            return [*self.commands, *SHOW_OPTIONS, *(name.upper() for name in LEVELS)]
        return ["YES", "NO"]

    def start(self) -> Output:
        return list(self.opening)

    def answer(self, text: str) -> Output:
        """Act on the player's answer to the current question."""
        if self.stage is Stage.MOVE:
            return self._move_answer(text)
        choice = parse_yes_no(text)
        if choice is None:
            return [YES_OR_NO]
        if self.stage is Stage.INSTRUCTIONS:
            self._next_game()
            return [*INSTRUCTIONS, ""] if choice else []
        if self.stage is Stage.MOVE_FIRST:
            self.board = Board(first=Mark.X if choice else Mark.O)
            self.stage = Stage.MOVE
            return []
        if self.stage is Stage.PLAY_AGAIN:
            if choice:
                self._next_game()
                return []
            self.stage = Stage.DONE
            return [GOODBYE]
        raise RuntimeError("the session is over")

    def machine_move(self) -> Output:
        """Let the machine play its move; may take a while at the stronger levels."""
        mark = self.board.turn
        reply = self.machines[mark].choose(self.board)
        self.board.push(reply.cell)
        cell = format_cell(reply.cell)
        if self.settings.players != 0:
            announcement = f"{reply.announcement} {cell}"
        elif reply.announcement == PLAIN_ANNOUNCEMENT:
            announcement = f"{mark.name} MOVES TO {cell}"
        else:
            announcement = f"{mark.name}: {reply.announcement} {cell}"
        return [announcement, *self._after_move()]

    def time_up(self) -> Output:
        """The person to move ran out of time: the turn passes to the other side."""
        self.board.push_pass()
        if self.settings.players == 1:
            return ["TIME IS UP. YOUR TURN PASSES TO THE MACHINE."]
        return [f"TIME IS UP. THE TURN PASSES TO {self.board.turn.name}."]

    def _make_machines(self) -> dict[Mark, Player]:
        settings = self.settings
        if settings.players == 0:
            return {Mark.X: make_player(settings.level, settings.seed),
                    Mark.O: make_player(settings.level_o, settings.seed)}
        if settings.players == 1:
            return {Mark.O: make_player(settings.level, settings.seed)}
        return {}

    def _next_game(self) -> None:
        if self.settings.players == 1:
            self.stage = Stage.MOVE_FIRST
        else:
            self.board = Board()
            self.stage = Stage.MOVE

    def _move_answer(self, text: str) -> Output:
        words = text.split(maxsplit=1)
        if not words:
            return [MOVE_HINT]
        command = self.commands.get(words[0].upper())
        if command is not None:
            return command(words[1].strip() if len(words) > 1 else "")
        if not looks_like_move(text):
            return [f"{text.strip()!r} IS NOT A MOVE. {MOVE_HINT}"]
        try:
            cell = parse_cell(text)
        except NotationError as error:
            return [f"{str(error).upper()}."]
        if not self.board.is_legal(cell):
            return ["THAT SQUARE IS USED, TRY AGAIN."]
        return self._play(cell)

    def _play(self, cell: int) -> Output:
        """A person's legal move."""
        self.board.push(cell)
        return self._after_move()

    def _after_move(self) -> Output:
        board = self.board
        if board.winner is not None:
            line = " ".join(format_cell(cell) for cell in board.winning_line or ())
            self.stage = Stage.PLAY_AGAIN
            return [Picture.of(board), f"{self._verdict(board.winner)} THE LINE: {line}"]
        if board.is_draw():
            self.stage = Stage.PLAY_AGAIN
            return [Picture.of(board), "THE GAME IS A DRAW."]
        return [Picture.of(board)] if self.settings.always_show else []

    def _verdict(self, winner: Mark) -> str:
        if self.settings.players == 1:
            return "YOU WIN!" if winner in self.settings.people else "MACHINE WINS."
        return f"{winner.name} WINS!"

    def _owner(self, mark: Mark) -> str:
        """Alone against the machine, who plays `mark`: ' (YOU)' or ' (MACHINE)'; else ''."""
        if self.settings.players != 1:
            return ""
        return " (YOU)" if mark in self.settings.people else " (MACHINE)"

    def _show(self, argument: str) -> Output:
        option = argument.upper()
        if not option:
            return [Picture.of(self.board)]
        if option not in SHOW_OPTIONS:
            return [f"SHOW TAKES {' OR '.join(SHOW_OPTIONS)}, OR NOTHING: {argument!r} IS NEITHER."]
        self.settings.always_show = option == "ALWAYS"
        if self.settings.always_show:
            return ["THE BOARD WILL BE SHOWN AFTER EVERY MOVE."]
        return ["THE BOARD WILL BE SHOWN ONLY WHEN YOU TYPE SHOW."]

    def _undo(self, argument: str) -> Output:
        if argument:
            return ["UNDO TAKES NOTHING AFTER IT."]
        board = self.board
        if self.settings.players == 2:
            if not board.moves:
                return ["NOTHING TO UNDO."]
            mark = board.turn.other
            return [f"TAKEN BACK: {mark.name}'S {_ply_text(board.pop())}."]
        # Alone against the machine, your turn is answered at once: take back both.
        if len(board.moves) < 2:
            if board.moves:
                return ["NOTHING OF YOURS TO UNDO: ONLY THE MACHINE HAS MOVED."]
            return ["NOTHING TO UNDO."]
        reply = board.pop()
        yours = board.pop()
        return [f"TAKEN BACK: YOUR {_ply_text(yours)} AND THE MACHINE'S {_ply_text(reply)}."]

    def _hint(self, argument: str) -> Output:
        if argument:
            return ["HINT TAKES NOTHING AFTER IT."]
        reply = make_player(HINT_LEVEL, self.settings.seed).choose(self.board.copy())
        return [f"HINT: {format_cell(reply.cell)}"]

    def _analyze(self, argument: str) -> Output:
        if argument:
            return ["ANALYZE TAKES NOTHING AFTER IT."]
        return list(describe(analyze(self.board)))

    def _moves(self, argument: str) -> Output:
        if argument:
            return ["MOVES TAKES NOTHING AFTER IT."]
        if not self.board.moves:
            return ["NO MOVES YET."]
        first = self.board.first
        lines = []
        for ply, cell in enumerate(self.board.moves):
            mark = first if ply % 2 == 0 else first.other
            lines.append(f"{ply + 1:>2}. {mark.name} {_ply_text(cell)}{self._owner(mark)}")
        return lines

    def _save(self, argument: str) -> Output:
        if not argument:
            name = savefile.suggested_name(datetime.now())
            return [f"SAVE NEEDS A FILE NAME, FOR EXAMPLE: SAVE {name}"]
        try:
            savefile.save(argument, self.settings, self.board)
        except savefile.SaveFileError as error:
            return [f"CANNOT SAVE TO {argument}: {error}."]
        return [f"GAME SAVED TO {argument}. TO RESUME IT: qubic --load {shlex.quote(argument)}"]

    def _level(self, argument: str) -> Output:
        if self.settings.players == 2:
            return ["NO MACHINE PLAYS IN A TWO-PLAYER GAME."]
        choices = ", ".join(name.upper() for name in LEVELS)
        name = argument.lower()
        if not name:
            return [f"THE LEVEL IS {self.settings.level.upper()}. "
                    f"CHOOSE ONE OF {choices}: LEVEL HARD."]
        if name not in LEVELS:
            return [f"THERE IS NO LEVEL {name.upper()!r}. CHOOSE ONE OF {choices}."]
        self.settings.level = name
        self.machines = self._make_machines()
        return [f"THE LEVEL IS NOW {name.upper()}."]

    def _help(self, argument: str) -> Output:
        width = max(len(usage) for usage, _ in self.help_entries) + 2
        return ["AT YOUR MOVE YOU CAN TYPE:",
                *(f"  {usage:<{width}}{meaning}" for usage, meaning in self.help_entries)]


def _ply_text(cell: int) -> str:
    """A move stack entry as MOVES and UNDO name it: the move, or PASS."""
    return "PASS" if cell == PASS else format_cell(cell)
