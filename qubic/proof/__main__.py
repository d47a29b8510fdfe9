"""`python -m qubic.proof`: the proof's commands, each resuming where it stopped.

solve     prove that X wins, from the checkpoint
book      write the strategy book from the checkpoint
verify    walk the strategy and check every line
all       solve, book and verify, in order
opening   rebuild expert's opening book
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from qubic.proof import book, cli, opening_build, solve, verify
from qubic.proof.checkpoint import place
from qubic.proof.pool import Stopped, stop_on_signals, workers
from qubic.proof.progress import duration
from qubic.search import strategy


def run_all(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """`all`: solve, write the book and verify it, each step resuming where it stopped; the
    files in `--dir` (default: the package's). Each step's wall time is reported."""
    start, prover = cli.start_and_prover(parser, args)
    choices = cli.chosen(parser, args)
    where = place(args.dir, args.checkpoint)
    times: list[str] = []
    # Workers of their own for each step: the solver's units still running when the proof
    # is complete are not needed, and end with its workers.
    began = time.perf_counter()
    with workers(args.workers, args.scheduler) as pool:
        outcome = solve.run_solve(args, where, start, prover, pool, choices)
    times.append(f"solve {duration(time.perf_counter() - began)}")
    if not outcome:
        print("the proof is not complete: no book written", flush=True)
        return 1
    began = time.perf_counter()
    with workers(args.workers, args.scheduler) as pool:
        status = book.run_book(args, where, start, prover, pool, choices)
    times.append(f"book {duration(time.perf_counter() - began)}")
    if status:
        print("the book has gaps: not verified", flush=True)
        return status
    began = time.perf_counter()
    entries = strategy.load(where.strategy)
    with workers(args.workers, args.scheduler) as pool:
        status = verify.check(
            start, entries, where.verify_journal, pool=pool, fast=prover == "fast", leaf=args.leaf
        )
    times.append(f"verify {duration(time.perf_counter() - began)}")
    print("wall time: " + ", ".join(times), flush=True)
    return status


def add_all_arguments(parser: argparse.ArgumentParser) -> None:
    solve.add_solve_arguments(parser)
    cli.add_leaf_argument(parser, "the leaf rule the book is built for and verified under")


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
            book.__doc__,
            book.add_arguments,
            book.book,
        ),
        (
            "verify",
            "walk the strategy and check every line",
            verify.__doc__,
            verify.add_arguments,
            verify.verify,
        ),
        ("all", "solve, book and verify, in order", run_all.__doc__, add_all_arguments, run_all),
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
    stop_on_signals()
    try:
        return run(sub, args)
    except Stopped:  # (the step said what it keeps)
        return 130
    except KeyboardInterrupt:
        print("stopped; what is finished is kept: run again to resume", flush=True)
        return 130


STOPPED = 130  # the exit status of a stop by SIGINT or SIGTERM

if __name__ == "__main__":
    status = main()
    if status == STOPPED:
        # A stop: everything kept is written; leave without waiting on the ended pool's
        # threads at exit, which can hang when its workers were killed mid-task.
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)
    sys.exit(status)
