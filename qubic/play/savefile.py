"""Saved games: a plain-text format, written atomically and read back with every field checked.

A saved game is a version line, then one `key: value` line for each key, in any order:

    qubic-save 2
    variant: qubic size 4 dims 3 target 1 sides 2
    players: 1
    human: X
    level: normal
    level-o: normal
    first: O
    always-show: no
    time-limit: 30.0
    seed: 5
    moves: 143 111 -- 222

`variant` names the game as the engine protocol does (`variant.parse_spec`). `moves` lists
the turns in order in move notation, `--` for a turn that passed when its time ran out.
`human` is fixed by `players` (the first sides: `X`, `X O`, ..., or `none`); `time-limit` and
`seed` may be `none`. Loading replays every move, so a file that loads is a game in progress.
Version 1 files, from before variants, have no `variant` line and load as QUBIC.

The same text on one line, its lines joined by `; `, is the game's export: `--load` takes it
in place of a file name. Only text that starts `qubic-save N;` (a version number, then the
next line) is an export: `qubic-save-mine.txt` is a file name.

A save file is read only if it is a regular file of at most LIMIT bytes (1 MB; a 4-D game
is some 3 kB), so a FIFO, a device or a folder is refused at once. A save is written
through a temporary file in the same folder (see `qubic.core.files`): a new name is claimed
with a hard link, so two games saving to one name at once never overwrite each other, and a
file is replaced only when the caller says the game wrote it.
"""

from __future__ import annotations

import os
import re
import stat
from datetime import datetime

from qubic.core import files
from qubic.core.board import PASS, Board, Mark
from qubic.core.notation import NotationError, format_cell, parse_cell
from qubic.core.variant import QUBIC, VariantError, parse_spec
from qubic.play.settings import PLAYERS, SECONDS_LIMIT, Settings, parse_seconds, parse_seed
from qubic.play.text import quoted
from qubic.players.levels import LEVELS

MAGIC = "qubic-save"
VERSION = 2
OLD_KEYS = (
    "players",
    "human",
    "level",
    "level-o",
    "first",
    "always-show",
    "time-limit",
    "seed",
    "moves",
)
KEYS = ("variant", *OLD_KEYS)
KEYS_BY_VERSION = {f"{MAGIC} 1": OLD_KEYS, f"{MAGIC} {VERSION}": KEYS}
PASS_TOKEN = "--"
EXPORT_JOIN = "; "
EXPORT_START = re.compile(rf"{MAGIC} [0-9]+ *(;|$)")
LIMIT = files.SAVE_LIMIT  # bytes: the largest save file read


class SaveFileError(Exception):
    """A game that cannot be saved or loaded; the message says why in one line."""


class NameTaken(SaveFileError):
    """A save to a new name found the name taken meanwhile (by another game's save)."""


def dumps(settings: Settings, board: Board) -> str:
    """The saved-game text for `board` played with `settings`."""
    values = {
        "variant": settings.variant.spec,
        "players": str(settings.players),
        "human": _human(settings.players),
        "level": settings.level,
        "level-o": settings.level_o,
        "first": board.first.name,
        "always-show": "yes" if settings.always_show else "no",
        "time-limit": _optional(settings.time_limit),
        "seed": _optional(settings.seed),
        "moves": " ".join(
            PASS_TOKEN if cell == PASS else format_cell(cell, board.geometry)
            for cell in board.moves
        ),
    }
    lines = [f"{MAGIC} {VERSION}", *(f"{key}: {values[key]}".rstrip() for key in KEYS)]
    return "\n".join(lines) + "\n"


def export(settings: Settings, board: Board) -> str:
    """The saved-game text on one line, for EXPORT (and `--load LINE`)."""
    return EXPORT_JOIN.join(dumps(settings, board).splitlines())


def is_export(text: str) -> bool:
    """Whether `text` is an exported game (`qubic-save 2; variant: ...`) rather than, say, a
    file name (`qubic-save-mine.txt`)."""
    stripped = text.strip()
    return "\n" not in stripped and EXPORT_START.match(stripped) is not None


def loads(text: str, finished: bool = False) -> tuple[Settings, Board]:
    """The settings and position a saved-game text (or its export line) holds;
    SaveFileError if anything is off (with `finished`, a game over is not)."""
    lines = (
        [line.strip() for line in text.split(EXPORT_JOIN.strip())]
        if is_export(text)
        else text.splitlines()
    )
    if not lines or not lines[0].startswith(MAGIC):
        raise SaveFileError("not a qubic saved game")
    keys = KEYS_BY_VERSION.get(lines[0])
    if keys is None:
        raise SaveFileError(f"{quoted(lines[0])}: this qubic reads {' and '.join(KEYS_BY_VERSION)}")
    values: dict[str, str] = {}
    for number, line in enumerate(lines[1:], start=2):
        key, colon, value = line.partition(":")
        key = key.strip()
        if not colon:
            raise SaveFileError(f"line {number} is not 'key: value'")
        if key not in keys:
            raise SaveFileError(f"line {number}: unknown key {quoted(key)}")
        if key in values:
            raise SaveFileError(f"line {number}: {key!r} is given twice")
        values[key] = value.strip()
    missing = [key for key in keys if key not in values]
    if missing:
        raise SaveFileError(f"{missing[0]!r} is missing")
    try:
        settings = _settings(values)
        sides = tuple(mark.name for mark in Mark)[: settings.variant.sides]
        first = Mark[_choice("first", values["first"], sides)]
    except VariantError as error:
        raise SaveFileError(f"variant: {error}") from None
    except ValueError as error:
        raise SaveFileError(str(error)) from None
    return settings, _replay(values["moves"], first, settings, finished)


