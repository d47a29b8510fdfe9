"""`python -m qubic.proof`: the proof's commands, each resuming where it stopped.

solve     prove that X wins, from the checkpoint
book      write the strategy book from the checkpoint
verify    walk the strategy and check every line
opening   rebuild expert's opening book
"""

from __future__ import annotations

import argparse
import sys

from qubic.proof import opening_build, solve, verify


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m qubic.proof",
        description="QUBIC's proof: search, book and verifier.",
        epilog="docs/proof.md explains each step.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    steps = [
        (
            "solve",
            "prove that X wins, resuming from the checkpoint",
            solve.__doc__,
            solve.add_solve_arguments,
            solve.solve,
        ),
        (
            "book",
            "write the strategy book from the checkpoint",
            solve.book.__doc__,
            solve.add_arguments,
            solve.book,
        ),
        (
            "verify",
            "walk the strategy and check every line",
            verify.__doc__,
            verify.add_arguments,
            verify.verify,
        ),
        (
            "opening",
            "rebuild expert's opening book",
            opening_build.__doc__,
            opening_build.add_arguments,
            opening_build.opening,
        ),
    ]
    runs = {}
    for name, summary, doc, add, run in steps:
        sub = commands.add_parser(
            name,
            help=summary,
            description=doc,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        add(sub)
        runs[name] = (sub, run)
    args = parser.parse_args(argv)
    sub, run = runs[args.command]
    return run(sub, args)


if __name__ == "__main__":
    sys.exit(main())
