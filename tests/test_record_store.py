"""Your record as a store: one SQLite row per finished game, 16 games ending at once all
counted, a damaged store kept aside and said in one line, the old record.txt taken over once.
Through the installed program, with pipes."""

from __future__ import annotations

import os
import pickle
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from qubic.core.board import Board
from qubic.core.notation import parse_cell
from qubic.core.variant import CUBE3
from qubic.play import record, savefile
from qubic.play.record import GameRow, Rating, Store
from qubic.play.settings import Settings
from tests.conftest import program_env, qubic_command, run_piped
from tests.scripted import position

# X to move and win at 114: a game over in one move, with no machine to wait for.
ONE_TO_WIN = savefile.export(Settings(seed=1), position("111 112 113", "441 442 443"))
WINNING_MOVE = "114"


def cube3_one_to_win() -> str:
    """A 3x3x3 game, first line wins, where X wins at 113."""
    variant = CUBE3.with_options(target=1)
    board = Board(variant)
    for cell in ("111", "331", "112", "332"):
        board.push(parse_cell(cell, variant.geometry))
    return savefile.export(Settings(seed=1, variant=variant), board)


def store_path(data: Path) -> Path:
    return data / "qubic" / "record.sqlite3"


def stats(data: Path) -> subprocess.CompletedProcess:
    result = run_piped("stats", XDG_DATA_HOME=str(data))
    assert "Traceback" not in result.stderr
    return result


def rows(data: Path) -> list[list[str]]:
    """The table's rows after its heading, split into words."""
    lines = stats(data).stdout.splitlines()
    assert lines[1].split()[:2] == ["VARIANT", "LEVEL"]
    return [line.split() for line in lines[2:] if line.split() and line.split()[-1].isdigit()]


def win(data: Path, line: str = ONE_TO_WIN, move: str = WINNING_MOVE, before: str = "") -> str:
    result = run_piped(
        "--load", line, stdin=f"{before}{move}\nno\n", XDG_DATA_HOME=str(data), timeout=60
    )
    assert "YOU WIN!" in result.stdout and result.returncode == 0, result.stderr
    return result.stdout


def finish_together(data: Path, games: int, line: str = ONE_TO_WIN) -> list[str]:
    """`games` programs each at the winning move of a loaded game; once all of them are
    waiting at YOUR MOVE?, each is sent its winning move at the same moment. Their outputs."""
    programs = [
        subprocess.Popen(
            [qubic_command(), "--load", line],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env=program_env(XDG_DATA_HOME=str(data)),
        )
        for _ in range(games)
    ]
    try:
        for program in programs:
            assert program.stdout is not None
            seen = b""
            while not seen.endswith(b"YOUR MOVE? "):
                byte = program.stdout.read(1)
                assert byte, seen.decode()
                seen += byte
        for program in programs:
            assert program.stdin is not None
            program.stdin.write(f"{WINNING_MOVE}\nno\n".encode())
            program.stdin.flush()
        outputs = []
        for program in programs:
            out, _ = program.communicate(timeout=120)
            outputs.append(out.decode())
            assert program.returncode == 0, out.decode()
        return outputs
    finally:
        for program in programs:
            if program.poll() is None:
                program.kill()


@pytest.mark.slow
def test_sixteen_games_finishing_at_once_are_all_counted(tmp_path):
    # Item 1: 34 games ending together were counted as 19.
    outputs = finish_together(tmp_path, 16)
    assert all("YOU WIN!" in out and "NOT COUNTED" not in out for out in outputs)
    assert rows(tmp_path) == [["QUBIC", "NORMAL", "FIRST", "16", "0", "0", "16"]]


def test_each_game_is_a_row_with_its_variant_level_side_and_result(tmp_path):
    win(tmp_path)
    with sqlite3.connect(store_path(tmp_path)) as connection:
        [row] = connection.execute(
            "SELECT variant, level, first, result, rated, rating, deviation, volatility,"
            " finished_at FROM games"
        ).fetchall()
    assert row[:8] == (
        "qubic size 4 dims 3 target 1 sides 2",
        "normal",
        1,
        "won",
        0,
        None,
        None,
        None,
    )
    assert row[8].endswith("Z") and len(row[8]) == len("2026-11-22T15:30:07Z")


@pytest.mark.slow
def test_stats_counts_each_variant_apart(tmp_path):
    # A cube3 win used to be counted in the QUBIC rows.
    win(tmp_path)
    win(tmp_path, cube3_one_to_win(), "113")
    assert rows(tmp_path) == [
        ["CUBE3", "TARGET", "1", "NORMAL", "FIRST", "1", "0", "0", "1"],
        ["QUBIC", "NORMAL", "FIRST", "1", "0", "0", "1"],
    ]


def test_a_game_counts_at_the_level_it_started_at(tmp_path):
    # A game started at perfect and finished at normal used to count as normal.
    line = savefile.export(
        Settings(seed=1, level="perfect"), position("111 112 113", "441 442 443")
    )
    output = win(tmp_path, line, before="LEVEL normal\n")
    assert "NORMAL" in output
    assert rows(tmp_path) == [["QUBIC", "PERFECT", "FIRST", "1", "0", "0", "1"]]


