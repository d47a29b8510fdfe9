"""The fuzz suite: random and hostile bytes at every door the program opens to the
outside, each door checked by one property.

- the save loader (`savefile.load` of a file, `savefile.loads` of a text or an export line);
- the config reader (`config.load`);
- the record reader (`record.Store.open` and its counts, as `qubic stats` reads them);
- the engine protocol, one `qubic engine` subprocess for many lines;
- every console question, one `qubic` subprocess per question, through pipes.

Each property asserts one line of our own words (no traceback, none of Python's words), a
program still alive and asking, and no file changed (a damaged record is kept whole, aside).

CI runs a few hundred examples in all, derandomized, so a run is repeatable (the FUZZ
settings); `benchmarks/fuzz.py` runs the same doors with many more, at random, and counts.
"""

from __future__ import annotations

import copy
import os
import select
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from qubic.core.board import Board, Mark
from qubic.core.notation import format_cell, parse_cell
from qubic.play import config, record, savefile
from qubic.play.session import Session
from qubic.play.settings import Settings
from qubic.players.normal import NormalPlayer
from tests.conftest import HUGE, clean, program_env, qubic_command
from tests.scripted import find_game

# The settings of CI's fuzz run: few examples, the same each time, no deadline (a subprocess
# answers in milliseconds, but a loaded machine can take longer).
FUZZ = settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
    ],
)
# Examples for each door in CI (about 400 in all).
EXAMPLES = {
    "save loader": 60,
    "config reader": 60,
    "record reader": 30,
    "engine": 60,
    "question": 30,  # each of the console's questions
}
ANSWER_SECONDS = 30.0  # the longest a program may take to answer one line before it hangs
LINE_BYTES = 400  # the longest line any answer may be (a quoted token, escaped, and words)

# Words a hostile user types: digits that are not ASCII, numbers too long or in other
# notations, control and format characters, quotes, paths, escapes and empty things.
HOSTILE = [
    "\u00b2",
    "\u0663",
    "\uff11\uff11\uff11",
    "\U0001d7d9\U0001d7d9\U0001d7d9",
    "1_0",
    "1e10",
    "1e300",
    "inf",
    "nan",
    "-1",
    "+1",
    "0",
    "00",
    "0" * 400,
    "9" * 30,
    HUGE,
    "1,1,1",
    "1,,1",
    ",",
    "5",
    "555",
    "99",
    "\x00",
    "\x1a",
    "\x1b[2J",
    "\r",
    "\t",
    "\ufeff",
    "\u202e",
    "\u2028",
    "\x85",
    "'",
    '"',
    "\\",
    "%s",
    "{}",
    "../../etc/passwd",
    "/dev/zero",
    "~",
    "$HOME",
    "\u00e9",
    "\u20ac",
    "x" * 3000,
    "",
]


def hostile_text(vocabulary: list[str]) -> st.SearchStrategy[str]:
    """Lines of hostile words mixed with a surface's own words and random text."""
    word = st.one_of(
        st.sampled_from(HOSTILE),
        st.sampled_from(vocabulary) if vocabulary else st.nothing(),
        st.text(max_size=12),
    )
    return st.lists(word, max_size=8).map(" ".join)


def hostile_line(vocabulary: list[str]) -> st.SearchStrategy[bytes]:
    """One line of input, as bytes, without its newline: hostile words, random bytes, or a
    surface's word followed by random bytes."""
    return st.one_of(
        hostile_text(vocabulary).map(lambda text: text.encode("utf-8")),
        st.binary(max_size=300),
        st.tuples(st.sampled_from(vocabulary or [""]), st.binary(max_size=60)).map(
            lambda pair: pair[0].encode() + b" " + pair[1]
        ),
    ).map(lambda data: data.replace(b"\n", b""))


def one_line(message: str) -> None:
    """`message` is one line of our own words, of bounded length."""
    assert "\n" not in message and "\r" not in message, repr(message[:300])
    assert 0 < len(message) <= LINE_BYTES, repr(message[:300])
    clean(message)


