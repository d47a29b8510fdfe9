"""How long the installed `qubic` command takes to start and answer, as a Markdown table.

    pip install -e . && python benchmarks/startup.py            # 21 runs of each
    python benchmarks/startup.py --runs 5

Each command runs with its input piped, as scripts and the tests run it: the help, the engine
told to quit, the record's stats, and a game that is asked its first question and gets end of
input. Median and slowest wall-clock milliseconds, process start included.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import time

from bench import installed_qubic, table

COMMANDS = {  # what is timed: the arguments and the input piped in
    "qubic --help": (["--help"], ""),
    "qubic engine": (["engine"], "quit\n"),
    "qubic stats": (["stats"], ""),
    "qubic (a game, ended at once)": (["--no-record"], ""),
}


def timed(program: str, args: list[str], stdin: str) -> float:
    start = time.perf_counter()
    subprocess.run([program, *args], input=stdin, capture_output=True, text=True, check=False)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=21, help="runs of each command")
    args = parser.parse_args()
    program = installed_qubic()
    rows = []
    for name, (arguments, stdin) in COMMANDS.items():
        ms = [1000 * timed(program, arguments, stdin) for _ in range(args.runs)]
        rows.append([name, args.runs, f"{statistics.median(ms):.0f}", f"{max(ms):.0f}"])
    print(table(["command", "runs", "median ms", "slowest ms"], rows))


if __name__ == "__main__":
    main()
