"""Crashes, hangs and the rough edges around them, as a hostile user meets them: through the
real program, with pipes, closed streams, signals and a pseudo-terminal.

Every outside number is read by one parser (`qubic.core.inputs`): ASCII digits, bounded, one
line of our own words. Every error is one line with long tokens cut; none shows Python's words.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pexpect
import pytest
from hypothesis import given
from hypothesis import strategies as st

from qubic.core.board import Board, Mark
from qubic.core.inputs import MAX_DIGITS, NumberError, decimal, whole
from qubic.core.notation import format_cell
from qubic.play import record, savefile
from qubic.play.settings import Settings
from qubic.players.normal import NormalPlayer
from qubic.ui.protocol import LINE_LIMIT
from tests.conftest import (
    HUGE,
    Child,
    clean,
    expect_prompt,
    program_env,
    qubic_command,
    run_piped,
    spawn,
)
from tests.scripted import find_game

SEED = 5
MOVE = r"YOUR MOVE\?"


def run_bytes(*args: str, stdin: bytes = b"", timeout: float = 60, **env: str):
    """The program with `stdin` piped in as bytes; output as bytes."""
    return subprocess.run(
        [qubic_command(), *args],
        input=stdin,
        capture_output=True,
        env=program_env(**env),
        timeout=timeout,
        check=False,
    )


def shell(command: str, timeout: float = 60, **env: str) -> subprocess.CompletedProcess:
    """`command` in sh, `Q` standing for the program, with no standard input of its own."""
    return subprocess.run(
        ["sh", "-c", command.replace("Q", qubic_command())],
        capture_output=True,
        text=True,
        env=program_env(**env),
        timeout=timeout,
        check=False,
        stdin=subprocess.DEVNULL,
    )


def win_line() -> tuple[str, str]:
    """An exported game one move before X wins it against normal, and that move."""
    game = find_game(Mark.X, NormalPlayer(SEED))
    line = savefile.export(Settings(seed=SEED), Board.from_moves(game.moves[:-1]))
    return line, format_cell(game.moves[-1])


def config_home(tmp_path: Path) -> Path:
    folder = tmp_path / "config" / "qubic"
    folder.mkdir(parents=True)
    return folder / "config.toml"


# The one number parser.


@pytest.mark.parametrize(
    "text", ["²", "٣", "1_0", "1e10", "inf", "nan", "+5", "0x10", "", " ", "1 0", "--1", HUGE]
)
def test_a_number_is_ascii_digits_within_limits(text):
    with pytest.raises(NumberError) as refused:
        whole(text, 0, 10**6)
    message = str(refused.value)
    assert "\n" not in message and len(message) < 80
    clean(message)
    with pytest.raises(NumberError):
        decimal(text, 0.001, 86_400)


def test_numbers_read_as_people_write_them():
    assert whole(" 42 ") == 42 and whole("007") == 7 and whole("0" * 40 + "9") == 9
    assert whole("-3", -5, 5) == -3
    assert decimal("2.5") == 2.5 and decimal(".5") == 0.5 and decimal("30") == 30.0
    assert decimal("0.0004", 0.0, 1.0) == 0.0, "to the millisecond"
    for text, low, high in (("-3", 0, 9), ("10", 0, 9), ("9" * (MAX_DIGITS + 1), 0, 10**30)):
        with pytest.raises(NumberError):
            whole(text, low, high)


@given(st.text(max_size=80))
def test_any_text_is_a_number_or_one_line_of_refusal(text):
    for parse in (whole, decimal):
        try:
            number = parse(text)
        except NumberError as error:
            assert "\n" not in str(error) and len(str(error)) < 300  # 20 characters, escaped
        else:
            assert number >= 0 and text.strip().replace(".", "", 1).isdigit()


# Item 7: a record count written with a non-ASCII digit.


@pytest.mark.slow
def test_a_record_with_a_non_ascii_digit_neither_crashes_stats_nor_a_game(tmp_path):
    if not hasattr(record, "Store"):
        pytest.skip("the SQLite record, which takes over record.txt, has not landed")
    data = tmp_path / "data"
    (data / "qubic").mkdir(parents=True)
    (data / "qubic" / "record.txt").write_text("qubic-record 1\nnormal first ² 0 0\n")
    stats = run_piped("stats", XDG_DATA_HOME=str(data))
    assert stats.returncode == 0
    clean(stats.stdout + stats.stderr)
    line, move = win_line()
    game = run_piped("--load", line, stdin=f"{move}\nno\n", XDG_DATA_HOME=str(data))
    assert "YOU WIN!" in game.stdout and game.returncode == 0
    clean(game.stdout + game.stderr)
    child = spawn("--load", line, "--no-color", XDG_DATA_HOME=str(data))
    expect_prompt(child, MOVE)
    child.sendline(move)
    child.expect("YOU WIN!")
    expect_prompt(child, r"DO YOU WANT TO PLAY ANOTHER GAME\?")
    child.sendline("no")
    child.expect(pexpect.EOF)
    clean(child.before)


# The engine.


class Engine:
    """`qubic engine`, spoken to in bytes: each line sent, then `isready`, to see what came
    back in between."""

    def __init__(self, **env: str) -> None:
        self.process = subprocess.Popen(
            [qubic_command(), "engine", "--seed", "1"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=program_env(**env),
        )

    def answers(self, line: bytes) -> list[str]:
        """What the engine answers to `line`, up to the `readyok` after it."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(line + b"\nisready\n")
        self.process.stdin.flush()
        lines = []
        while (answer := self.process.stdout.readline()) != b"readyok\n":
            assert answer, "the engine is alive"
            lines.append(answer.decode("utf-8"))
        return lines

    def close(self) -> tuple[int, str]:
        """Quit; the exit status and what went to standard error."""
        _, errors = self.process.communicate(b"quit\n", timeout=30)
        return self.process.returncode, errors.decode("utf-8", "replace")