def snapshot(folder: Path) -> dict[str, tuple[int, int, bytes]]:
    """Every file under `folder`: its size, its modification time and its first bytes."""
    found = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            status = path.stat()
            found[str(path.relative_to(folder))] = (
                status.st_size,
                status.st_mtime_ns,
                path.read_bytes()[:4096],
            )
    return found


# The save loader.


def a_saved_game() -> str:
    board = Board.from_moves(parse_cell(cell) for cell in ("111", "222", "141", "333"))
    return savefile.dumps(Settings(seed=5, time_limit=30.0), board)


SAVED = a_saved_game()


def damaged_save(draw: st.DrawFn) -> bytes:
    """A saved game with one line's value, one line, or its end made hostile."""
    lines = SAVED.splitlines()
    how = draw(st.integers(0, 4))
    at = draw(st.integers(0, len(lines) - 1))
    if how == 0:
        key = lines[at].partition(":")[0]
        lines[at] = f"{key}: {draw(hostile_text(['none', 'yes', 'qubic', 'X', '--']))}"
    elif how == 1:
        lines[at] = draw(hostile_text(["moves:", "seed:", "time-limit:", "variant:"]))
    elif how == 2:
        cut = draw(st.integers(0, len(SAVED)))
        return SAVED[:cut].encode()
    elif how == 3:
        return SAVED.replace("\n", "\r").encode()  # CR-only line ends
    else:
        lines.insert(at, draw(hostile_text(["seed: 1", "moves: 111"])))
    joiner = draw(st.sampled_from(["\n", "\r\n", savefile.EXPORT_JOIN]))
    return joiner.join(lines).encode("utf-8")


SAVES = st.one_of(st.binary(max_size=2000), st.composite(damaged_save)())


@dataclass
class SaveDoor:
    """`savefile.load` of a file holding the bytes, and `loads` of their text."""

    folder: Path
    name = "save loader"
    strategy = SAVES

    def check(self, data: bytes) -> None:
        path = self.folder / "game.txt"
        path.write_bytes(data)
        before = snapshot(self.folder)
        for load in (
            lambda: savefile.load(str(path), finished=True),
            lambda: savefile.loads(data.decode("utf-8", "replace")),
        ):
            try:
                load_settings, board = load()
            except savefile.SaveFileError as error:
                one_line(str(error))
            else:
                assert isinstance(load_settings, Settings) and isinstance(board, Board)
        assert snapshot(self.folder) == before, "loading changes no file"


# The config reader.


CONFIG_WORDS = [*config.KEYS, *config.ALIASES, "=", '"hard"', "'tall'", "true", "false", "#"]


@st.composite
def config_bytes(draw: st.DrawFn) -> bytes:
    """A config file: random bytes, or lines of keys, = and values, some hostile."""
    if draw(st.booleans()):
        return draw(st.binary(max_size=1000))
    lines = draw(st.lists(hostile_text(CONFIG_WORDS), max_size=6))
    text = draw(st.sampled_from(["\n", "\r\n", "\r"])).join(lines)
    return (draw(st.sampled_from(["", config.BOM])) + text).encode("utf-8")


@dataclass
class ConfigDoor:
    """`config.load` of a config file holding the bytes."""

    folder: Path
    name = "config reader"
    strategy = config_bytes()

    def check(self, data: bytes) -> None:
        path = self.folder / "config.toml"
        path.write_bytes(data)
        before = snapshot(self.folder)
        try:
            defaults = config.load(path)
        except config.ConfigError as error:
            one_line(str(error).replace(str(path), "PATH"))
        else:
            for key, value in defaults.items():
                choices = config.KEYS[key]
                assert value in ((True, False) if choices is None else choices), (key, value)
        assert snapshot(self.folder) == before, "reading the config changes no file"


