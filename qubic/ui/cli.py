"""The `qubic` command: options, then the game."""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import signal
import sys
from collections.abc import Callable
from dataclasses import fields
from datetime import date
from typing import Any, NoReturn

from qubic import __version__
from qubic.core.inputs import QUOTE_LIMIT, NumberError, cut, quoted, whole
from qubic.core.variant import (
    DIMS,
    MAX_SIZE,
    MIN_SIZE,
    SIDES,
    VARIANTS,
    Variant,
    VariantError,
    find_variant,
)
from qubic.play import config, record, savefile
from qubic.play.commands import COMMAND_HELP
from qubic.play.puzzle_session import PuzzleSession
from qubic.play.puzzles import LENGTHS
from qubic.play.rating import AUTO, CHANGES, nearest_words, rating_lines, typed_rating
from qubic.play.review import annotated, review
from qubic.play.session import Session
from qubic.play.settings import PLAYERS, SECONDS_LIMIT, Settings, parse_seconds, parse_seed
from qubic.play.sitting import Sitting
from qubic.play.text import table
from qubic.players.ladder import STEPS
from qubic.players.levels import DEFAULT_LEVEL, LEVELS
from qubic.ui import protocol as engine
from qubic.ui.console import Asker, PipedAsker, TypeAhead, run

VARIANT_OPTIONS = ("size", "dims", "target", "sides", "no_centre")

DESCRIPTION = """\
QUBIC: 3-D tic-tac-toe on a 4x4x4 cube against the machine. Four in a straight
line wins: along a row, a column or a pillar, across a level or a vertical
slice, or corner to corner through the cube (76 lines in all). Moves are Level,
Column, Row, each 1 to 4: 234 or 2,3,4. Type SHOW at your
move to see the board, HELP for every command, QUIT to leave. --variant plays
other cubes: 3x3x3 to ten lines, 4-D on a tesseract for two to four sides.
--tui plays on the full screen, with a cursor, keys and the mouse.

Exit status: 0 when you leave (QUIT, EXIT, NO to another game, Ctrl-D), 130 on
Ctrl-C, 2 for a bad option or a save that cannot be loaded, 1 with no standard
output to write to, 128+N when stopped by signal N (143 for SIGTERM)."""

PAUSE = 0.5  # seconds between moves when the machine plays itself
BOARDS = ["wide", "tall"]  # the console's layouts of the board (--board)
WATCHING = ("level_o", "pause")  # options that mean something only with --players 0
GAME_ONLY = frozenset({"load", "pause", "tui"})  # a game's options no other mode takes
BOARD = frozenset({"board"})  # the console's layout: a game's and the puzzles'
AUTO_PROBLEM = (
    "--level auto follows your rating, which only QUBIC itself moves, one person against "
    "the machine, counted in the record"
)
BROKEN_PIPE = 128 + signal.SIGPIPE  # the status a shell shows for a tool whose reader left
MODES = ["play", "engine", "puzzle", "review", "stats"]
NAME_LIMIT = 255  # characters of a file's name said in a message
STREAMS = (("stdin", os.O_RDONLY), ("stdout", os.O_WRONLY), ("stderr", os.O_WRONLY))


def package_version() -> str:
    return __version__


def seconds(text: str) -> float:
    """argparse's type for a number of seconds."""
    try:
        return parse_seconds(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{quoted(text)} is not a number of seconds from 0.001 to {SECONDS_LIMIT}, "
            "such as 30 or 2.5"
        ) from None


def pause_seconds(text: str) -> float:
    """argparse's type for --pause: a number of seconds, or 0 for no pause."""
    try:
        return parse_seconds(text, zero=True)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{quoted(text)} is not a number of seconds from 0 to {SECONDS_LIMIT}, such as 0.5"
        ) from None


