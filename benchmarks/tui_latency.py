"""How long a keypress takes to show on the full screen (`qubic --tui`), idle and while the
machine thinks at level expert, printed as a Markdown table.

    pip install -e '.[test]' && python benchmarks/tui_latency.py       # 100 keys each
    python benchmarks/tui_latency.py --keys 300

The real program runs in a pseudo-terminal of 80x24 read through a terminal emulator (pyte).
Each sample sends one cursor key (right, then left, by turns) and times until the screen
shows the cursor on its new cell: the line under the board names it. Idle: you to move,
against expert. Thinking: expert plays itself (--players 0, no pause); only keys sent and
drawn while the status bar says THINKING count.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from pathlib import Path

import pexpect
import pyte
from bench import percentile, table

ROOT = Path(__file__).resolve().parent.parent
CELLS = {"\x1b[C": "121 (SQUARE 2)", "\x1b[D": "111 (SQUARE 1)"}  # the key, where it goes
GIVE_UP = 5.0  # seconds to wait for one key to show


class Screen:
    """`qubic --tui ARGS` in an 80x24 pseudo-terminal, and what it shows."""

    def __init__(self, *args: str) -> None:
        program = Path(sys.executable).parent / "qubic"
        env = dict(os.environ, TERM="xterm", PROMPT_TOOLKIT_NO_CPR="1")
        self.child = pexpect.spawn(
            str(program), ["--tui", *args], env=env, dimensions=(24, 80), encoding="utf-8"
        )
        self.child.delaybeforesend = None  # pexpect waits 50 ms before each send otherwise
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.Stream(self.screen)

    def read(self, timeout: float) -> None:
        with contextlib.suppress(pexpect.TIMEOUT):
            self.stream.feed(self.child.read_nonblocking(1 << 16, timeout=timeout))

    def lines(self) -> list[str]:
        return self.screen.display

    def wait(self, text: str, timeout: float = 20.0) -> None:
        deadline = time.monotonic() + timeout
        while not any(text in line for line in self.lines()):
            if time.monotonic() > deadline:
                raise TimeoutError(f"{text!r} never showed:\n" + "\n".join(self.lines()))
            self.read(0.05)

    def thinking(self) -> bool:
        return "THINKING" in self.lines()[0]

    def close(self) -> None:
        self.child.sendcontrol("c")
        self.child.expect(pexpect.EOF)
        self.child.close()


def press(screen: Screen, key: str) -> float:
    """Send `key` and time until the cursor shows on its cell; milliseconds."""
    start = time.perf_counter()
    screen.child.send(key)
    while not screen.lines()[7].startswith(f" {CELLS[key]}:"):
        if time.perf_counter() - start > GIVE_UP:
            raise TimeoutError("the key never showed")
        screen.read(GIVE_UP)
    return (time.perf_counter() - start) * 1000


def samples(screen: Screen, count: int, while_thinking: bool) -> list[float]:
    keys = list(CELLS)
    found: list[float] = []
    pressed = 0
    while len(found) < count:
        time.sleep(0.02)
        screen.read(0)
        if while_thinking and "ANOTHER GAME" in screen.lines()[7]:
            screen.child.send("n")  # the machine's game is over: the next one
            screen.wait("THINKING")
            continue
        before = screen.thinking()
        taken = press(screen, keys[pressed % 2])
        pressed += 1
        if not while_thinking or (before and screen.thinking()):
            found.append(taken)
    return found


def row(name: str, values: list[float]) -> list[object]:
    return [
        name,
        len(values),
        f"{percentile(values, 0.5):.1f}",
        f"{percentile(values, 0.95):.1f}",
        f"{max(values):.1f}",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keys", type=int, default=100, help="samples in each case")
    args = parser.parse_args()
    rows = []
    idle = Screen("--level", "expert", "--seed", "1")
    idle.wait("111 (SQUARE 1)")
    rows.append(row("idle, you to move", samples(idle, args.keys, False)))
    idle.close()
    busy = Screen(
        "--players", "0", "--level", "expert", "--level-o", "expert", "--pause", "0", "--seed", "1"
    )
    busy.wait("THINKING")
    rows.append(row("expert thinking", samples(busy, args.keys, True)))
    busy.close()
    print(table(["keypress to draw", "keys", "median ms", "p95 ms", "max ms"], rows))


if __name__ == "__main__":
    main()
