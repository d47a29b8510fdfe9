"""The `qubic` command: options, then the game."""

from __future__ import annotations

import argparse
import sys
from importlib.metadata import PackageNotFoundError, version

from qubic import engine
from qubic.console import PipedAsker, TerminalAsker, run
from qubic.game import COMMAND_HELP, Session
from qubic.levels import DEFAULT_LEVEL, LEVELS

DESCRIPTION = """\
QUBIC: 3-D tic-tac-toe on a 4x4x4 cube against the machine. Four in a straight line wins:
along a row, a column or a pillar, across a level or a vertical slice, or corner to corner
through the cube (76 lines in all). Moves are Level, Column, Row, each 1-4: 234 or 2,3,4.
Type SHOW at your move to see the board."""


def package_version() -> str:
    try:
        return version("qubic")
    except PackageNotFoundError:
        return "unknown"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="qubic", description=DESCRIPTION, epilog=epilog(),
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", nargs="?", choices=["play", "engine"], default="play",
                        help="play the game (the default), or run the engine protocol on "
                        "stdin/stdout for other programs (see README)")
    parser.add_argument("--version", action="version", version=f"qubic {package_version()}")
    parser.add_argument("--seed", type=int, metavar="N",
                        help="seed the machine's choices: same seed and moves, same replies")
    parser.add_argument("--level", choices=list(LEVELS), default=DEFAULT_LEVEL,
                        metavar="NAME", help=f"how well the machine plays: {', '.join(LEVELS)} "
                        f"(default {DEFAULT_LEVEL})")
    return parser


def epilog() -> str:
    """The levels and the in-game commands, as two aligned tables."""
    width = max(len(usage) for usage, _ in COMMAND_HELP) + 2
    levels = [f"  {level.name:<{width}}{level.summary}" for level in LEVELS.values()]
    commands = [f"  {usage:<{width}}{meaning}" for usage, meaning in COMMAND_HELP]
    return "\n".join(["levels:", *levels, "", "at YOUR MOVE? you can type:", *commands])


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.mode == "engine":
        return engine.run(args.level, args.seed)
    session = Session(level=args.level, seed=args.seed)
    if sys.stdin.isatty():
        return run(session, TerminalAsker(), spinner=sys.stdout.isatty())
    return run(session, PipedAsker(sys.stdin, sys.stdout))
