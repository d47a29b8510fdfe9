"""The `qubic` command: options, then the game."""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import fields
from datetime import date
from importlib.metadata import PackageNotFoundError, version

from qubic import engine, savefile
from qubic.console import PipedAsker, TerminalAsker, run
from qubic.game import COMMAND_HELP, Session
from qubic.levels import DEFAULT_LEVEL, LEVELS
from qubic.puzzle_game import PuzzleSession
from qubic.puzzles import LENGTHS
from qubic.settings import PEOPLE, Settings, parse_seconds

DESCRIPTION = """\
QUBIC: 3-D tic-tac-toe on a 4x4x4 cube against the machine. Four in a straight line wins:
along a row, a column or a pillar, across a level or a vertical slice, or corner to corner
through the cube (76 lines in all). Moves are Level, Column, Row, each 1-4: 234 or 2,3,4.
Type SHOW at your move to see the board, HELP for every command."""
PAUSE = 0.5  # seconds between moves when the machine plays itself


def package_version() -> str:
    try:
        return version("qubic")
    except PackageNotFoundError:
        return "unknown"


def seconds(text: str) -> float:
    """argparse's type for a number of seconds."""
    try:
        return parse_seconds(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number of seconds") from None


def day(text: str) -> date:
    """argparse's type for a date."""
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date like 2026-03-14") from None


def build_parser() -> argparse.ArgumentParser:
    """The options. Those that set up a game default to SUPPRESS, so that the ones given are
    exactly the attributes present: --load refuses them, a new game takes Settings' defaults."""
    parser = argparse.ArgumentParser(prog="qubic", description=DESCRIPTION, epilog=epilog(),
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     argument_default=argparse.SUPPRESS)
    parser.add_argument("mode", nargs="?", choices=["play", "engine", "puzzle"], default="play",
                        help="play the game (the default), run the engine protocol on "
                        "stdin/stdout for other programs (see README), or solve puzzles")
    parser.add_argument("--version", action="version", version=f"qubic {package_version()}")
    parser.add_argument("--seed", type=int, metavar="N",
                        help="seed the machine's choices: same seed and moves, same replies")
    levels = ", ".join(LEVELS)
    parser.add_argument("--level", choices=list(LEVELS), metavar="NAME",
                        help=f"how well the machine plays: {levels} (default {DEFAULT_LEVEL}); "
                        "with --players 0, X's level")
    parser.add_argument("--level-o", choices=list(LEVELS), metavar="NAME",
                        help=f"with --players 0, O's level (default {DEFAULT_LEVEL})")
    parser.add_argument("--players", type=int, choices=list(PEOPLE), metavar="N",
                        help="people at the keyboard: 1 against the machine (default), 2 taking "
                        "turns as X and O, 0 to watch the machine play itself")
    parser.add_argument("--always-show", action="store_true",
                        help="print the board after every move (SHOW ALWAYS / SHOW OFF in game)")
    parser.add_argument("--time-limit", type=seconds, metavar="SECONDS",
                        help="time for each of your turns; when it runs out, the turn passes")
    parser.add_argument("--load", metavar="FILE",
                        help="resume a game saved with SAVE FILE, with its options")
    parser.add_argument("--pause", type=seconds, default=PAUSE, metavar="SECONDS",
                        help=f"with --players 0, the pause between moves (default {PAUSE}; "
                        "none when output is not a terminal)")
    parser.add_argument("--moves", type=int, choices=list(LENGTHS), metavar="N",
                        help="with puzzle: each puzzle's win takes N of your moves, 1-12 "
                        "(default: mixed)")
    parser.add_argument("--daily", action="store_true",
                        help="with puzzle: today's puzzle, the same for everyone")
    parser.add_argument("--date", type=day, metavar="YYYY-MM-DD",
                        help="with puzzle: that day's daily puzzle (implies --daily)")
    parser.add_argument("--no-color", action="store_true", default=False,
                        help="no colour (also when NO_COLOR is set, or output is not a terminal)")
    return parser


def epilog() -> str:
    """The levels and the in-game commands, as two aligned tables."""
    width = max(len(usage) for usage, _ in COMMAND_HELP) + 2
    levels = [f"  {level.name:<{width}}{level.summary}" for level in LEVELS.values()]
    commands = [f"  {usage:<{width}}{meaning}" for usage, meaning in COMMAND_HELP]
    return "\n".join(["levels:", *levels, "", "at YOUR MOVE? you can type:", *commands])


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    given = {field.name: getattr(args, field.name) for field in fields(Settings)
             if hasattr(args, field.name)}
    puzzle_options = [name for name in ("moves", "daily", "date") if hasattr(args, name)]
    if args.mode != "puzzle" and puzzle_options:
        parser.error(f"--{puzzle_options[0]} is for qubic puzzle")
    if args.mode == "engine":
        extra = set(given) - {"level", "seed"} | {"load"} & set(vars(args))
        if extra:
            parser.error(f"the engine takes only --level and --seed, not --{extra.pop()}"
                         .replace("_", "-"))
        return engine.run(given.get("level", DEFAULT_LEVEL), given.get("seed"))
    if args.mode == "puzzle":
        session: Session = puzzle_session(parser, args, given)
    elif hasattr(args, "load"):
        if given:
            option = "--" + next(iter(given)).replace("_", "-")
            parser.error(f"--load resumes the saved game with its own options: drop {option}")
        try:
            session = Session.resume(*savefile.load(args.load))
        except savefile.SaveFileError as error:
            print(f"qubic: cannot load {args.load}: {error}", file=sys.stderr)
            return 2
    else:
        session = Session(Settings(**given))
    terminal = sys.stdout.isatty()
    colour = terminal and not os.environ.get("NO_COLOR") and not args.no_color
    pause = args.pause if terminal else 0.0
    if sys.stdin.isatty():
        asker = TerminalAsker(lambda: session.status, lambda: session.words, colour)
        return run(session, asker, spinner=terminal, colour=colour, pause=pause)
    return run(session, PipedAsker(sys.stdin.fileno(), sys.stdout), pause=pause)


def puzzle_session(parser: argparse.ArgumentParser, args: argparse.Namespace,
                   given: dict[str, object]) -> PuzzleSession:
    """The puzzle sitting the options ask for; it takes only --seed, or --daily/--date."""
    extra = set(given) - {"seed"} | {"load"} & set(vars(args))
    if extra:
        parser.error(f"qubic puzzle takes --moves, --seed, --daily and --date, not "
                     f"--{extra.pop()}".replace("_", "-"))
    daily = getattr(args, "date", None) or (date.today() if hasattr(args, "daily") else None)
    if daily is not None and "seed" in given:
        parser.error("--daily gives everyone the same puzzle: it takes no --seed")
    return PuzzleSession(given.get("seed"), getattr(args, "moves", None), daily)