def numbers(parse: Callable[[str], int]) -> Callable[[str], int]:
    """argparse's type for the whole numbers `parse` reads (`whole`, `parse_seed`): ASCII
    digits; its refusal is the message."""

    def number(text: str) -> int:
        try:
            return parse(text)
        except NumberError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    return number


def mode_word(text: str) -> str:
    """argparse's type for the mode; a saved game named in its place is pointed to --load
    (argparse's choices refuse any other word)."""
    if text not in MODES and (
        savefile.is_export(text) or text.endswith(".txt") or os.path.lexists(text)
    ):
        game = shlex.quote(text) if len(text) <= NAME_LIMIT else "FILE"
        raise argparse.ArgumentTypeError(
            f"{quoted(text)} is not a mode; to resume a saved game: qubic --load {game}"
        )
    return text


def level_word(text: str) -> str:
    """argparse's type for --level: a level's name, a rating or auto, in lower case."""
    word = text.lower()
    if word in LEVELS or word == AUTO or typed_rating(word) is not None:
        return word
    raise argparse.ArgumentTypeError(
        f"{quoted(text)} is not a level: a name such as {DEFAULT_LEVEL}, "
        f"a rating such as 1400, or {AUTO}"
    )


def day(text: str) -> date:
    """argparse's type for a date."""
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date like 2026-03-14") from None