# The record reader.


@st.composite
def record_files(draw: st.DrawFn) -> tuple[bytes | None, bytes | None]:
    """A record store's bytes and an old record.txt's, either perhaps missing."""
    store = draw(
        st.one_of(
            st.none(),
            st.binary(max_size=600),
            st.binary(max_size=600).map(lambda data: b"SQLite format 3\x00" + data),
        )
    )
    rows = st.lists(hostile_text(["normal", "hard", "first", "second", "1", "0"]), max_size=5)
    old = draw(
        st.one_of(
            st.none(),
            st.binary(max_size=400),
            rows.map(lambda lines: "\n".join(["qubic-record 1", *lines]).encode("utf-8")),
        )
    )
    return store, old


@dataclass
class RecordDoor:
    """The record as `qubic stats` reads it, and as a game opens it: a store and an old
    record.txt of hostile bytes are read or kept whole, never lost."""

    folder: Path
    name = "record reader"
    strategy = record_files()

    def check(self, files: tuple[bytes | None, bytes | None]) -> None:
        folder = self.folder / "record"
        if folder.exists():
            for path in folder.iterdir():
                path.unlink()
        folder.mkdir(exist_ok=True)
        store, old = files
        path = folder / record.NAME
        for data, name in ((store, record.NAME), (old, record.OLD_NAME)):
            if data is not None:
                (folder / name).write_bytes(data)
        for create in (False, True):
            try:
                with record.Store.open(path, create=create) as opened:
                    if opened.notice is not None:
                        one_line(opened.notice.replace(str(folder), "FOLDER"))
                    record.table(opened.counts())
                    opened.rating()
            except record.RecordError as error:
                one_line(str(error).replace(str(folder), "FOLDER"))
        kept = {path.read_bytes() for path in folder.iterdir() if path.is_file()}
        assert store in (None, b"") or store in kept, "a store is read, or kept whole aside"
        if old is not None:
            assert (folder / record.OLD_NAME).read_bytes() == old, "record.txt is left as it was"


# The engine protocol.


ENGINE_WORDS = [
    "isready",
    "variant",
    "position",
    "startpos",
    "moves",
    "go",
    "level",
    "movetime",
    "newgame",
    "analyze",
    "help",
    "qubic",
    "cube3",
    "tesseract",
    "size",
    "dims",
    "target",
    "sides",
    "no-centre",
    "centre",
    "easy",
    "normal",
    "shrewd",
    "111",
    "222",
    "3",
    "50",
]
ENGINE_LINES = st.one_of(
    hostile_line(ENGINE_WORDS),
    st.sampled_from(
        [
            b"position startpos moves " + b"1" * 70_000,
            b"variant qubic " + b"size " * 20_000,
            b"go movetime " + HUGE.encode(),
            b"go level normal movetime 1" + b"0" * 400,
        ]
    ),
)
ANSWERS = ("error ", "bestmove ", "variant ", "analysis ", "help ", "readyok")