@pytest.fixture
def engine():
    process = Engine(LC_ALL="C.UTF-8")
    yield process
    if process.process.poll() is None:
        process.process.kill()
        process.process.wait()


ENGINE_LINES = [
    (b"go movetime \xc2\xb2", "error movetime must be a positive whole number of ms"),
    (b"variant qubic size \xc2\xb2", "error size: '\u00b2' is not a whole number"),
    (b"variant qubic size " + HUGE.encode(), "error size:"),
    (b"go movetime " + HUGE.encode(), "error movetime must be"),
    (b"go level normal movetime 1" + b"0" * 400, "error movetime must be"),
    (b"go movetime 1_0", "error movetime must be"),
    (b"go movetime 86400001", "error movetime must be"),
    (b"isready\xff", "error a line must be UTF-8 text"),
    (b"\xff\xfe\x00garbage", "error a line must be UTF-8 text"),
    (b"position startpos moves " + b"1" * 1_000_000, "error a line is at most"),
    (b"position startpos moves " + b"7" * 50_000, "error move 1 '7777777777"),
    (b"variant " + b"x" * 50_000, "error there is no variant 'xxxxx"),
    (b"variant qubic " + b"y" * 50_000, "error unknown setting 'yyyy"),
    (b"variant qubic size", "error size needs a whole number: size N"),
    (b"go \x00\x00", "error unknown go option"),
]


@pytest.mark.parametrize("line, answer", ENGINE_LINES, ids=[str(i) for i in range(15)])
def test_the_engine_answers_every_bad_line_with_one_error_and_lives(engine, line, answer):
    [said] = engine.answers(line)
    assert said.startswith(answer) and said.endswith("\n")
    assert len(said) < 200, "long tokens are cut"
    clean(said)
    assert engine.answers(b"go movetime 50")[0].startswith("bestmove ")
    status, errors = engine.close()
    assert status == 0 and errors == ""


def test_the_engine_reads_a_line_of_its_limit_and_refuses_one_byte_more(engine):
    command = b"variant"
    padded = command + b" " * (LINE_LIMIT - len(command) - 1)  # the newline makes LINE_LIMIT
    assert engine.answers(padded) == ["variant qubic size 4 dims 3 target 1 sides 2\n"]
    [said] = engine.answers(padded + b" ")
    assert said == f"error a line is at most {LINE_LIMIT} bytes: this one was skipped\n"


def test_engine_ctrl_c_exits_130():
    engine = Engine()
    assert engine.answers(b"") == []
    engine.process.send_signal(signal.SIGINT)
    assert engine.process.wait(timeout=30) == 130
    assert engine.process.stderr is not None
    clean(engine.process.stderr.read().decode())


# Item 9: the REVIEW question.


@pytest.mark.slow
def test_review_takes_any_junk_as_no_step():
    line, move = win_line()
    script = f"{move}\nREVIEW\n²\n{HUGE}\n٣\n99\nq\nno\n"
    result = run_piped("--load", line, stdin=script)
    assert result.returncode == 0 and result.stderr == ""
    clean(result.stdout)
    refusals = [text for text in result.stdout.splitlines() if "IS NOT A REVIEW STEP" in text]
    assert len(refusals) == 3 and all(len(text) < 200 for text in refusals)


