"""Game flow: the questions, the turns, the commands, the messages and the replay.

A `Session` is driven by its console: show `prompt`, feed the answer to `answer`, print what
comes back; whenever `machine_to_move` is true, call `machine_move` instead of asking, and when
a person's time (`seconds_to_answer`) runs out, call `time_up`. Output is a list of text lines
and `Picture`s of the cube. Bad input returns a one-line explanation and leaves everything as
it was, including the question. No terminal in sight: the one thing a session touches outside
itself is the file SAVE names.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from enum import Enum

from qubic import savefile
from qubic.board import PASS, Board, Mark
from qubic.levels import HINT_LEVEL, LEVELS, make_player
from qubic.notation import NotationError, format_cell, looks_like_move, parse_cell
from qubic.player import PLAIN_ANNOUNCEMENT, Player
from qubic.settings import Settings
from qubic.text import quoted, table

TITLE = ["QUBIC", "3-D TIC-TAC-TOE ON A 4x4x4 CUBE", ""]
INSTRUCTIONS = """\
THE CUBE HAS 4 LEVELS, EACH A 4x4 GRID: 64 SQUARES. X AND O TAKE TURNS; AGAINST
THE MACHINE YOU ARE X, THE MACHINE IS O. THE FIRST TO GET FOUR IN A STRAIGHT
LINE WINS. THERE ARE 76 LINES: ROWS, COLUMNS AND DIAGONALS ON EACH LEVEL,
PILLARS STRAIGHT UP THROUGH THE LEVELS, DIAGONALS UP THROUGH THE VERTICAL
SLICES, AND THE 4 SPACE DIAGONALS CORNER TO CORNER.

NAME A SQUARE BY THREE DIGITS, LEVEL COLUMN ROW, EACH 1 TO 4: 234 OR 2,3,4 IS
LEVEL 2, COLUMN 3, ROW 4. LEVEL 1 IS THE BOTTOM, COLUMN 1 THE LEFT, ROW 1 THE
TOP.

AT YOUR MOVE, TYPE SHOW (OR BOARD) TO SEE ALL FOUR LEVELS, HELP FOR ALL
COMMANDS. IF ALL 64 SQUARES FILL WITH NO LINE, THE GAME IS A DRAW.