class Program:
    """A program on pipes, read without blocking and with a deadline."""

    def __init__(self, args: list[str], cwd: Path, **env: str) -> None:
        self.process = subprocess.Popen(
            [qubic_command(), *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            env=program_env(LC_ALL="C.UTF-8", **env),
        )
        self.pending = b""

    def send(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def read_until(self, done: Callable[[bytes], bool]) -> bytes:
        """What the program writes, up to and including where `done` holds; the program is
        alive and answers within ANSWER_SECONDS."""
        assert self.process.stdout is not None
        deadline = time.monotonic() + ANSWER_SECONDS
        while not done(self.pending):
            left = deadline - time.monotonic()
            assert left > 0, f"no answer in {ANSWER_SECONDS} s: {self.pending[-300:]!r}"
            ready, _, _ = select.select([self.process.stdout], [], [], left)
            if ready:
                chunk = os.read(self.process.stdout.fileno(), 1 << 16)
                assert chunk, f"the program ended: {self.errors()}"
                self.pending += chunk
        said, self.pending = self.pending, b""
        return said

    def errors(self) -> str:
        self.process.kill()
        _, errors = self.process.communicate(timeout=30)
        return errors.decode("utf-8", "replace")[-2000:]

    def close(self) -> str:
        """End the program; what it wrote on standard error."""
        if self.process.poll() is None:
            self.process.kill()
        _, errors = self.process.communicate(timeout=30)
        return errors.decode("utf-8", "replace")


@dataclass
class EngineDoor:
    """One `qubic engine` for every line: each line answered by at most one line (`help`
    lists its commands), each a known answer, short, and `isready` still answered after."""

    folder: Path
    name = "engine"
    strategy = ENGINE_LINES
    engine: Program | None = None

    def open(self) -> None:
        self.engine = Program(["engine", "--seed", "1", "--level", "easy"], self.folder)

    def check(self, line: bytes) -> None:
        try:
            first = line.decode("utf-8").lower().split()[:1]
        except UnicodeDecodeError:
            first = []
        assume(first != ["quit"])  # which ends the engine, as it should
        assert self.engine is not None
        self.engine.send(b"variant qubic\n" + line + b"\nisready\n")
        # The line may be isready itself: then the second readyok is the one sent after it.
        ready = 1 + (first == ["isready"])
        said = self.engine.read_until(lambda text: text.split(b"\n").count(b"readyok") == ready)
        answers = said.decode("utf-8").splitlines()[:-1]
        if first != ["help"]:
            assert len(answers) <= 1, answers
        for answer in answers:
            assert answer.startswith(ANSWERS), answer[:300]
            one_line(answer)
        assert list(self.folder.iterdir()) == [], "the engine writes no file"

    def close(self) -> None:
        if self.engine is not None:
            errors = self.engine.close()
            assert errors == "", errors[-2000:]


# The console's questions.


def winning_line() -> tuple[str, str]:
    """An exported game one move before X wins it, and that move."""
    game = find_game(Mark.X, NormalPlayer(5))
    line = savefile.export(Settings(seed=5), Board.from_moves(game.moves[:-1]))
    return line, format_cell(game.moves[-1])


@dataclass
class Question:
    """How to reach one of the console's questions: the options, then the answers."""

    name: str
    args: list[str]
    answers: list[str]


@cache
def questions() -> list[Question]:
    line, move = winning_line()
    playing = ["--seed", "1", "--no-record"]
    finished = ["--load", line, "--no-record"]
    return [
        Question("DO YOU WANT INSTRUCTIONS?", playing, []),
        Question("DO YOU WANT TO MOVE FIRST?", playing, ["no"]),
        Question("YOUR MOVE?", playing, ["no", "yes"]),
        Question("DO YOU WANT TO PLAY ANOTHER GAME?", finished, [move]),
        Question("REVIEW", finished, [move, "REVIEW"]),
    ]


def oracle_session(question: Question) -> Session:
    """A session in-process at `question`, as the program is."""
    if "--load" in question.args:
        session = Session.resume(*savefile.loads(question.args[1]))
    else:
        session = Session(Settings(seed=1))
        session.start()
    for answer in question.answers:
        session.answer(answer)
    return session


QUESTION_WORDS = ["yes", "no", "y", "n", "REVIEW", "LEVEL", "LINES", "SHOW", "N", "P", "MOVES"]


@dataclass
class QuestionDoor:
    """One `qubic` through pipes, at one question: each hostile answer that the game refuses
    is refused in one line, as the game's own words, and the same question is asked again;
    no file appears or changes."""

    folder: Path
    question: Question
    strategy = hostile_line(QUESTION_WORDS)
    program: Program | None = None
    session: Session | None = None
    prompt: bytes = b""
    files: dict[str, tuple[int, int, bytes]] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.question.name

    def open(self) -> None:
        self.session = oracle_session(self.question)
        assert self.session.prompt.startswith(self.question.name)
        self.prompt = (self.session.prompt + " ").encode()
        self.program = Program(self.question.args, self.folder)
        asked = self.prompt
        for answer in self.question.answers:
            self.program.read_until(lambda text: text.endswith(b"? "))
            self.program.send(answer.encode() + b"\n")
        self.program.read_until(lambda text: text.endswith(asked))
        self.files = snapshot(self.folder)

    def check(self, line: bytes) -> None:
        assert self.program is not None and self.session is not None
        text = line.decode("utf-8", "replace").rstrip("\r")
        oracle = copy.deepcopy(self.session)
        words = text.split()
        # Commands, which act (SAVE writes a file, HELP lists them all), are for other tests.
        assume(not words or words[0].upper() not in oracle.commands or len(words) > 1)
        assume(not words or words[0].upper() not in ("SAVE", "EXPORT", "LOAD", "HINT"))
        said = oracle.answer(text)
        # Only refusals: an answer the game takes moves it on, to another question.
        assume(oracle.stage is self.session.stage and oracle.prompt == self.session.prompt)
        assume(oracle.board.moves == self.session.board.moves and len(said) == 1)
        assume(oracle.settings == self.session.settings)
        [refusal] = said
        assert isinstance(refusal, str)
        one_line(refusal)
        self.program.send(line + b"\n")
        shown = self.program.read_until(lambda text: text.endswith(self.prompt))
        _echo, _, reply = shown[: -len(self.prompt)].partition(b"\n")
        printed = reply.decode("utf-8", "replace")
        clean(printed)
        assert " ".join(printed.split()) == " ".join(refusal.split()), (printed, refusal)
        assert snapshot(self.folder) == self.files, "no file changes"

    def close(self) -> None:
        if self.program is not None:
            errors = self.program.close()
            clean(errors)


# The tests: each door with CI's few examples.


def fuzz(door: Any, examples: int) -> Callable[[], None]:
    """Run `door.check` on `examples` examples of its strategy (with FUZZ's settings)."""

    @settings(FUZZ, max_examples=examples)
    @given(door.strategy)
    def run(example: Any) -> None:
        door.check(example)

    return run


@contextmanager
def opened(door: Any) -> Iterator[Any]:
    """`door`, with its program started for the while and ended after."""
    if hasattr(door, "open"):
        door.open()
    try:
        yield door
    finally:
        if hasattr(door, "close"):
            door.close()


def test_the_save_loader_takes_any_bytes(tmp_path):
    fuzz(SaveDoor(tmp_path), EXAMPLES["save loader"])()


def test_the_config_reader_takes_any_bytes(tmp_path):
    fuzz(ConfigDoor(tmp_path), EXAMPLES["config reader"])()


@pytest.mark.slow
def test_the_record_reader_takes_any_bytes(tmp_path):
    fuzz(RecordDoor(tmp_path), EXAMPLES["record reader"])()


@pytest.mark.slow
def test_the_engine_takes_any_line(tmp_path):
    with opened(EngineDoor(tmp_path)) as door:
        fuzz(door, EXAMPLES["engine"])()


@pytest.mark.slow
@pytest.mark.parametrize("question", questions(), ids=lambda question: question.name)
def test_every_question_takes_any_answer(tmp_path, question):
    with opened(QuestionDoor(tmp_path, question)) as door:
        fuzz(door, EXAMPLES["question"])()


def doors(folder: Path) -> list[Any]:
    """Every door, for the benchmark: each in a folder of its own under `folder` (the record
    reader only once the SQLite record is there)."""
    made: list[Any] = [SaveDoor, ConfigDoor, RecordDoor, EngineDoor]
    made += questions()
    for index, door in enumerate(made):
        home = folder / str(index)
        home.mkdir()
        made[index] = QuestionDoor(home, door) if isinstance(door, Question) else door(home)
    return made