# Item 10: closed streams.


@pytest.mark.slow
@pytest.mark.parametrize(
    "command, status, said",
    [
        ("Q stats <&-", 0, "YOUR RECORD"),
        ("Q --version <&-", 0, "qubic "),
        ("Q <&-", 0, "GOODBYE"),
        ("Q engine <&-", 0, ""),
        ("Q review 'qubic-save 2' <&-", 2, ""),
        ("Q --help <&- 2>&-", 0, "usage: qubic"),
    ],
)
def test_a_closed_standard_input_reads_as_empty(command, status, said):
    result = shell(command)
    assert result.returncode == status and said in result.stdout
    clean(result.stdout + result.stderr)


@pytest.mark.slow
@pytest.mark.parametrize("command", ["Q >&-", "Q engine >&-", "Q stats >&-", "Q --version >&-"])
def test_a_closed_standard_output_is_said_in_one_line(command):
    result = shell(command)
    assert result.returncode == 1
    assert result.stderr == "qubic: standard output is closed: there is nowhere to play\n"


def test_a_closed_standard_error_keeps_errors_out_of_the_output():
    result = shell("Q --time-limit soon 2>&-")
    assert result.returncode == 2 and result.stdout == ""


# Items 11 and 21: time limits, pauses and seeds.


@pytest.mark.parametrize(
    "options, words",
    [
        (["--time-limit", "1e10"], "argument --time-limit: '1e10' is not a number of seconds"),
        (["--time-limit", "1_0"], "argument --time-limit: '1_0' is not a number of seconds"),
        (
            ["--time-limit", "86401"],
            "argument --time-limit: '86401' is not a number of seconds from 0.001 to 86400",
        ),
        (["--time-limit", "nan"], "argument --time-limit: 'nan'"),
        (["--players", "0", "--pause", "1e300"], "argument --pause: '1e300' is not a number"),
        (["--seed", "²"], "argument --seed: '²' is not a whole number"),
        (["--seed", HUGE], "argument --seed: '10000000000000000000'... is too long"),
        (["--size", "٣"], "argument --size: '٣' is not a whole number"),
        (["--players", "1_0"], "argument --players: '1_0' is not a whole number"),
        (["puzzle", "--moves", "²"], "argument --moves: '²' is not a whole number"),
        (["--level", "x" * 5000], "argument --level: "),
        (["--frobnicate=" + "y" * 5000], "unrecognized arguments: --frobnicate=yyy"),
    ],
)
def test_an_outside_number_is_refused_in_one_short_line(options, words):
    result = run_piped(*options)
    assert result.returncode == 2 and result.stdout == ""
    [line] = result.stderr.splitlines()
    assert line.startswith(f"qubic: error: {words}") and line.endswith("(see qubic --help)")
    assert len(line) < 320
    clean(line)


def test_a_time_limit_to_the_millisecond_plays():
    result = run_piped("--time-limit", "2.5", "--seed", "1", stdin="no\nyes\nquit\n")
    assert result.returncode == 0 and result.stderr == ""


@pytest.mark.parametrize(
    "value, words",
    [
        ("1e300", "time-limit '1e300' is not a positive number of seconds"),
        (HUGE, "time-limit '10000000000000000000'... is not a positive number of seconds"),
        ("1_0", "time-limit '1_0' is not a positive number of seconds"),
    ],
)
def test_a_saved_time_limit_out_of_bounds_is_refused(tmp_path, value, words):
    path = tmp_path / "game.txt"
    savefile.save(str(path), Settings(time_limit=30.0), Board())
    path.write_text(path.read_text().replace("time-limit: 30.0", f"time-limit: {value}"))
    result = run_piped("--load", str(path))
    assert result.returncode == 2
    assert result.stderr == f"qubic: cannot load {path}: {words} (at most 86400)\n"


# The config.


SCRIPT = "no\nyes\nLEVEL\nquit\nno\n"


def test_a_fifo_as_the_config_is_refused_at_once(tmp_path):
    path = config_home(tmp_path)
    os.mkfifo(path)
    result = run_piped(stdin=SCRIPT, timeout=20, XDG_CONFIG_HOME=str(tmp_path / "config"))
    assert result.stderr == (
        f"qubic: ignoring the config file: {path}: cannot read it: "
        "it is a named pipe (FIFO), not a regular file\n"
    )
    assert "THE MACHINE PLAYS AT LEVEL NORMAL." in result.stdout