DAMAGE = {
    "random bytes": os.urandom(3000),
    "an empty file": b"",
    "a line of text": b"qubic-record 2\n",
    "a cut-off header": b"SQLite format 3\x00" + b"\x10\x00",
}


def newer_store(path: Path) -> None:
    """A store as a newer qubic might write it: ours, with a higher schema version."""
    with sqlite3.connect(path) as connection:
        connection.execute(f"PRAGMA application_id = {record.APPLICATION_ID}")
        connection.execute("PRAGMA user_version = 99")
        connection.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, stars TEXT)")
        connection.execute("INSERT INTO games (stars) VALUES ('*****')")
    connection.close()


def foreign_store(path: Path) -> None:
    """Another program's SQLite database."""
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE notes (text TEXT)")
        connection.execute("INSERT INTO notes VALUES ('mine')")
    connection.close()


@pytest.mark.slow
@pytest.mark.parametrize("kind", [*DAMAGE, "a newer version", "another program's database"])
def test_a_damaged_store_is_kept_aside_said_in_one_line_and_replaced(tmp_path, kind):
    # Item 2: a damaged record was wiped without a word.
    path = store_path(tmp_path)
    path.parent.mkdir(parents=True)
    if kind == "a newer version":
        newer_store(path)
    elif kind == "another program's database":
        foreign_store(path)
    else:
        path.write_bytes(DAMAGE[kind])
    before = path.read_bytes()
    result = stats(tmp_path)
    assert result.returncode == 0
    [said] = result.stderr.splitlines()
    assert said.startswith(f"qubic: your record {path} ") and "kept as record.bak-" in said
    assert "a new one is started" in said
    [kept] = path.parent.glob("record.bak-*")
    assert kept.read_bytes() == before, "what was there is kept whole"
    assert said.split("kept as ")[1].startswith(kept.name)
    assert "NO GAMES RECORDED YET." in result.stdout
    win(tmp_path)
    assert rows(tmp_path) == [["QUBIC", "NORMAL", "FIRST", "1", "0", "0", "1"]]
    assert stats(tmp_path).stderr == "", "said once"
    assert kept.read_bytes() == before


def test_a_store_damaged_at_the_end_of_a_game_is_said_in_the_game(tmp_path):
    path = store_path(tmp_path)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\x00" * 5000)
    output = " ".join(win(tmp_path).split())  # the line as said, unwrapped
    assert output.count("YOUR RECORD IS DAMAGED (IT IS NOT A SQLITE DATABASE): IT IS KEPT AS") == 1
    assert "AND A NEW ONE IS STARTED." in output
    assert rows(tmp_path) == [["QUBIC", "NORMAL", "FIRST", "1", "0", "0", "1"]]


def test_a_fifo_as_the_record_is_set_aside_not_waited_on(tmp_path):
    # Item 12: a FIFO as the record hung the program at the winning move.
    path = store_path(tmp_path)
    path.parent.mkdir(parents=True)
    os.mkfifo(path)
    started = time.monotonic()
    result = stats(tmp_path)
    assert time.monotonic() - started < 20
    assert "is not a regular file" in result.stderr or "named pipe" in result.stderr
    assert len(result.stderr.splitlines()) == 1
    [kept] = path.parent.glob("record.bak-*")
    assert kept.is_fifo()
    win(tmp_path)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a file of mode 000")
def test_an_unreadable_store_is_kept_aside_not_replaced(tmp_path):
    # Item 2: an unreadable record of 45 games was replaced by one.
    win(tmp_path)
    path = store_path(tmp_path)
    path.chmod(0)
    result = stats(tmp_path)
    assert "cannot be read" in result.stderr and "kept as record.bak-" in result.stderr
    [kept] = path.parent.glob("record.bak-*")
    kept.chmod(0o600)
    with sqlite3.connect(kept) as connection:
        assert connection.execute("SELECT COUNT(*) FROM games").fetchone() == (1,)
    connection.close()


OLD_RECORD = "qubic-record 1\nhard first 3 1 0\nnormal second 0 2 1\n"


@pytest.mark.slow
def test_the_old_text_record_is_taken_over_once_and_kept(tmp_path):
    old = tmp_path / "qubic" / "record.txt"
    old.parent.mkdir(parents=True)
    old.write_text(OLD_RECORD)
    result = stats(tmp_path)
    assert result.returncode == 0 and result.stderr == ""
    expected = [
        ["ANY", "NORMAL", "SECOND", "0", "2", "1", "3"],
        ["ANY", "HARD", "FIRST", "3", "1", "0", "4"],
    ]
    assert rows(tmp_path) == expected
    assert "ANY: GAMES COUNTED BY AN EARLIER QUBIC" in result.stdout
    assert old.read_text() == OLD_RECORD, "the old file is kept as it was"
    win(tmp_path)
    assert rows(tmp_path) == [["QUBIC", "NORMAL", "FIRST", "1", "0", "0", "1"], *expected]


