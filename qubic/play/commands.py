"""The commands a person can type at YOUR MOVE?: each a function of the sitting (a `Host`: what
the commands ask of it, and no more) and the text typed after the command's name, answering
with what the sitting says. Bad input answers with a one-line explanation and changes nothing."""

from __future__ import annotations

import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from qubic.core.board import PASS, Board
from qubic.core.geometry import CUBE
from qubic.core.notation import example_move, format_cell, numbered
from qubic.play import savefile
from qubic.play.analysis import Unanswered, analyze, describe
from qubic.play.instructions import NUMBER_WORDS, numbering
from qubic.play.rating import AUTO, nearest_words, step_words, steps_line, typed_rating
from qubic.play.render import Output, Picture, line_text, score_lines
from qubic.play.settings import Settings
from qubic.play.text import Verbatim, capitals, quoted, table
from qubic.players.ladder import Step, step_named
from qubic.players.levels import LEVELS, hint_level, make_player

# What can be typed at YOUR MOVE?, for HELP and --help: (how to type it, what it does).
COMMAND_HELP = [
    ("234 or 2,3,4", "PLAY LEVEL 2, COLUMN 3, ROW 4 (ONE DIGIT PER DIMENSION)"),
    ("17", "PLAY THE SQUARE NUMBERED 17 (NOT ON THE 4x4x4 CUBE)"),
    ("SHOW or BOARD", "PRINT THE BOARD"),
    ("SHOW ALWAYS", "PRINT THE BOARD AFTER EVERY MOVE; SHOW OFF STOPS THAT"),
    (
        "UNDO",
        "TAKE BACK YOUR LAST MOVE AND THE MACHINE'S REPLIES (TWO PLAYERS: THE LAST "
        "MOVE); A TURN THAT PASSED CANNOT BE TAKEN BACK",
    ),
    ("HINT", "SUGGEST A MOVE, WITHOUT PLAYING IT"),
    ("ANALYZE", "SAY WHO HAS A FORCED WIN BY THREATS, AND HOW TO STOP ONE"),
    ("MOVES", "LIST THE MOVES SO FAR, NUMBERED, WITH WHO PLAYED EACH"),
    ("LINES [MARK]", "LIST THE LINES EACH SIDE (OR MARK) HAS MADE"),
    (
        "SAVE FILE",
        "SAVE THE GAME TO FILE; qubic --load FILE RESUMES IT; SAVE ALONE SAVES "
        "TO A NAME MADE FROM THE DATE AND TIME",
    ),
    ("EXPORT", "PRINT THE GAME AS ONE LINE; qubic --load 'LINE' RESUMES IT"),
    ("LEVEL NAME", "CHANGE THE MACHINE'S LEVEL; LEVEL ALONE NAMES THE CURRENT ONE"),
    ("HELP", "LIST THESE COMMANDS"),
    (
        "QUIT or EXIT",
        "LEAVE, AFTER OFFERING TO SAVE A GAME IN PROGRESS (AT ANY QUESTION); "
        "CTRL-C OR CTRL-D LEAVES AT ONCE",
    ),
]
# What can be typed at DO YOU WANT TO PLAY ANOTHER GAME?, besides the commands of AT_THE_END.
END_HELP = [
    ("YES or NO", "PLAY ANOTHER GAME, OR LEAVE"),
    ("REVIEW", "LOOK BACK ON THE GAME: ITS MISTAKES, THEN ITS POSITIONS ONE BY ONE"),
    ("SAVE FILE", "SAVE THE GAME TO FILE; qubic review FILE LOOKS BACK ON IT LATER"),
    ("EXPORT", "PRINT THE GAME AS ONE LINE; qubic review 'LINE' LOOKS BACK ON IT"),
]
AT_THE_END = ("SHOW", "BOARD", "UNDO", "MOVES", "LINES", "SAVE", "EXPORT", "HELP")
PASS_STAYS = "A TURN THAT PASSED WHEN ITS TIME RAN OUT CANNOT BE TAKEN BACK."
SHOW_OPTIONS = ("ALWAYS", "OFF")
LEAVE = ("QUIT", "EXIT")
HELPS = ("HINT", "UNDO", "ANALYZE")  # help that leaves a game unrated, in the order said
LEVEL = "LEVEL"  # a level changed after the first move, which also leaves it unrated
FILE = "FILE"  # what completes after SAVE: a file name, not a word of ours


class Hint(str):
    """HINT's words, which carry the cell suggested (a front end may move its cursor there)."""

    cell: int

    def __new__(cls, text: str, cell: int) -> Hint:
        hint = super().__new__(cls, text)
        hint.cell = cell
        return hint

    def __getnewargs__(self) -> tuple[str, int]:  # type: ignore[override]
        return str(self), self.cell


class Table(Protocol):
    """A game on the table, as SHOW sees it: the board, and the settings (SHOW ALWAYS sets
    one)."""

    @property
    def board(self) -> Board: ...

    @property
    def settings(self) -> Settings: ...