@pytest.mark.slow
@pytest.mark.parametrize(
    "contents, reason",
    [
        (None, "cannot read it: it is a device, not a regular file"),  # /dev/zero
        (b"level = '" + b"x" * 20_000_000 + b"'\n", "cannot read it: it is larger than 64 kB"),
        (b"level = " + b"x" * 30_000 + b"\n", "line 1: level takes a quoted word"),
        (b"x" * 30_000 + b"\n", "line 1: expected key = value, not 'xxxxxxxxxxxxxxxxxxxx'..."),
        (b"level = '\xff'\n", "cannot read it: it is not UTF-8 text"),
        (b'level = "hard"\nlevel = "easy"\n', "line 2: level is given twice"),
        (b"colour = true\ncolor = false\n", "line 2: color is given twice (color and colour"),
        (b"always-show = maybe" + b"!" * 9000, "line 1: always-show is true or false, not 'm"),
    ],
)
def test_a_config_that_cannot_be_read_is_one_short_line(tmp_path, contents, reason):
    path = config_home(tmp_path)
    if contents is None:
        path.symlink_to("/dev/zero")
    else:
        path.write_bytes(contents)
    result = run_piped(stdin=SCRIPT, timeout=30, XDG_CONFIG_HOME=str(tmp_path / "config"))
    [line] = result.stderr.splitlines()
    assert line.startswith(f"qubic: ignoring the config file: {path}")
    assert reason in line and len(line) < len(str(path)) + 140
    clean(line)
    assert result.returncode == 0 and "THE MACHINE PLAYS AT LEVEL NORMAL." in result.stdout


def test_a_config_folder_is_said_in_our_words(tmp_path):
    path = config_home(tmp_path)
    path.mkdir()
    result = run_piped(stdin=SCRIPT, XDG_CONFIG_HOME=str(tmp_path / "config"))
    assert (
        result.stderr
        == f"qubic: ignoring the config file: {path}: cannot read it: it is a folder\n"
    )


def test_a_config_may_start_with_a_bom_and_say_color(tmp_path):
    config_home(tmp_path).write_bytes(b'\xef\xbb\xbflevel = "hard"\ncolor = false\n')
    result = run_piped(stdin=SCRIPT, XDG_CONFIG_HOME=str(tmp_path / "config"))
    assert result.stderr == "" and "THE MACHINE PLAYS AT LEVEL HARD." in result.stdout


@pytest.mark.slow
def test_color_false_in_the_config_turns_colour_off_in_a_terminal(tmp_path):
    config_home(tmp_path).write_text("color = false\n")
    child = spawn("--seed", "3", XDG_CONFIG_HOME=str(tmp_path / "config"))
    expect_prompt(child, r"DO YOU WANT INSTRUCTIONS\?")
    child.sendline("no")
    expect_prompt(child, r"DO YOU WANT TO MOVE FIRST\?")
    child.sendline("yes")
    expect_prompt(child, MOVE)
    child.sendline("show")
    child.expect("LEVEL 4")
    expect_prompt(child, MOVE)
    board = child.before
    child.sendcontrol("d")
    child.expect(pexpect.EOF)
    assert "\x1b[3" not in board and "\x1b[9" not in board, "no colour"


@pytest.mark.slow
@pytest.mark.parametrize(
    "level, options, refusal",
    [
        ("hard", ["--variant", "tesseract", "--sides", "3"], "two-sided games"),
        ("classic", ["--variant", "cube3"], "QUBIC (4x4x4"),
    ],
)
def test_a_config_level_that_cannot_play_the_variant_falls_back(tmp_path, level, options, refusal):
    config_home(tmp_path).write_text(f'level = "{level}"\n')
    result = run_piped(*options, stdin=SCRIPT, XDG_CONFIG_HOME=str(tmp_path / "config"))
    assert result.returncode == 0
    [line] = result.stderr.splitlines()
    assert line.startswith(f"qubic: not the config file's level {level}: level {level} plays")
    assert refusal in line and line.endswith("; the machine plays at level normal")
    assert "--level" not in line
    assert "THE MACHINE PLAYS AT LEVEL NORMAL." in result.stdout
    # Typed on the command line, the same level is still the user's mistake, named as such.
    typed = run_piped(*options, "--level", level, XDG_CONFIG_HOME=str(tmp_path / "config"))
    assert typed.returncode == 2 and f"--level {level}:" in typed.stderr


# Item 14: any locale.