class Parser(argparse.ArgumentParser):
    """argparse, but a mistake is told in one line, with where to read more, rather than
    after the whole usage."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {one_line(message)} (see qubic --help)\n")


def one_line(message: str) -> str:
    """argparse's `message` on one line, its long words cut: argparse quotes what was typed
    whole, so a quoted word is cut as `quoted` cuts, any other (a file's name) at NAME_LIMIT."""
    return " ".join(
        cut(word, 3 * QUOTE_LIMIT if word[0] in "'\"" else NAME_LIMIT) for word in message.split()
    )


def build_parser() -> argparse.ArgumentParser:
    """The options. Those that set up a game default to SUPPRESS, so that the ones given are
    exactly the attributes present: --load refuses them, a new game takes Settings' defaults."""
    parser = Parser(
        prog="qubic",
        description=DESCRIPTION,
        epilog=epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        argument_default=argparse.SUPPRESS,
    )
    parser.add_argument(
        "mode",
        nargs="?",
        type=mode_word,
        choices=MODES,
        default="play",
        help="play the game (the default), run the engine protocol on "
        "stdin/stdout for other programs (see docs/protocol.md), solve puzzles, "
        "review GAME (a saved game or an EXPORT line), or print your record (stats)",
    )
    parser.add_argument(
        "game", nargs="?", metavar="GAME", help="with review: the saved game or EXPORT line"
    )
    parser.add_argument("--version", action="version", version=f"qubic {package_version()}")
    parser.add_argument(
        "--seed",
        type=numbers(parse_seed),
        metavar="N",
        help="seed the machine's choices: same seed and moves, same replies; "
        "with puzzle, the puzzles",
    )
    parser.add_argument(
        "--level",
        type=level_word,
        metavar="NAME|RATING|auto",
        help=f"how well the machine plays: a level's name (default {DEFAULT_LEVEL}; see "
        "below), a rating (the nearest step), or auto (the step nearest your rating); "
        "with --players 0, X's level",
    )
    parser.add_argument(
        "--level-o",
        type=level_word,
        metavar="NAME|RATING",
        help=f"with --players 0, O's level (default {DEFAULT_LEVEL})",
    )
    parser.add_argument(
        "--players",
        type=numbers(whole),
        choices=list(PLAYERS),
        metavar="N",
        help="people at the keyboard: 1 against the machine (default), 2 taking "
        "turns as X and O, 0 to watch the machine play itself; people play "
        "the first sides (X, O, Y, Z), the machine the rest",
    )
    parser.add_argument(
        "--variant",
        metavar="NAME",
        help=f"the game: {', '.join(VARIANTS)} (default qubic; see below)",
    )
    parser.add_argument(
        "--size",
        type=numbers(whole),
        metavar="N",
        help=f"squares along each edge, {MIN_SIZE}-{max(MAX_SIZE.values())} "
        f"({MIN_SIZE}-{MAX_SIZE[4]} in 4-D)",
    )
    parser.add_argument(
        "--dims", type=numbers(whole), metavar="D", help=f"dimensions, {DIMS[0]}-{DIMS[-1]}"
    )
    parser.add_argument(
        "--target",
        type=numbers(whole),
        metavar="K",
        help="lines needed to win; 1: the first line wins, more: every line "
        "scores and play goes on",
    )
    parser.add_argument(
        "--no-centre", action="store_true", help="disable the centre square (odd sizes)"
    )
    parser.add_argument(
        "--sides",
        type=numbers(whole),
        metavar="N",
        help=f"marks playing, {SIDES[0]}-{SIDES[-1]}: X O Y Z",
    )
    parser.add_argument(
        "--always-show",
        action="store_true",
        help="print the board after every move, once the machine has replied "
        "(SHOW ALWAYS / SHOW OFF in game)",
    )
    parser.add_argument(
        "--time-limit",
        type=seconds,
        metavar="SECONDS",
        help="time for each of your turns; when it runs out, the turn passes",
    )
    parser.add_argument(
        "--load", metavar="FILE", help="resume a game saved with SAVE FILE, with its options"
    )
    parser.add_argument(
        "--pause",
        type=pause_seconds,
        metavar="SECONDS",
        help=f"with --players 0, the pause between moves (default {PAUSE}; "
        "none when output is not a terminal; 0 for none)",
    )
    parser.add_argument(
        "--moves",
        type=numbers(whole),
        choices=list(LENGTHS),
        metavar="N",
        help="with puzzle: each puzzle's win takes N of your moves, 1-12 (default: mixed)",
    )
    parser.add_argument(
        "--daily", action="store_true", help="with puzzle: today's puzzle, the same for everyone"
    )
    parser.add_argument(
        "--date",
        type=day,
        metavar="YYYY-MM-DD",
        help="with puzzle: that day's daily puzzle (implies --daily)",
    )
    parser.add_argument(
        "--tui",
        action="store_true",
        help="play full screen: a cursor on the board, keys and mouse clicks (? lists the keys)",
    )
    parser.add_argument(
        "--board",
        type=str.lower,
        choices=BOARDS,
        metavar="LAYOUT",
        help="the cube's levels side by side (wide) or one under another "
        "(tall); default wide when the terminal is wide enough",
    )
    parser.add_argument(
        "--no-record",
        action="store_true",
        help="play without counting the game in your record (qubic stats)",
    )
    parser.add_argument(
        "--no-color",
        action="store_true",
        default=False,
        help="no colour (also when NO_COLOR is set, or output is not a terminal)",
    )
    return parser


def epilog() -> str:
    """The variants, the levels and the in-game commands, as tables within the width."""
    variants = table(
        [(v.name, v.summary) for v in VARIANTS.values()]
        + [
            (
                "limits",
                f"sizes {MIN_SIZE}-{max(MAX_SIZE.values())} ({MIN_SIZE}-{MAX_SIZE[4]} in 4-D), "
                f"dims {DIMS[0]}-{DIMS[-1]}, sides {SIDES[0]}-{SIDES[-1]}, "
                "target 1 to the number of lines, --no-centre with odd sizes",
            )
        ]
    )
    rated = {step.name: step.rating for step in STEPS}
    levels = table(
        [
            (
                f"{level.name} {rated[level.name]}" if level.name in rated else level.name,
                level.summary
                + ("" if level.plays == "every variant" else f" ({level.plays} only)"),
            )
            for level in sorted(LEVELS.values(), key=lambda level: rated.get(level.name, 10**9))
        ]
    )
    commands = table(COMMAND_HELP)
    return "\n".join(
        [
            "variants (--variant NAME; --size, --dims, ... change it):",
            *variants,
            "",
            "levels, weakest first, with their ratings (--level NAME, a rating, or auto):",
            *levels,
            "",
            "at YOUR MOVE? you can type:",
            *commands,
            "",
            "the whole guide is in docs/ beside README.md: playing, options, levels,",
            "variants, full screen, puzzles, saved games, the engine protocol, the proof",
        ]
    )


def program_name(argv0: str | None = None) -> str:
    """The program as it was run, for the hints that resume a game: `qubic` when that is what
    the shell finds, else the path it was run by (`.venv/bin/qubic`), or `python -m qubic`."""
    argv0 = sys.argv[0] if argv0 is None else argv0
    if os.path.basename(argv0) == "__main__.py":
        python = os.path.basename(sys.executable)
        found = shutil.which(python)
        same = found is not None and os.path.realpath(found) == os.path.realpath(sys.executable)
        return f"{python if same else sys.executable} -m qubic"
    name = os.path.basename(argv0)
    found = shutil.which(name)
    if found is not None and os.path.exists(argv0) and os.path.samefile(found, argv0):
        return name
    return argv0 if os.sep in argv0 else name


def resolve_levels(
    parser: argparse.ArgumentParser, given: dict[str, Any]
) -> tuple[bool, list[str]]:
    """--level and --level-o as level names: a rating becomes the nearest step, said in a
    line; auto is taken out of `given`, its step chosen game by game. Whether --level is auto,
    and the lines to say."""
    said = []
    for option in ("level", "level_o"):
        word = given.get(option)
        rating = None if word is None else typed_rating(word)
        if rating is not None:
            step, line = nearest_words(rating)
            given[option] = step.name
            said.append(line)
    if given.get("level_o") == AUTO:
        parser.error("--level-o auto: auto follows a person's rating; it is for --level")
    auto = given.get("level") == AUTO
    if auto:
        del given["level"]
    return auto, said


def follows_rating(
    parser: argparse.ArgumentParser, args: argparse.Namespace, settings: Settings
) -> bool:
    """Whether level auto can follow the player's rating in the game `settings` sets up:
    QUBIC itself, one person, counted in the record. Where it cannot, --level auto is an
    error, and the config file's auto gives way to the default level, said in one line."""
    if settings.players == 1 and settings.variant.is_qubic and not hasattr(args, "no_record"):
        return True
    if hasattr(args, "level"):
        parser.error(AUTO_PROBLEM)
    print(f"qubic: not the config file's level auto: {AUTO_PROBLEM}", file=sys.stderr)
    return False


def game_problem(settings: Settings) -> str | None:
    """Why the options make no game (too many people, a level that cannot play it), or None."""
    variant = settings.variant
    if settings.players > variant.sides:
        return f"--players {settings.players}: {variant.name} has only {variant.sides} sides"
    for option, name in (("--level", settings.level), ("--level-o", settings.level_o)):
        refusal = LEVELS[name].refusal(variant)
        if refusal is not None:
            return f"{option} {name}: {refusal}"
    return None


def full_screen(
    parser: argparse.ArgumentParser, session: Session, board: str | None, colour: bool, pause: float
) -> int:
    """--tui: the full-screen game, in a terminal that can show it."""
    if board is not None:
        parser.error("--board lays out the line console's board; --tui draws its own")
    if not (sys.stdin.isatty() and sys.stdout.isatty()) or os.environ.get("TERM") == "dumb":
        parser.error("--tui needs a terminal that can draw a screen")
    from qubic.ui.tui import play as play_full_screen  # prompt_toolkit's full screen: on demand

    return play_full_screen(session, colour, pause)


def main(argv: list[str] | None = None) -> int:
    """Run the program; its exit status. A reader that goes away (`qubic | head`) ends it
    quietly, as it ends other Unix tools."""
    if "stdout" in standard_streams():
        print("qubic: standard output is closed: there is nowhere to play", file=sys.stderr)
        return 1
    if sys.stdin.isatty() and signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        # Started as a background job, which ignores SIGINT; a person at the terminal (after
        # `fg`) still leaves with Ctrl-C.
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return play(argv)
    except BrokenPipeError:
        # Nothing more can be written, not even what is still buffered at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return BROKEN_PIPE


def standard_streams() -> list[str]:
    """The standard streams that were closed (`qubic <&-`), each opened again on /dev/null, so
    that no file the program opens takes its place; their names. Output that the locale
    cannot encode is written with `?` in its place, rather than ending the program."""
    closed = []
    for fd, (name, flags) in enumerate(STREAMS):
        try:
            os.fstat(fd)
        except OSError:
            opened = os.open(os.devnull, flags)
            if opened != fd:
                os.dup2(opened, fd)
                os.close(opened)
            closed.append(name)
        if getattr(sys, name) is None:
            setattr(sys, name, open(fd, "r" if fd == 0 else "w", closefd=False))  # noqa: SIM115
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")
    return closed


def play(argv: list[str] | None) -> int:
    """The options, then the mode they ask for: review, stats, the engine, puzzles or a game;
    the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    given: dict[str, Any] = {
        field.name: getattr(args, field.name)
        for field in fields(Settings)
        if hasattr(args, field.name)
    }
    changes = {name: getattr(args, name) for name in VARIANT_OPTIONS if hasattr(args, name)}
    puzzle_options = [name for name in ("moves", "daily", "date") if hasattr(args, name)]
    if args.mode != "puzzle" and puzzle_options:
        parser.error(f"--{puzzle_options[0]} is for qubic puzzle")
    if args.mode != "review" and getattr(args, "game", None) is not None:
        parser.error(f"unexpected {quoted(args.game)}: only qubic review takes a game")
    if args.mode == "review":
        return review_game(parser, args, given, changes)
    if args.mode == "stats":
        if given or changes or len(vars(args)) > 2:
            parser.error("qubic stats takes no option")
        return print_record()
    if args.mode == "engine":
        return run_engine(parser, args, given, changes)
    defaults = read_config() if args.mode == "play" and not hasattr(args, "load") else {}
    if args.mode == "puzzle":
        puzzles = puzzle_session(parser, args, given, changes)
        return in_console(puzzles, wants_colour(args, defaults), 0.0, getattr(args, "board", None))
    if hasattr(args, "load"):
        loaded = loaded_session(parser, args, given, changes)
        if loaded is None:
            return 2
        session = loaded
    else:
        session = new_session(parser, args, given, changes, defaults)
    return run_session(parser, args, session, defaults)


def run_engine(
    parser: argparse.ArgumentParser,
    args: argparse.Namespace,
    given: dict[str, Any],
    changes: dict[str, Any],
) -> int:
    """`qubic engine`: the protocol, with only --level and --seed of the game's options."""
    playing = (GAME_ONLY | BOARD) & set(vars(args))
    extra = set(given) - {"level", "seed"} | playing | set(changes)
    if extra:
        parser.error(
            f"the engine takes only --level and --seed, not --{extra.pop()}".replace("_", "-")
        )
    if resolve_levels(parser, given)[0]:
        parser.error(
            "--level auto follows your rating in the game; the engine takes a name or a rating"
        )
    return engine.run(given.get("level", DEFAULT_LEVEL), given.get("seed"))


def loaded_session(
    parser: argparse.ArgumentParser,
    args: argparse.Namespace,
    given: dict[str, Any],
    changes: dict[str, Any],
) -> Session | None:
    """The game `--load` names, resumed; None when it cannot be loaded (said on stderr)."""
    if given or changes:
        option = "--" + next(iter([*given, *changes])).replace("_", "-")
        parser.error(f"--load resumes the saved game with its own options: drop {option}")
    try:
        loaded = savefile.load(args.load)
    except savefile.SaveFileError as error:
        print(f"qubic: cannot load {cut(args.load, NAME_LIMIT)}: {error}", file=sys.stderr)
        return None
    path = None if savefile.is_export(args.load) else args.load
    return Session.resume(*loaded, path=path)


def new_session(
    parser: argparse.ArgumentParser,
    args: argparse.Namespace,
    given: dict[str, Any],
    changes: dict[str, Any],
    defaults: dict[str, str | bool],
) -> Session:
    """A new game with the options given, the config's defaults where none is."""
    try:
        given["variant"] = find_variant(given.get("variant", "qubic")).with_options(**changes)
    except VariantError as error:
        parser.error(str(error))
    if "level" in defaults and "level" not in given:
        given["level"] = config_level(str(defaults["level"]), given)
    if defaults.get("always-show") and "always_show" not in given:
        given["always_show"] = True
    auto, said = resolve_levels(parser, given)
    settings = Settings(**given)
    problem = game_problem(settings)
    if problem:
        parser.error(problem)
    session = Session(settings)
    session.opening += said
    session.auto = auto and follows_rating(parser, args, settings)
    return session


def run_session(
    parser: argparse.ArgumentParser,
    args: argparse.Namespace,
    session: Session,
    defaults: dict[str, str | bool],
) -> int:
    """Play `session` in the full screen, a terminal or through pipes; the exit status."""
    session.program = program_name()
    if not hasattr(args, "no_record") and args.mode == "play":
        session.record = record.record_path()
        if session.record is None:
            print(f"qubic: games are not counted: {record.NO_HOME}", file=sys.stderr)
    if session.auto:
        session.follow_rating()
    terminal = sys.stdout.isatty()
    watching = session.settings.players == 0
    pointless = [name for name in WATCHING if hasattr(args, name)] if not watching else []
    if pointless:
        parser.error(
            f"--{pointless[0].replace('_', '-')} is only for --players 0, "
            "where the machine plays itself"
        )
    if watching and terminal:
        session.settings.always_show = True  # watching, a person wants to see the board
    colour = wants_colour(args, defaults)
    pause = getattr(args, "pause", PAUSE) if terminal else 0.0
    board = getattr(args, "board", None)
    if board is None and isinstance(defaults.get("board"), str) and not hasattr(args, "tui"):
        board = str(defaults["board"])
    if hasattr(args, "tui"):
        return full_screen(parser, session, board, colour, pause)
    return in_console(session, colour, pause, board)


def wants_colour(args: argparse.Namespace, defaults: dict[str, str | bool]) -> bool:
    """Colour in a terminal, unless TERM is dumb, NO_COLOR is set, --no-color is given or the
    config file says no."""
    dumb = os.environ.get("TERM") == "dumb"
    colour = sys.stdout.isatty() and not dumb and not os.environ.get("NO_COLOR")
    return colour and not args.no_color and defaults.get("colour", True) is not False


def terminal_asker(sitting: Sitting, colour: bool) -> tuple[Asker, TypeAhead]:
    """The asker of `sitting`'s questions in a terminal, and the keys typed ahead for it.
    prompt_toolkit is loaded only here: piped input and the other commands start without it."""
    from qubic.ui.terminal import TerminalAsker

    typeahead = TypeAhead(sys.stdin.fileno())
    return TerminalAsker(lambda: sitting.status, sitting.words, colour, typeahead), typeahead


def in_console(sitting: Sitting, colour: bool, pause: float, board: str | None) -> int:
    """Play `sitting` in a terminal, or through pipes; the exit status."""
    terminal = sys.stdout.isatty()
    if sys.stdin.isatty():
        asker, typeahead = terminal_asker(sitting, colour)
        return run(
            sitting,
            asker,
            spinner=terminal,
            colour=colour,
            pause=pause,
            typeahead=typeahead,
            wrap=terminal,
            board=board,
        )
    piped = PipedAsker(sys.stdin.fileno(), sys.stdout, sys.stdin.encoding)
    return run(sitting, piped, pause=pause, board=board)


def config_level(name: str, given: dict[str, Any]) -> str:
    """The config file's level for the game `given` sets up, or, where that level cannot play
    its variant, the default level, with one line to say why."""
    variant: Variant = given["variant"]
    refusal = None if name == AUTO else LEVELS[name].refusal(variant)
    if refusal is None:
        return name
    if given.get("players", 1) < variant.sides:  # the machine plays: say which level
        print(
            f"qubic: not the config file's level {name}: {refusal}; "
            f"the machine plays at level {DEFAULT_LEVEL}",
            file=sys.stderr,
        )
    return DEFAULT_LEVEL


def print_record() -> int:
    """qubic stats: the record as a table. A damaged store set aside, or a record that cannot
    be read, is said in one line on stderr."""
    path = record.record_path()
    if path is None:
        print(f"qubic: no record is kept: {record.NO_HOME}", file=sys.stderr)
        return 1
    try:
        with record.Store.open(path, create=False) as store:
            if store.notice is not None:
                print(f"qubic: {store.notice}", file=sys.stderr)
            counts = store.counts()
            ratings = store.ratings(CHANGES + 1)
    except record.RecordError as error:
        print(f"qubic: cannot read your record: {error}", file=sys.stderr)
        return 1
    print(f"YOUR RECORD ({path}):")
    print("\n".join(record.table(counts)))
    print("\n".join(rating_lines(ratings)))
    return 0


def read_config() -> dict[str, str | bool]:
    """The defaults in the config file; a file that cannot be read is said in one line, and
    the game starts with the built-in defaults."""
    try:
        return config.load(config.config_path())
    except config.ConfigError as error:
        print(f"qubic: ignoring the config file: {error}", file=sys.stderr)
        return {}


def review_game(
    parser: argparse.ArgumentParser,
    args: argparse.Namespace,
    given: dict[str, Any],
    changes: dict[str, object],
) -> int:
    """qubic review GAME: the annotated move list through a pipe; in a terminal, the game's
    positions stepped through as REVIEW does at the end of a game."""
    game = getattr(args, "game", None)
    if game is None:
        parser.error("qubic review needs a game: a saved game's file or an EXPORT line")
    extra = [*given, *changes, *((GAME_ONLY | BOARD) & set(vars(args)))]
    if extra:
        parser.error(f"qubic review takes only the game, not --{extra[0]}".replace("_", "-"))
    try:
        settings, board = savefile.load(game, finished=True)
    except savefile.SaveFileError as error:
        print(f"qubic: cannot review {cut(game, NAME_LIMIT)}: {error}", file=sys.stderr)
        return 2
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        print("\n".join(annotated(review(board))))
        return 0
    session = Session(settings)
    session.board = board
    session.program = program_name()
    session.review_ends = True
    session.opening = [*session.opening, *session.start_review()]
    colour = not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"
    asker, typeahead = terminal_asker(session, colour)
    return run(session, asker, colour=colour, typeahead=typeahead, wrap=True)


def puzzle_session(
    parser: argparse.ArgumentParser,
    args: argparse.Namespace,
    given: dict[str, Any],
    changes: dict[str, object],
) -> PuzzleSession:
    """The puzzle sitting the options ask for (on the 4x4x4 cube): --moves, and --seed or
    --daily/--date."""
    extra = set(given) - {"seed"} | GAME_ONLY & set(vars(args)) | set(changes)
    if extra:
        parser.error(
            f"qubic puzzle takes --moves, --seed, --daily, --date, --board and --no-color, not "
            f"--{extra.pop()}".replace("_", "-")
        )
    daily = getattr(args, "date", None) or (date.today() if hasattr(args, "daily") else None)
    if daily is not None and "seed" in given:
        parser.error("--daily gives everyone the same puzzle: it takes no --seed")
    return PuzzleSession(given.get("seed"), getattr(args, "moves", None), daily)
