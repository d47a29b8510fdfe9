"""The `qubic` command: options, then the game."""

from __future__ import annotations

import argparse
import sys
from importlib.metadata import PackageNotFoundError, version

from qubic.console import PipedAsker, TerminalAsker, run
from qubic.game import Session

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
    parser = argparse.ArgumentParser(prog="qubic", description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"qubic {package_version()}")
    parser.add_argument("--seed", type=int, metavar="N",
                        help="seed the machine's choices: same seed and moves, same replies")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    session = Session(seed=args.seed)
    asker = TerminalAsker() if sys.stdin.isatty() else PipedAsker(sys.stdin, sys.stdout)
    return run(session, asker)
