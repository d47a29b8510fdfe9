"""Running the installed `qubic` program, in a pseudo-terminal or with piped input."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pexpect
import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parent.parent
BEGINNERS = {"starter", "easy"}  # the levels that may overlook a win or a three

# A test run started in the background (`... &` in a script) ignores SIGINT, and one started
# by nohup SIGHUP; every program it starts would inherit that (and a game keeps a signal
# ignored from the start). Both are tested as a terminal delivers them to a foreground job.
signal.signal(signal.SIGINT, signal.default_int_handler)
signal.signal(signal.SIGHUP, signal.SIG_DFL)

# Hypothesis times each example against a deadline; on a shared machine that is a flaky timed
# test, so no example has one.
settings.register_profile("untimed", deadline=None)
settings.load_profile("untimed")


def qubic_command() -> str:
    """The installed console script: beside this Python first, else on PATH."""
    beside = Path(sys.executable).parent / "qubic"
    found = str(beside) if beside.exists() else shutil.which("qubic")
    if found is None:
        pytest.fail("the qubic command is not installed: pip install -e '.[test]'")
    return found


# The programs the tests run keep their record and read their config here, never in the
# real home's folders.
XDG = tempfile.mkdtemp(prefix="qubic-tests-")


def program_env(**extra: str) -> dict[str, str]:
    # pexpect is not a terminal that answers cursor position requests: say so up front, or
    # prompt_toolkit waits for an answer and then prints a warning.
    env = dict(os.environ, TERM="xterm", PYTHONPATH=str(ROOT), PROMPT_TOOLKIT_NO_CPR="1")
    env.pop("NO_COLOR", None)
    # The terminal's size is the pseudo-terminal's, which the tests set: COLUMNS and LINES
    # (pytest-xdist's workers have them) would override it.
    env.pop("COLUMNS", None)
    env.pop("LINES", None)
    env["XDG_DATA_HOME"] = os.path.join(XDG, "data")
    env["XDG_CONFIG_HOME"] = os.path.join(XDG, "config")
    env.update(extra)
    return env


class Child(pexpect.spawn):
    """pexpect's spawn without its fixed pauses. Keys go at once: pexpect waits 50 ms before
    every send, for programs that drop keys typed before they ask, and the tests wait for
    the prompt to be drawn instead (`expect_prompt`). A close waits for a child that has
    ended its output to exit, where pexpect sleeps 0.1 s on every close."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.delaybeforesend = None
        self.ptyproc.delayafterclose = 0

    def close(self, force: bool = True) -> None:
        deadline = time.monotonic() + 5
        while self.flag_eof and self.isalive() and time.monotonic() < deadline:
            time.sleep(0.002)
        super().close(force)


def spawn(
    *args: str,
    timeout: float = 20,
    columns: int = 120,
    cwd: str | None = None,
    preexec_fn: Callable[[], None] | None = None,
    **env: str,
) -> Child:
    """The program in a real pseudo-terminal, so prompt_toolkit is what asks; `preexec_fn`
    runs in the child before the program starts."""
    return Child(
        qubic_command(),
        list(args),
        env=program_env(**env),
        cwd=cwd,
        encoding="utf-8",
        timeout=timeout,
        dimensions=(50, columns),
        preexec_fn=preexec_fn,
    )


def run_piped(
    *args: str, stdin: str = "", timeout: float = 60, **env: str
) -> subprocess.CompletedProcess:
    """The program with `stdin` piped in and its output captured."""
    return subprocess.run(
        [qubic_command(), *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=program_env(**env),
        timeout=timeout,
        check=False,
    )


# prompt_toolkit shows the cursor again once it has drawn the prompt, by which time the terminal
# is in raw mode. Keys sent earlier meet the cooked line discipline, which eats a Ctrl-D. The
# drawing spans lines (below the prompt it keeps room for the completion menu and the toolbar),
# so a fresh prompt is told from the redrawing of an answered one by how it starts: bracketed
# paste is switched on, then only control sequences come before the question.
FRESH = r"\x1b\[\?2004h(?:\x1b\[[0-9;?]*[A-Za-z])*[^\x1b\n]*?"
DRAWN = r"[\s\S]*?\x1b\[\?25h"


def prompt_pattern(question: str) -> str:
    """A regex for `question` (itself a regex) asked afresh and drawn, ready for keys."""
    return FRESH + question + DRAWN


def expect_prompt(child: pexpect.spawn, question: str) -> None:
    """Wait until `question` (a regex) is asked and the prompt is ready for keys."""
    child.expect(prompt_pattern(question))


def expect_goodbye(child: pexpect.spawn, status: int = 0) -> None:
    """The program says goodbye and exits with `status`, without a traceback."""
    child.expect("GOODBYE")
    child.expect(pexpect.EOF)
    assert "Traceback" not in child.before
    child.close()
    assert child.exitstatus == status


# Python's own words, which no message of ours may show.
PYTHON_WORDS = (
    "Traceback",
    "invalid literal",
    "Exceeds the limit",
    "not None",
    "[Errno",
    "Error:",
    "Error(",
    "could not convert",
    "codec can't",
    "object has no attribute",
)
HUGE = "1" + "0" * 5000  # a number past every limit, and past int()'s digits


def clean(text: str) -> None:
    """No traceback and none of Python's words in `text`."""
    for words in PYTHON_WORDS:
        assert words not in text, f"{words!r} in {text[:300]!r}"