@pytest.mark.slow
def test_an_old_record_with_foreign_digits_is_read_without_a_crash(tmp_path):
    # Item 7: a count with a non-ASCII digit (²) crashed qubic stats and every game's end.
    old = tmp_path / "qubic" / "record.txt"
    old.parent.mkdir(parents=True)
    old.write_text("qubic-record 1\nnormal first ² 0 0\nhard first 1 0 0\n", encoding="utf-8")
    result = stats(tmp_path)
    assert result.returncode == 0
    [said] = result.stderr.splitlines()
    assert "1 line not understood" in said and "left as it was" in said
    assert rows(tmp_path) == [["ANY", "HARD", "FIRST", "1", "0", "0", "1"]]
    win(tmp_path)


@pytest.mark.parametrize("old", [b"\xff\xfe garbage", b"", b"qubic-record 2\nnormal first 1 0 0\n"])
def test_an_old_record_that_is_not_one_is_left_alone(tmp_path, old):
    path = tmp_path / "qubic" / "record.txt"
    path.parent.mkdir(parents=True)
    path.write_bytes(old)
    result = stats(tmp_path)
    assert result.returncode == 0 and len(result.stderr.splitlines()) == 1
    assert "NO GAMES RECORDED YET." in result.stdout and path.read_bytes() == old


def test_a_relative_data_folder_is_not_used(tmp_path):
    # Item 20: a relative XDG_DATA_HOME was used as it was.
    home = tmp_path / "home"
    home.mkdir()
    result = subprocess.run(
        [qubic_command(), "--load", ONE_TO_WIN],
        input=f"{WINNING_MOVE}\nno\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=program_env(XDG_DATA_HOME="relative/data", HOME=str(home)),
        timeout=60,
    )
    assert "YOU WIN!" in result.stdout
    assert not (tmp_path / "relative").exists()
    assert (home / ".local" / "share" / "qubic" / "record.sqlite3").exists()


def test_no_home_folder_is_said_in_one_line_not_made_in_the_working_folder(tmp_path):
    # Item 20: HOME unset put the record in a literal ./~/.
    env = program_env(HOME="")
    env.pop("XDG_DATA_HOME")
    for args, stdin in ((["stats"], ""), (["--load", ONE_TO_WIN], f"{WINNING_MOVE}\nno\n")):
        result = subprocess.run(
            [qubic_command(), *args],
            input=stdin,
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env=env,
            timeout=60,
        )
        [said] = result.stderr.splitlines()
        assert "neither XDG_DATA_HOME nor HOME is an absolute path" in said
    assert os.listdir(tmp_path) == []


def test_the_store_api_keeps_ratings_newest_first(tmp_path):
    path = tmp_path / "record.sqlite3"
    with Store.open(path) as store:
        assert store.rating() is None and store.ratings(3) == [] and store.notice is None
        store.add(GameRow("qubic size 4 dims 3 target 1 sides 2", "normal", True, "won"))
        for number in range(3):
            rating = Rating(1000.0 + number, 300.0 - number, 0.06)
            store.add(GameRow("qubic", "hard", False, "lost", rated=True, rating=rating))
        assert store.rating() == Rating(1002.0, 298.0, 0.06)
        assert [r.rating for r in store.ratings(2)] == [1002.0, 1001.0]
        assert store.counts() == {
            ("qubic size 4 dims 3 target 1 sides 2", "normal", "first"): [1, 0, 0],
            ("qubic", "hard", "second"): [0, 3, 0],
        }
        with pytest.raises(ValueError):
            store.add(GameRow("qubic", "hard", False, "maybe"))
    with Store.open(path) as again:
        assert again.rating() == Rating(1002.0, 298.0, 0.06)


def test_a_missing_store_is_not_made_by_reading_it(tmp_path):
    with Store.open(tmp_path / "qubic" / "record.sqlite3", create=False) as store:
        assert store.counts() == {} and store.rating() is None
    assert not (tmp_path / "qubic").exists()


def test_a_store_travels_to_the_full_screen_worker_and_back(tmp_path):
    # The full screen sends the session, and its open record, to a worker process.
    path = tmp_path / "record.sqlite3"
    store = Store.open(path)
    copy = pickle.loads(pickle.dumps(store))
    copy.add(GameRow("qubic", "normal", True, "won"))
    store.add(GameRow("qubic", "normal", True, "lost"))
    assert copy.counts() == store.counts() == {("qubic", "normal", "first"): [1, 1, 0]}
    store.close()
    copy.close()


def test_a_game_won_again_after_undo_at_its_end_is_counted_once(tmp_path):
    result = run_piped(
        "--load",
        ONE_TO_WIN,
        stdin=f"{WINNING_MOVE}\nundo\n{WINNING_MOVE}\nno\n",
        XDG_DATA_HOME=str(tmp_path),
    )
    assert result.stdout.count("YOU WIN!") == 2 and "TAKEN BACK: YOUR " in result.stdout
    assert "YOUR RECORD KEEPS THIS GAME AS IT FIRST ENDED." in result.stdout
    with sqlite3.connect(store_path(tmp_path)) as connection:
        assert connection.execute("SELECT count(*) FROM games").fetchone() == (1,)
