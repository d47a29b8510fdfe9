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
from datetime import datetime
from enum import Enum

from qubic.core.board import PASS, Board, Mark
from qubic.core.notation import NotationError, format_cell, looks_like_move, parse_cell
from qubic.play import savefile
from qubic.play.analysis import Unanswered, analyze, describe
from qubic.play.instructions import instructions, title
from qubic.play.render import Picture
from qubic.play.settings import Settings
from qubic.play.text import Verbatim, quoted, table
from qubic.players.base import PLAIN_ANNOUNCEMENT, Player
from qubic.players.levels import LEVELS, hint_level, make_player

GOODBYE = "GOODBYE. THANKS FOR PLAYING QUBIC."
# What can be typed at YOUR MOVE?, for HELP and --help: (how to type it, what it does).
COMMAND_HELP = [
    ("234 or 2,3,4", "play level 2, column 3, row 4 (one digit per dimension)"),
    ("17", "play the square numbered 17 (numbered as SHOW prints them)"),
    ("SHOW or BOARD", "print the board"),
    ("SHOW ALWAYS", "print the cube after every move; SHOW OFF stops that"),
    (
        "UNDO",
        "take back your last move and the machine's replies (two players: the last "
        "move); a turn that passed cannot be taken back",
    ),
    ("HINT", "suggest a move, without playing it"),
    ("ANALYZE", "say who has a forced win by threats, and how to stop one"),
    ("MOVES", "list the moves so far, numbered, with who played each"),
    ("LINES [MARK]", "list the lines each side (or MARK) has made"),
    (
        "SAVE FILE",
        "save the game to FILE; qubic --load FILE resumes it; SAVE alone saves "
        "to a name made from the date and time",
    ),
    ("EXPORT", "print the game as one line; qubic --load 'LINE' resumes it"),
    ("LEVEL NAME", "change the machine's level; LEVEL alone names the current one"),
    ("HELP", "list these commands"),
    (
        "QUIT or EXIT",
        "leave, after offering to save a game in progress (at any question); "
        "Ctrl-C or Ctrl-D leaves at once",
    ),
]
PASS_STAYS = "A TURN THAT PASSED WHEN ITS TIME RAN OUT CANNOT BE TAKEN BACK."
NUMBER_WORDS = {2: "TWO", 3: "THREE", 4: "FOUR"}
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


Output = list["str | Picture"]


def parse_yes_no(text: str) -> bool | None:
    """True for yes/y, False for no/n (any case, spaces ignored), None for anything else."""
    return {"YES": True, "Y": True, "NO": False, "N": False}.get(text.strip().upper())