class Host(Table, Protocol):
    """What the commands ask of the game they act on: its board (which UNDO takes moves off),
    its settings and the few things below; nothing else of it is read or written."""

    @property
    def auto(self) -> bool:
        """The machine plays the step nearest the player's rating, game by game."""
        ...

    @property
    def record(self) -> Path | None:
        """Where finished games are counted, if anywhere."""
        ...

    def took_help(self, name: str) -> None:
        """The player took help (one of HELPS): the game is not rated."""

    def play_on(self) -> None:
        """Back to the move, as after UNDO (even from a game's end)."""

    def save_to(self, name: str | None = None) -> tuple[bool, Output]:
        """Save the game to the file `name` (None: a new dated name): whether it worked, and
        the words."""
        ...

    def resume_hint(self, game: str) -> Verbatim:
        """How to resume `game` (a file or an export line), or to review it once it is over."""
        ...

    def set_level(self, name: str, auto: bool = False) -> None:
        """The machine plays at level `name` from now on (following the rating with `auto`)."""

    def follow_rating(self) -> Step:
        """Auto from now on: the step nearest the player's rating plays; the step."""
        ...


Command = Callable[[Host, str], Output]


def show(session: Table, argument: str) -> Output:
    option = argument.upper()
    if not option:
        return [Picture.of(session.board), *score_lines(session.board)]
    if option not in SHOW_OPTIONS:
        return [
            f"SHOW TAKES {' OR '.join(SHOW_OPTIONS)}, OR NOTHING: {quoted(argument)} IS NEITHER."
        ]
    session.settings.always_show = option == "ALWAYS"
    if session.settings.always_show:
        return ["THE BOARD WILL BE SHOWN AFTER EVERY MOVE."]
    return ["THE BOARD WILL BE SHOWN ONLY WHEN YOU TYPE SHOW."]


def undo(session: Host, argument: str) -> Output:
    """Back to before the last person's move, taking back the machine's replies."""
    if argument:
        return ["UNDO TAKES NOTHING AFTER IT."]
    board = session.board
    people = session.settings.seats.persons
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
        taken.append(f"{session.settings.seats.whose(mark)} {ply_text(board.pop(), board)}")
    taken.reverse()
    session.play_on()
    session.took_help("UNDO")
    return [f"TAKEN BACK: {' AND '.join(taken)}."]


def hint(session: Host, argument: str) -> Output:
    if argument:
        return ["HINT TAKES NOTHING AFTER IT."]
    level = hint_level(session.settings.variant)
    reply = make_player(level, session.settings.seed).choose(session.board.copy())
    session.took_help("HINT")
    return [Hint(f"HINT: {format_cell(reply.cell, session.board.geometry)}", reply.cell)]


def analyze_position(session: Host, argument: str) -> Output:
    if argument:
        return ["ANALYZE TAKES NOTHING AFTER IT."]
    try:
        said: Output = list(describe(analyze(session.board), session.board.geometry))
    except Unanswered as error:
        return [f"{capitals(str(error))}."]
    session.took_help("ANALYZE")
    return said


def moves(session: Host, argument: str) -> Output:
    if argument:
        return ["MOVES TAKES NOTHING AFTER IT."]
    board = session.board
    if not board.moves:
        return ["NO MOVES YET."]
    lines: Output = []
    for ply, cell in enumerate(board.moves):
        mark = board.mover(ply)
        owner = session.settings.seats.owner(mark)
        lines.append(f"{ply + 1:>2}. {mark.name} {ply_text(cell, board)}{owner}")
    return lines


def lines(session: Host, argument: str) -> Output:
    board = session.board
    names = {mark.name: mark for mark in board.sides}
    wanted = argument.upper()
    if wanted and wanted not in names:
        choices = ", ".join(names)
        return [f"LINES TAKES A MARK ({choices}) OR NOTHING: {quoted(argument)} IS NOT ONE."]
    marks = [names[wanted]] if wanted else board.sides
    output: Output = []
    for mark in marks:
        lines = board.lines_of(mark)
        listed = ", ".join(line_text(board, line) for line in lines) or "NONE YET"
        output.append(f"{mark.name}'S LINES ({len(lines)}): {listed}")
    return output


def save(session: Host, argument: str) -> Output:
    try:
        names = shlex.split(argument)
    except ValueError:
        return ["A QUOTE IS NOT CLOSED. FOR A NAME WITH SPACES: SAVE 'my game.txt'"]
    if len(names) > 1:
        return ["SAVE TAKES ONE FILE NAME. FOR A NAME WITH SPACES: SAVE 'my game.txt'"]
    return session.save_to(names[0] if names else None)[1]


def export(session: Host, argument: str) -> Output:
    if argument:
        return ["EXPORT TAKES NOTHING AFTER IT."]
    line = savefile.export(session.settings, session.board)
    return [Verbatim(line), session.resume_hint("THE LINE ABOVE")]