def save(path: str, settings: Settings, board: Board, replace: bool = False) -> None:
    """Write the game to `path` atomically and durably.

    A new name is claimed exclusively: NameTaken if another file appears there meanwhile,
    or if another saved game is there and not `replace`. An existing file is replaced only
    with `replace` (the caller's word that this game wrote it) and only if it is a saved
    game; a symbolic link is then followed, so the file it points to is replaced and keeps
    its mode. SaveFileError, in one line, for anything else: a folder, a FIFO or a device
    (never opened), a link to nothing, a file that is not a saved game, or one that cannot
    be written."""
    text = dumps(settings, board)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        info = None
        # A name another game claims meanwhile is a file, not a link: the claim below says so.
        if os.path.islink(path) and not os.path.exists(path):
            raise SaveFileError("it is a symbolic link to nothing: choose another name") from None
    except OSError as error:
        raise SaveFileError(files.reason(error)) from None
    folder = os.path.dirname(os.path.realpath(path)) if info else os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        raise SaveFileError("there is no such folder")
    files.clean_stale(folder)
    if info is None:
        try:
            files.write_atomic(path, text, exclusive=True)
        except files.NameTaken:
            raise NameTaken("another file took the name meanwhile: choose another") from None
        except files.FileError as error:
            raise SaveFileError(str(error)) from None
        return
    if not stat.S_ISREG(info.st_mode):
        raise SaveFileError(files.kind_words(info.st_mode))
    try:
        first = files.read_text(path, LIMIT).split("\n", 1)[0]
    except files.FileError as error:
        if os.access(path, os.R_OK):
            first = ""  # too large, or not text: not a saved game
        else:
            raise SaveFileError(f"it exists and cannot be read: {error}") from None
    if not first.startswith(MAGIC):
        raise SaveFileError("it exists and is not a qubic saved game")
    if not replace:  # taken: by another game's save of the same second, or before
        raise NameTaken("it holds another saved game: choose another name")
    try:
        files.write_atomic(path, text)
    except files.FileError as error:
        raise SaveFileError(str(error)) from None


def load(path: str, finished: bool = False) -> tuple[Settings, Board]:
    """The game saved in `path`, or exported as `path` (an EXPORT line); SaveFileError if it
    is missing, unreadable, not a regular file, larger than LIMIT or corrupt (with
    `finished`, a game over is fine: to review)."""
    if is_export(path):
        return loads(path, finished)
    try:
        text = files.read_text(path, LIMIT)
    except files.FileError as error:
        message = "not a text file" if str(error) == "it is not UTF-8 text" else str(error)
        raise SaveFileError(message) from None
    return loads(text, finished)


def suggested_name(now: datetime, directory: str = ".") -> str:
    """A file name for a game saved at `now` that no file in `directory` has yet, e.g.
    qubic-2026-11-22-153007.txt (to the second), then -2, -3, ... within the same second:
    a name made up for the player never lands on a file already there."""
    stem = f"qubic-{now:%Y-%m-%d-%H%M%S}"
    name, count = f"{stem}.txt", 1
    while os.path.lexists(os.path.join(directory, name)):
        count += 1
        name = f"{stem}-{count}.txt"
    return name


def _human(players: int) -> str:
    return " ".join(mark.name for mark in Mark if mark < players) or "none"


def _optional(value: float | int | None) -> str:
    return "none" if value is None else repr(value)


def _choice(key: str, value: str, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise ValueError(f"{key}: {quoted(value)} is not one of {', '.join(choices)}")
    return value


def _settings(values: dict[str, str]) -> Settings:
    variant = parse_spec(values["variant"].split()) if "variant" in values else QUBIC
    players = int(
        _choice("players", values["players"], tuple(str(n) for n in PLAYERS if n <= variant.sides))
    )
    if values["human"] != _human(players):
        raise ValueError(f"human {quoted(values['human'])} does not fit players {players}")
    for key in ("level", "level-o"):
        if values[key] not in LEVELS:
            raise ValueError(f"{key}: there is no level {quoted(values[key])}")
        refusal = LEVELS[values[key]].refusal(variant)
        if refusal is not None:
            raise ValueError(f"{key}: {refusal}")
    time_limit = values["time-limit"]
    seed = values["seed"]
    try:
        seconds = None if time_limit == "none" else parse_seconds(time_limit)
    except ValueError:
        raise ValueError(
            f"time-limit {quoted(time_limit)} is not a positive number of seconds"
            f" (at most {SECONDS_LIMIT})"
        ) from None
    try:
        number = None if seed == "none" else parse_seed(seed)
    except ValueError:
        raise ValueError(f"seed {quoted(seed)} is not a whole number") from None
    return Settings(
        players=players,
        level=values["level"],
        level_o=values["level-o"],
        always_show=_choice("always-show", values["always-show"], ("yes", "no")) == "yes",
        time_limit=seconds,
        seed=number,
        variant=variant,
    )


def _replay(moves: str, first: Mark, settings: Settings, finished: bool = False) -> Board:
    board = Board(settings.variant, first)
    for number, token in enumerate(moves.split(), start=1):
        if board.is_over():
            raise SaveFileError(f"move {number} comes after the end of the game")
        if token == PASS_TOKEN:
            if board.turn not in settings.seats.persons:
                raise SaveFileError(f"move {number} is a pass by the machine, which never passes")
            board.push_pass()
            continue
        try:
            # Saves name squares by every coordinate: a shorter token is a move cut short.
            cell = parse_cell(token, board.geometry, numbers=False)
        except NotationError as error:
            raise SaveFileError(f"move {number} {quoted(token)}: {error}") from None
        if not board.is_legal(cell):
            raise SaveFileError(f"move {number} {quoted(token)} is on a used square")
        board.push(cell)
    if board.is_over() and not finished:
        raise SaveFileError("the game in it is already over")
    return board