class Session:
    """One sitting at the console: instructions once, then games until the player stops.

    The people at the keyboard play the first sides (X, then O, Y, Z) and the machine the
    rest; with none, the machine plays every side and nobody is asked anything until the game
    is over. Alone against the machine, the person is asked whether to move first.
    """

    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings if settings is not None else Settings()
        self.variant = self.settings.variant
        self.machines = self._make_machines()
        self.board = Board(self.variant)
        # Nothing to ask someone watching the machine play itself: the game starts at once.
        self.stage = Stage.MOVE if self.settings.players == 0 else Stage.INSTRUCTIONS
        self.opening: Output = [*title(self.variant)]
        self.board_due = False  # show the board after the next move even if not always_show
        self.commands: dict[str, Callable[[str], Output]] = {
            "SHOW": self._show,
            "BOARD": self._show,
            "UNDO": self._undo,
            "HINT": self._hint,
            "ANALYZE": self._analyze,
            "MOVES": self._moves,
            "LINES": self._lines,
            "SAVE": self._save,
            "EXPORT": self._export,
            "LEVEL": self._level,
            "HELP": self._help,
            "QUIT": self._leave,
            "EXIT": self._leave,
        }
        # What completes after a command: its own words, or FILE for a file name.
        self.arguments: dict[str, tuple[str, ...]] = {
            "SHOW": SHOW_OPTIONS,
            "BOARD": SHOW_OPTIONS,
            "LEVEL": tuple(name.upper() for name in LEVELS),
            "SAVE": (FILE,),
        }

    @classmethod
    def resume(cls, settings: Settings, board: Board) -> Session:
        """A session that continues a saved game at the move."""
        session = cls(settings)
        session.board = board
        session.stage = Stage.MOVE
        session.opening = [
            *title(settings.variant),
            f"RESUMING A SAVED GAME AT MOVE {len(board.moves) + 1}.",
        ]
        # The board comes after the machine's reply when the machine is to move.
        if session.machine_to_move:
            session.board_due = True
        else:
            session.opening += [Picture.of(board), *session._score()]
        return session

    @property
    def prompt(self) -> str:
        """The question waiting for an answer."""
        if self.stage is Stage.MOVE and self.settings.players > 1:
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
        """One line on the state of play: move number, level(s), whose turn, the score."""
        settings = self.settings
        if not self.machines:
            level = f"{NUMBER_WORDS[settings.players]} PLAYERS"
        elif settings.players == 0:
            others = " ".join(mark.name for mark in self.board.sides[1:])
            level = f"X {settings.level.upper()} AGAINST {others} {settings.level_o.upper()}"
        else:
            level = f"LEVEL {settings.level.upper()}"
        if self.stage is not Stage.MOVE:
            return level
        turn = self.board.turn
        number = len(self.board.moves) + 1
        status = f"MOVE {number} | {level} | {turn.name} TO PLAY{self._owner(turn)}"
        moves = self.board.moves
        last = next((ply for ply in range(len(moves) - 1, -1, -1) if moves[ply] != PASS), None)
        if last is not None:
            mover = self.board.mover(last)
            alone = self.settings.players == 1 and len(self.machines) == 1
            who = "MACHINE" if alone and mover in self.machines else mover.name
            status += f" | {who} PLAYED {format_cell(moves[last], self.board.geometry)}"
        return status + "".join(f" | {line}" for line in self._score())

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
            return [*instructions(self.variant), ""] if choice else []
        if self.stage is Stage.MOVE_FIRST:
            # Yes: X (you) moves first. No: the machine's sides move first, and you last.
            first = Mark.X if choice else Mark.O
            self.board = Board(self.variant, first)
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
        cell = format_cell(reply.cell, self.board.geometry)
        if self.settings.players != 0 and len(self.machines) == 1:
            announcement = f"{reply.announcement} {cell}"
        elif reply.announcement == PLAIN_ANNOUNCEMENT:
            announcement = f"{mark.name} MOVES TO {cell}"
        else:
            announcement = f"{mark.name}: {reply.announcement} {cell}"
        return [announcement, *self._after_move()]

    def time_up(self) -> Output:
        """The person to move ran out of time: the turn passes to the next side."""
        self.board.push_pass()
        if self.settings.players == 1 and len(self.machines) == 1:
            return ["TIME IS UP. YOUR TURN PASSES TO THE MACHINE."]
        return [f"TIME IS UP. THE TURN PASSES TO {self.board.turn.name}."]

    def new_game(self) -> None:
        """Start the next game now, as YES to another game does, leaving any game in play."""
        self._next_game()

    def _make_machines(self) -> dict[Mark, Player]:
        settings = self.settings
        sides = [Mark(side) for side in range(self.variant.sides)]
        if settings.players == 0:
            return {
                mark: make_player(
                    settings.level if mark is Mark.X else settings.level_o, settings.seed
                )
                for mark in sides
            }
        return {
            mark: make_player(settings.level, settings.seed) for mark in sides[settings.players :]
        }

    def _next_game(self) -> None:
        if self.settings.players == 1 and self.machines:
            self.stage = Stage.MOVE_FIRST
        else:
            self.board = Board(self.variant)
            self.stage = Stage.MOVE

    def _move_hint(self) -> str:
        example = "".join(str(min(i + 2, self.variant.size)) for i in range(self.variant.dims))
        return f"TYPE A MOVE LIKE {example} OR {','.join(example)}, OR HELP FOR THE COMMANDS."

    def _move_answer(self, text: str) -> Output:
        words = text.split(maxsplit=1)
        if not words:
            return [self._move_hint()]
        command = self.commands.get(words[0].upper())
        if command is not None:
            return command(words[1].strip() if len(words) > 1 else "")
        if not looks_like_move(text):
            return [f"{quoted(text)} IS NOT A MOVE. {self._move_hint()}"]
        try:
            cell = parse_cell(text, self.board.geometry)
        except NotationError as error:
            return [f"{str(error).upper()}."]
        owner = self.board.mark_at(cell)
        if owner is not None:
            name = format_cell(cell, self.board.geometry)
            return [f"{name} IS TAKEN BY {owner.name}{self._owner(owner)}. TRY ANOTHER SQUARE."]
        return self._play(cell)

    def _play(self, cell: int) -> Output:
        """A person's legal move."""
        self.board.push(cell)
        return self._after_move()

    def _after_move(self) -> Output:
        board = self.board
        outcome = board.outcome()
        if outcome is None:
            shown: Output = []
            # Against the machine, the board comes once its replies are in, not after each move.
            waiting = self.machine_to_move and bool(self.settings.people)
            if (self.settings.always_show or self.board_due) and not waiting:
                self.board_due = False
                shown = [Picture.of(board)]
            return shown + self._score()
        self.stage = Stage.PLAY_AGAIN
        output: Output = [Picture.of(board), *self._score()]
        if outcome.winner is None:
            return [*output, "THE GAME IS A DRAW."]
        lines = [self._line_text(line) for line in outcome.lines]
        if not self.variant.scoring:
            return [*output, f"{self._verdict(outcome.winner)} THE LINE: {lines[0]}"]
        how = "THE BOARD IS FULL AND" if outcome.full else "REACHING"
        return [
            *output,
            f"{self._verdict(outcome.winner)} {how} "
            f"{board.scores[outcome.winner]} LINES. THE LINES: {', '.join(lines)}",
        ]

    def _score(self) -> list[str]:
        """The score line, in games that keep score."""
        if not self.variant.scoring:
            return []
        board = self.board
        return ["SCORE " + " ".join(f"{mark.name} {board.scores[mark]}" for mark in board.sides)]

    def _line_text(self, line: int) -> str:
        return " ".join(
            format_cell(cell, self.board.geometry) for cell in self.board.geometry.lines[line].cells
        )

    def _verdict(self, winner: Mark) -> str:
        if self.settings.players == 1 and len(self.machines) == 1:
            return "YOU WIN!" if winner in self.settings.people else "MACHINE WINS."
        if self.settings.players == 1 and winner in self.settings.people:
            return "YOU WIN!"
        return f"{winner.name}{self._owner(winner)} WINS!"

    def _owner(self, mark: Mark) -> str:
        """With people and machines at the board, who plays `mark`: ' (YOU)' for the one
        person, ' (MACHINE)'; else ''."""
        if not self.settings.players or not self.machines:
            return ""
        if mark in self.machines:
            return " (MACHINE)"
        return " (YOU)" if self.settings.players == 1 else ""

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
            return [Picture.of(self.board), *self._score()]
        if option not in SHOW_OPTIONS:
            return [
                f"SHOW TAKES {' OR '.join(SHOW_OPTIONS)}, OR NOTHING: "
                f"{quoted(argument)} IS NEITHER."
            ]
        self.settings.always_show = option == "ALWAYS"
        if self.settings.always_show:
            return ["THE BOARD WILL BE SHOWN AFTER EVERY MOVE."]
        return ["THE BOARD WILL BE SHOWN ONLY WHEN YOU TYPE SHOW."]

    def _undo(self, argument: str) -> Output:
        """Back to before the last person's move, taking back the machine's replies."""
        if argument:
            return ["UNDO TAKES NOTHING AFTER IT."]
        board = self.board
        people = self.settings.people
        plies = range(len(board.moves) - 1, -1, -1)
        last = next((ply for ply in plies if board.mover(ply) in people), None)
        if last is None:
            if board.moves:
                return ["NOTHING OF YOURS TO UNDO: ONLY THE MACHINE HAS MOVED."]
            return ["NOTHING TO UNDO."]
        if board.moves[last] == PASS:
            return [PASS_STAYS]
        taken = []
        while len(board.moves) > last:
            mark = board.mover(len(board.moves) - 1)
            taken.append(f"{self._whose(mark)} {_ply_text(board.pop(), board)}")
        taken.reverse()
        self.stage = Stage.MOVE
        return [f"TAKEN BACK: {' AND '.join(taken)}."]

    def _whose(self, mark: Mark) -> str:
        """A mark's owner as UNDO names it: YOUR, THE MACHINE'S, or X'S."""
        if self.settings.players == 1 and mark in self.settings.people:
            return "YOUR"
        if self.settings.players and len(self.machines) == 1 and mark in self.machines:
            return "THE MACHINE'S"
        return f"{mark.name}'S"

    def _hint(self, argument: str) -> Output:
        if argument:
            return ["HINT TAKES NOTHING AFTER IT."]
        level = hint_level(self.variant)
        reply = make_player(level, self.settings.seed).choose(self.board.copy())
        return [f"HINT: {format_cell(reply.cell, self.board.geometry)}"]

    def _analyze(self, argument: str) -> Output:
        if argument:
            return ["ANALYZE TAKES NOTHING AFTER IT."]
        try:
            return list(describe(analyze(self.board), self.board.geometry))
        except Unanswered as error:
            return [f"{str(error).upper()}."]

    def _moves(self, argument: str) -> Output:
        if argument:
            return ["MOVES TAKES NOTHING AFTER IT."]
        board = self.board
        if not board.moves:
            return ["NO MOVES YET."]
        lines: Output = []
        for ply, cell in enumerate(board.moves):
            mark = board.mover(ply)
            lines.append(f"{ply + 1:>2}. {mark.name} {_ply_text(cell, board)}{self._owner(mark)}")
        return lines

    def _lines(self, argument: str) -> Output:
        board = self.board
        names = {mark.name: mark for mark in board.sides}
        wanted = argument.upper()
        if wanted and wanted not in names:
            return [f"LINES TAKES A MARK, {' '.join(names)}, OR NOTHING: {argument!r} IS NONE."]
        marks = [names[wanted]] if wanted else board.sides
        output: Output = []
        for mark in marks:
            lines = board.lines_of(mark)
            listed = ", ".join(self._line_text(line) for line in lines) or "NONE YET"
            output.append(f"{mark.name}'S LINES ({len(lines)}): {listed}")
        return output

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

    def _export(self, argument: str) -> Output:
        if argument:
            return ["EXPORT TAKES NOTHING AFTER IT."]
        line = savefile.export(self.settings, self.board)
        return [Verbatim(line), Verbatim(f"TO RESUME IT: qubic --load {shlex.quote(line)}")]

    def _level(self, argument: str) -> Output:
        if not self.machines:
            return [f"NO MACHINE PLAYS IN A {NUMBER_WORDS[self.settings.players]}-PLAYER GAME."]
        choices = ", ".join(name.upper() for name in LEVELS)
        name = argument.lower()
        if not name:
            return [
                f"THE MACHINE PLAYS AT LEVEL {self.settings.level.upper()}.",
                f"TO CHANGE IT, TYPE LEVEL AND ONE OF {choices}.",
            ]
        if name not in LEVELS:
            return [f"THERE IS NO LEVEL {quoted(name.upper())}. CHOOSE ONE OF {choices}."]
        refusal = LEVELS[name].refusal(self.variant)
        if refusal is not None:
            return [f"{refusal.upper()}."]
        self.settings.level = name
        self.machines = self._make_machines()
        return [f"THE LEVEL IS NOW {name.upper()}."]

    def _help(self, argument: str) -> Output:
        return ["AT YOUR MOVE YOU CAN TYPE:", *table(COMMAND_HELP)]


def _ply_text(cell: int, board: Board) -> str:
    """A move stack entry as MOVES and UNDO name it: the move, or PASS."""
    return "PASS" if cell == PASS else format_cell(cell, board.geometry)
