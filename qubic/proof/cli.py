"""The command-line options and checks that the proof's steps share."""

from __future__ import annotations

import argparse
from pathlib import Path

from qubic.core.board import Board
from qubic.core.notation import parse_cell
from qubic.proof.choices import CHOICES, ChoicesError, load_choices
from qubic.proof.unit import UNIT_GROWTH, UNIT_NODES, UNIT_RUNS, fast_prover_available
from qubic.search.strategy import Entries


def add_place_arguments(parser: argparse.ArgumentParser) -> None:
    """`--dir` and `--scheduler`, which every step of the proof takes."""
    parser.add_argument(
        "--dir",
        type=Path,
        help="keep the checkpoint, the journals and the strategy book in this folder, "
        "created if missing (default: the package's files)",
    )
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run the work on this Dask scheduler's workers (the cluster extra), "
        "e.g. tcp://10.0.0.5:8786, instead of local processes",
    )


def add_leaf_argument(parser: argparse.ArgumentParser, what: str) -> None:
    """`--leaf`: the rule for the positions the strategy must hold; `what` says its use."""
    from qubic.proof.leaf import LEAVES

    parser.add_argument(
        "--leaf",
        choices=LEAVES,
        default="ours",
        help=f"{what}: ours (X's forced wins by threats, where O's blocks may make threes that "
        "X blocks with threats) or patashnik (forced wins by threats alone; every other "
        "position is an entry); default ours",
    )


def legal_moves(parser: argparse.ArgumentParser, texts: list[str], what: str) -> list[int]:
    """The cells `texts` name, a legal line from the empty cube; else a usage error naming
    them as `what`."""
    try:
        moves = [parse_cell(text) for text in texts]
        Board.from_moves(moves)
    except ValueError as error:
        parser.error(f"bad {what}: {error}")
    return moves


def add_unit_arguments(parser: argparse.ArgumentParser) -> None:
    """The options `solve` and `book` share."""
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument(
        "--prover",
        choices=["auto", "python", "fast"],
        default="auto",
        help="the units' prover: fast is compiled with numba (the solver "
        "extra), python is plain Python (no extra, slower); auto (default) takes fast "
        "when numba is installed",
    )
    parser.add_argument(
        "--unit-nodes",
        type=int,
        help=f"df-pn expansions of a unit's first run (default "
        f"{UNIT_NODES['python']:,} with the python prover, "
        f"{UNIT_NODES['fast']:,} with fast); one left unknown runs again with "
        f"{UNIT_GROWTH} times as many, up to {UNIT_RUNS} runs",
    )
    parser.add_argument(
        "--checkpoint",
        type=Path,
        help="the file to resume from and append to (default: DIR's, else the package's)",
    )
    parser.add_argument(
        "--start",
        nargs="+",
        metavar="MOVE",
        help="prove the position after these moves instead of the empty cube",
    )
    add_place_arguments(parser)


def add_choices_argument(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("--choices", type=Path, default=CHOICES, metavar="FILE", help=what)


def chosen(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Entries:
    """The choices `--choices` names; a usage error if its file cannot be read."""
    try:
        return load_choices(args.choices)
    except (OSError, UnicodeDecodeError, ChoicesError) as error:
        parser.error(f"bad --choices {args.choices}: {error}")


def start_and_prover(
    parser: argparse.ArgumentParser, args: argparse.Namespace
) -> tuple[list[int], str]:
    """The start moves and the prover's name the options ask for; a usage error if wrong."""
    start = legal_moves(parser, args.start or [], "--start moves")
    prover = args.prover
    if prover == "auto":
        prover = "fast" if fast_prover_available() else "python"
    elif prover == "fast" and not fast_prover_available():
        parser.error("--prover fast needs numba: pip install -e '.[solver]'")
    return start, prover