TO LEAVE, TYPE QUIT (OR EXIT) AT ANY QUESTION: A GAME IN PROGRESS CAN BE SAVED
FIRST. CTRL-C OR CTRL-D LEAVES AT ONCE.
""".splitlines()
GOODBYE = "GOODBYE. THANKS FOR PLAYING QUBIC."
# What can be typed at YOUR MOVE?, for HELP and --help: (how to type it, what it does).
COMMAND_HELP = [
    ("234 or 2,3,4", "play level 2, column 3, row 4"),
    ("SHOW or BOARD", "print the cube, level 1 to level 4"),
    ("SHOW ALWAYS", "print the cube after every move; SHOW OFF stops that"),
    ("UNDO", "take back your last move and the machine's reply (two players: the last move); "
             "a turn that passed cannot be taken back"),
    ("HINT", "suggest a move, without playing it"),
    ("MOVES", "list the moves so far, numbered, with who played each"),
    ("SAVE FILE", "save the game to FILE; qubic --load FILE resumes it; SAVE alone saves "
                  "to a name made from the date and time"),
    ("LEVEL NAME", "change the machine's level; LEVEL alone names the current one"),
    ("HELP", "list these commands"),
    ("QUIT or EXIT", "leave, after offering to save a game in progress (at any question); "
                     "Ctrl-C or Ctrl-D leaves at once"),
]
PASS_STAYS = "A TURN THAT PASSED WHEN ITS TIME RAN OUT CANNOT BE TAKEN BACK."
MOVE_HINT = "TYPE A MOVE LIKE 234 OR 2,3,4, OR HELP FOR THE COMMANDS."
SHOW_OPTIONS = ("ALWAYS", "OFF")
LEAVE = ("QUIT", "EXIT")
FILE = "FILE"  # what completes after SAVE: a file name, not a word of ours


class Stage(Enum):
    """Where the session is; each stage's value is its question."""

    INSTRUCTIONS = "DO YOU WANT INSTRUCTIONS?"
    MOVE_FIRST = "DO YOU WANT TO MOVE FIRST?"
    MOVE = "YOUR MOVE?"
    PLAY_AGAIN = "DO YOU WANT TO PLAY ANOTHER GAME?"
    SAVE_BEFORE_LEAVING = "SAVE THE GAME BEFORE YOU GO?"
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
        self.board_due = False  # show the board after the next move even if not always_show
        self.commands: dict[str, Callable[[str], Output]] = {
            "SHOW": self._show,
            "BOARD": self._show,
            "UNDO": self._undo,
            "HINT": self._hint,
            "MOVES": self._moves,
            "SAVE": self._save,
            "LEVEL": self._level,
            "HELP": self._help,
            "QUIT": self._leave,
            "EXIT": self._leave,
        }
        # What completes after a command: its own words, or FILE for a file name.
        self.arguments: dict[str, tuple[str, ...]] = {
            "SHOW": SHOW_OPTIONS, "BOARD": SHOW_OPTIONS,
            "LEVEL": tuple(name.upper() for name in LEVELS), "SAVE": (FILE,),
        }

    @classmethod
    def resume(cls, settings: Settings, board: Board) -> Session:
        """A session that continues a saved game at the move."""
        session = cls(settings)
        session.board = board
        session.stage = Stage.MOVE
        session.opening = [*TITLE, f"RESUMING A SAVED GAME AT MOVE {len(board.moves) + 1}."]
        # The board comes after the machine's reply when the machine is to move.
        if session.machine_to_move:
            session.board_due = True
        else:
            session.opening.append(Picture.of(board))
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
        status = f"MOVE {number} | {level} | {turn.name} TO PLAY{self._owner(turn)}"
        last = self._last_move_of(turn.other)
        if last is not None:
            who = "MACHINE" if self.settings.players == 1 else turn.other.name
            status += f" | {who} PLAYED {format_cell(last)}"
        return status

    def words(self, before: str = "") -> tuple[str, ...]:
        """The words worth completing after `before`, the text typed so far at the question:
        commands, then a command's own arguments (FILE: a file name); yes or no elsewhere."""
        typed = before.upper().split()
        done = typed if before[-1:].isspace() else typed[:-1]
        if self.stage is Stage.MOVE:
            if not done:
                return tuple(self.commands)
            return self.arguments.get(done[0], ()) if len(done) == 1 else ()
        if done:
            return ()
        return ("YES", "NO") if self.stage is Stage.SAVE_BEFORE_LEAVING else ("YES", "NO", *LEAVE)

    def start(self) -> Output:
        return list(self.opening)

    def answer(self, text: str) -> Output:
        """Act on the player's answer to the current question."""
        if self.stage is Stage.MOVE:
            return self._move_answer(text)
        choice = parse_yes_no(text)
        if self.stage is Stage.SAVE_BEFORE_LEAVING:
            return self._save_before_leaving(choice)
        if text.strip().upper() in LEAVE:
            return self._leave("")
        if choice is None:
            return ["PLEASE ANSWER YES OR NO."]
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
            return [f"{quoted(text)} IS NOT A MOVE. {MOVE_HINT}"]
        try:
            cell = parse_cell(text)
        except NotationError as error:
            return [f"{str(error).upper()}."]
        owner = self.board.mark_at(cell)
        if owner is not None:
            return [f"{format_cell(cell)} IS TAKEN BY {owner.name}{self._owner(owner)}. "
                    "TRY ANOTHER SQUARE."]
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
        if self.settings.always_show or self.board_due:
            self.board_due = False
            return [Picture.of(board)]
        return []

    def _verdict(self, winner: Mark) -> str:
        if self.settings.players == 1:
            return "YOU WIN!" if winner in self.settings.people else "MACHINE WINS."
        return f"{winner.name} WINS!"

    def _owner(self, mark: Mark) -> str:
        """Alone against the machine, who plays `mark`: ' (YOU)' or ' (MACHINE)'; else ''."""
        if self.settings.players != 1:
            return ""
        return " (YOU)" if mark in self.settings.people else " (MACHINE)"

    def _last_move_of(self, mark: Mark) -> int | None:
        """The cell `mark` played last, if any (its passes do not count)."""
        moves = self.board.moves
        # The last entry is by the side that moved last, the one before by the other, ...
        mine = moves[-1::-2] if mark is self.board.turn.other else moves[-2::-2]
        return next((cell for cell in mine if cell != PASS), None)

    def _leave(self, argument: str) -> Output:
        if argument:
            return [f"{' AND '.join(LEAVE)} TAKE NOTHING AFTER THEM."]
        if self.stage is Stage.MOVE and self.board.moves and self.settings.people:
            self.stage = Stage.SAVE_BEFORE_LEAVING
            return []
        self.stage = Stage.DONE
        return [GOODBYE]

    def _save_before_leaving(self, choice: bool | None) -> Output:
        if choice is None:
            return ["PLEASE ANSWER YES OR NO."]
        output: Output = []
        if choice:
            saved, output = self._save_to(savefile.suggested_name(datetime.now()))
            if not saved:
                return output  # asked again: NO leaves without saving
        self.stage = Stage.DONE
        return [*output, GOODBYE]

    def _show(self, argument: str) -> Output:
        option = argument.upper()
        if not option:
            return [Picture.of(self.board)]
        if option not in SHOW_OPTIONS:
            return [f"SHOW TAKES {' OR '.join(SHOW_OPTIONS)}, OR NOTHING: "
                    f"{quoted(argument)} IS NEITHER."]
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
            if board.moves[-1] == PASS:
                return [PASS_STAYS]
            return [f"TAKEN BACK: {mark.name}'S {_ply_text(board.pop())}."]
        # Alone against the machine, your turn is answered at once: take back both.
        if len(board.moves) < 2:
            if board.moves:
                return ["NOTHING OF YOURS TO UNDO: ONLY THE MACHINE HAS MOVED."]
            return ["NOTHING TO UNDO."]
        if board.moves[-2] == PASS:
            return [PASS_STAYS]
        reply = board.pop()
        yours = board.pop()
        return [f"TAKEN BACK: YOUR {_ply_text(yours)} AND THE MACHINE'S {_ply_text(reply)}."]

    def _hint(self, argument: str) -> Output:
        if argument:
            return ["HINT TAKES NOTHING AFTER IT."]
        reply = make_player(HINT_LEVEL, self.settings.seed).choose(self.board.copy())
        return [f"HINT: {format_cell(reply.cell)}"]

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
        try:
            names = shlex.split(argument)
        except ValueError:
            return ["A QUOTE IS NOT CLOSED. FOR A NAME WITH SPACES: SAVE 'my game.txt'"]
        if len(names) > 1:
            return ["SAVE TAKES ONE FILE NAME. FOR A NAME WITH SPACES: SAVE 'my game.txt'"]
        return self._save_to(names[0] if names else savefile.suggested_name(datetime.now()))[1]

    def _save_to(self, name: str) -> tuple[bool, Output]:
        """Save the game to the file `name` (`~` expanded); whether it worked, and the words."""
        path = os.path.expanduser(name)
        try:
            savefile.save(path, self.settings, self.board)
        except savefile.SaveFileError as error:
            return False, [f"CANNOT SAVE TO {name}: {str(error).upper()}."]
        return True, [f"GAME SAVED TO {name}. TO RESUME IT: qubic --load {shlex.quote(path)}"]

    def _level(self, argument: str) -> Output:
        if self.settings.players == 2:
            return ["NO MACHINE PLAYS IN A TWO-PLAYER GAME."]
        choices = ", ".join(name.upper() for name in LEVELS)
        name = argument.lower()
        if not name:
            return [f"THE MACHINE PLAYS AT LEVEL {self.settings.level.upper()}.",
                    f"TO CHANGE IT, TYPE LEVEL AND ONE OF {choices}."]
        if name not in LEVELS:
            return [f"THERE IS NO LEVEL {quoted(name.upper())}. CHOOSE ONE OF {choices}."]
        self.settings.level = name
        self.machines = self._make_machines()
        return [f"THE LEVEL IS NOW {name.upper()}."]

    def _help(self, argument: str) -> Output:
        return ["AT YOUR MOVE YOU CAN TYPE:", *table(COMMAND_HELP)]


def _ply_text(cell: int) -> str:
    """A move stack entry as MOVES and UNDO name it: the move, or PASS."""
    return "PASS" if cell == PASS else format_cell(cell)