def test_input_the_locale_cannot_show_is_no_crash(tmp_path):
    # PYTHONIOENCODING stands in for a Latin-1 locale, which this machine may not have.
    script = "no\nyes\nx\u20ac\u00e9\nSAVE caf\u00e9.txt\nquit\n".encode()
    env = {"PYTHONIOENCODING": "latin-1"}
    result = subprocess.run(
        [qubic_command(), "--seed", "1"],
        input=script,
        capture_output=True,
        env=program_env(**env),
        cwd=tmp_path,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0 and result.stderr == b""
    assert b"IS NOT A MOVE" in result.stdout and b"GAME SAVED TO" in result.stdout
    [saved] = tmp_path.iterdir()
    assert len(savefile.load(str(saved))[1].moves) == 0


@pytest.mark.slow
@pytest.mark.parametrize("locale", ["C", "C.UTF-8", "POSIX"])
def test_any_locale_plays_through_a_pipe(locale):
    script = "no\nyes\n\u00b2\u20ac\udc80\n111\nquit\nno\n".encode("utf-8", "surrogateescape")
    result = run_bytes("--seed", "1", stdin=script + b"\xff\xfe\n", LC_ALL=locale, LANG=locale)
    assert result.returncode == 0 and result.stderr == b""
    assert result.stdout.count(b"IS NOT A MOVE") == 1


# Item 15: SIGTERM and SIGHUP in the console put the terminal back.


def stopped_in_a_terminal(signum: int, thinking: bool) -> str:
    """Run the game in a shell in a pseudo-terminal, send it `signum` at a question or while
    the machine thinks, and return what `stty -a` says afterwards."""
    options = "--level expert --seed 1 --no-color" if thinking else "--seed 3 --no-color"
    inner = f'echo "PID $$"; exec {qubic_command()} {options}'
    child = Child(
        "sh",
        ["-c", f"sh -c '{inner}'; echo \"STATUS $?\"; stty -a"],
        env=program_env(),
        encoding="utf-8",
        dimensions=(50, 120),
        timeout=30,
    )
    child.expect(r"PID (\d+)")
    pid = int(child.match.group(1))
    expect_prompt(child, r"DO YOU WANT INSTRUCTIONS\?")
    child.sendline("no")
    expect_prompt(child, r"DO YOU WANT TO MOVE FIRST\?")
    child.sendline("yes")
    if thinking:  # expert thinks for seconds after 111 222 141
        for cell in ("111", "222", "141"):
            expect_prompt(child, MOVE)
            child.sendline(cell)
        child.expect("THINKING")
    else:
        expect_prompt(child, MOVE)
    os.kill(pid, signum)
    child.expect(r"STATUS (\d+)")
    status = int(child.match.group(1))
    child.expect(pexpect.EOF)
    settings = child.before
    assert status == 128 + signum
    assert "Traceback" not in settings
    return settings


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
@pytest.mark.parametrize("thinking", [False, True], ids=["at a question", "while it thinks"])
def test_told_to_stop_the_console_puts_the_terminal_back(signum, thinking):
    settings = stopped_in_a_terminal(signum, thinking)
    assert re.search(r"(?<!-)icanon\b", settings) and re.search(r"(?<!-)echo\b", settings)


@pytest.mark.slow
def test_sigterm_in_a_piped_game_exits_143_without_a_traceback():
    process = subprocess.Popen(
        [qubic_command(), "--seed", "1"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=program_env(),
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(b"no\n")
    process.stdin.flush()
    deadline = time.monotonic() + 20
    seen = b""
    while b"MOVE FIRST?" not in seen and time.monotonic() < deadline:
        seen += os.read(process.stdout.fileno(), 4096)
    process.terminate()
    out, errors = process.communicate(timeout=20)
    assert process.returncode == 143 and errors == b""
    assert (seen + out).rstrip().endswith(b"GOODBYE. THANKS FOR PLAYING QUBIC.")


# A saved game named where the mode goes.


@pytest.mark.slow
def test_a_game_file_in_place_of_the_mode_points_to_load(tmp_path):
    path = tmp_path / "game.txt"
    savefile.save(str(path), Settings(), Board())
    for game, shown in (
        (str(path), str(path)),
        ("game.txt", "game.txt"),
        ("x" * 300 + ".txt", "FILE"),
    ):
        result = run_piped(game)
        assert result.returncode == 2
        [line] = result.stderr.splitlines()
        assert f"is not a mode; to resume a saved game: qubic --load {shown} " in line
        assert len(line) < 150 + len(shown)
    typo = run_piped("stast")
    assert "invalid choice: 'stast'" in typo.stderr and "--load" not in typo.stderr