def level(session: Host, argument: str) -> Output:
    if not session.settings.seats.machines:
        return [f"NO MACHINE PLAYS IN A {NUMBER_WORDS[session.settings.players]}-PLAYER GAME."]
    name = argument.lower()
    if not name:
        return level_now(session)
    if name == AUTO:
        return level_auto(session)
    rating = typed_rating(name)
    said: Output = []
    if rating is not None:
        step, line = nearest_words(rating)
        name, said = step.name, [line]
    elif name not in LEVELS:
        return [
            f"THERE IS NO LEVEL {quoted(argument)}. TYPE A NAME, A RATING SUCH AS 1400, "
            f"OR {AUTO.upper()}; LEVEL ALONE LISTS THEM."
        ]
    refusal = LEVELS[name].refusal(session.settings.variant)
    if refusal is not None:
        return [f"{capitals(refusal)}."]
    session.set_level(name)
    return said or [f"THE LEVEL IS NOW {name.upper()}."]


def level_now(session: Host) -> Output:
    """LEVEL alone: the machine's level, and the choices (the ladder's steps with their
    ratings, in QUBIC itself)."""
    current = session.settings.level
    step = step_named(current)
    if not session.settings.variant.is_qubic:
        playing = [
            name.upper()
            for name, level in LEVELS.items()
            if level.supports(session.settings.variant)
        ]
        return [
            f"THE MACHINE PLAYS AT LEVEL {current.upper()}.",
            f"TO CHANGE IT, TYPE LEVEL AND ONE OF {', '.join(playing)}.",
        ]
    if session.auto and step is not None:
        now = f"LEVEL {AUTO.upper()}: {step_words(step)}, THE STEP NEAREST YOUR RATING"
    else:
        now = f"LEVEL {current.upper()}"
    return [
        f"THE MACHINE PLAYS AT {now}.",
        steps_line(),
        f"TO CHANGE IT, TYPE LEVEL AND A STEP'S NAME, A RATING (THE NEAREST STEP PLAYS) OR "
        f"{AUTO.upper()} (THE STEP NEAREST YOUR RATING, GAME BY GAME).",
    ]


def level_auto(session: Host) -> Output:
    """LEVEL AUTO: the step nearest the player's rating, chosen again before each game."""
    if not (session.settings.variant.is_qubic and session.settings.seats.one_on_one):
        return ["LEVEL AUTO FOLLOWS YOUR RATING, WHICH ONLY QUBIC AGAINST THE MACHINE MOVES."]
    if session.record is None:
        return ["LEVEL AUTO FOLLOWS YOUR RATING, AND THIS SITTING KEEPS NO RECORD (--no-record)."]
    step = session.follow_rating()
    return [f"THE MACHINE PLAYS AT {step_words(step)}, THE STEP NEAREST YOUR RATING, GAME BY GAME."]


def command_help(session: Host) -> list[tuple[str, str]]:
    """COMMAND_HELP for the game being played: only what works in it."""
    variant = session.settings.variant
    dropped = set()
    if not numbered(variant.geometry):
        dropped.add("17")
    if not variant.threat_theory:
        dropped.add("ANALYZE")
    if not session.settings.seats.machines:
        dropped.add("LEVEL NAME")
    rows = []
    for left, right in COMMAND_HELP:
        if left in dropped:
            continue
        if left == "17":
            right = f"PLAY THE SQUARE NUMBERED 17 ({numbering(variant)})"
        if left.startswith("234") and variant.geometry is not CUBE:
            example = example_move(variant.geometry)
            left = f"{example} or {','.join(example)}"
            if variant.dims == 3:
                right = f"PLAY LEVEL {example[0]}, COLUMN {example[1]}, ROW {example[2]}"
            else:
                right = "PLAY THAT SQUARE (ONE DIGIT PER DIMENSION)"
        rows.append((left, right))
    return rows


def end_help(session: Host) -> list[tuple[str, str]]:
    """What works at a game's end: another game or not, REVIEW, and the commands that read a
    finished game."""
    ending = set(AT_THE_END) - {"SAVE", "EXPORT"} | set(LEAVE)
    return [*END_HELP, *(row for row in command_help(session) if row[0].split()[0] in ending)]


def list_commands(session: Host, argument: str) -> Output:
    if argument:
        return ["HELP TAKES NOTHING AFTER IT."]
    if session.board.is_over():
        return ["AT THE END OF A GAME YOU CAN TYPE:", *table(end_help(session), None)]
    return ["AT YOUR MOVE YOU CAN TYPE:", *table(command_help(session), None)]


def ply_text(cell: int, board: Board) -> str:
    """A move stack entry as MOVES and UNDO name it: the move, or PASS."""
    return "PASS" if cell == PASS else format_cell(cell, board.geometry)


COMMANDS: dict[str, Command] = {
    "SHOW": show,
    "BOARD": show,
    "UNDO": undo,
    "HINT": hint,
    "ANALYZE": analyze_position,
    "MOVES": moves,
    "LINES": lines,
    "SAVE": save,
    "EXPORT": export,
    "LEVEL": level,
    "HELP": list_commands,
}
# What completes after a command: its own words, or FILE for a file name.
ARGUMENTS: dict[str, tuple[str, ...]] = {
    "SHOW": SHOW_OPTIONS,
    "BOARD": SHOW_OPTIONS,
    "LEVEL": (*(name.upper() for name in LEVELS), AUTO.upper()),
    "SAVE": (FILE,),
}
