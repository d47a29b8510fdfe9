"""Saves that never lose a game: names claimed atomically, nothing replaced that the game did
not write, a way out when a save fails at QUIT, and reads bounded to regular files. Through the
installed program, with pipes; the helpers of qubic.core.files directly where a crash is what
is tested."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from qubic.core import files
from qubic.core.notation import format_cell
from qubic.play import savefile
from qubic.play.settings import Settings
from tests.conftest import program_env, qubic_command, run_piped
from tests.scripted import position

TWO_PLAYERS = ["--players", "2", "--seed", "1"]


def run_in(folder: Path, *args: str, stdin: str = "", timeout: float = 30):
    result = subprocess.run(
        [qubic_command(), *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=folder,
        env=program_env(),
        timeout=timeout,
    )
    assert "Traceback" not in result.stdout + result.stderr
    return result


def saved_moves(path: Path) -> list[int]:
    return savefile.load(str(path))[1].moves


@pytest.mark.slow
def test_eight_saves_in_the_same_second_give_eight_files(tmp_path):
    # Item 3: 8 games typed SAVE in the same second; all said GAME SAVED, and 4 files existed.
    first_moves = ["111", "112", "113", "114", "121", "122", "123", "124"]
    programs = [
        subprocess.Popen(
            [qubic_command(), *TWO_PLAYERS],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            cwd=tmp_path,
            env=program_env(),
        )
        for _ in first_moves
    ]
    try:
        for program, move in zip(programs, first_moves):
            assert program.stdin is not None and program.stdout is not None
            program.stdin.write(f"no\n{move}\n".encode())
            program.stdin.flush()
            seen = b""
            while seen.count(b"YOUR MOVE? ") < 2:  # the move is in: waiting for the next
                byte = program.stdout.read(1)
                assert byte, seen.decode()
                seen += byte
        started = time.monotonic()
        for program in programs:
            assert program.stdin is not None
            program.stdin.write(b"SAVE\n")
            program.stdin.flush()
        outputs = [program.communicate(timeout=60)[0].decode() for program in programs]
        assert time.monotonic() - started < 30
    finally:
        for program in programs:
            if program.poll() is None:
                program.kill()
    assert all(out.count("GAME SAVED TO qubic-") == 1 for out in outputs), outputs
    saves = sorted(tmp_path.glob("qubic-*.txt"))
    assert len(saves) == 8
    firsts = sorted(format_cell(saved_moves(path)[0]) for path in saves)
    assert firsts == sorted(first_moves), "each game in its own file"
    assert not [name for name in os.listdir(tmp_path) if files.is_our_temporary(name)]


def test_a_failed_save_at_quit_offers_another_name(tmp_path):
    # Item 4: where the save at QUIT fails, every way out lost the game. Here the working
    # folder is gone (root writes even to a read-only folder; the next test has that).
    gone = tmp_path / "gone"
    gone.mkdir()
    elsewhere = tmp_path / "elsewhere.txt"
    program = subprocess.Popen(
        [qubic_command(), *TWO_PLAYERS],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        cwd=gone,
        env=program_env(),
        text=True,
    )
    gone.rmdir()
    out, _ = program.communicate(f"no\n111\nquit\nyes\nyes\nsave {elsewhere}\n", timeout=30)
    assert program.returncode == 0 and "Traceback" not in out
    assert out.count("CANNOT SAVE TO qubic-") == 2
    assert out.count("TYPE SAVE AND A FILE NAME TO SAVE THERE, OR BACK TO") == 2
    assert f"GAME SAVED TO {elsewhere}." in out and "GOODBYE" in out
    assert len(saved_moves(elsewhere)) == 1


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes to a read-only folder")
def test_a_failed_save_at_quit_in_a_read_only_folder_can_go_back_to_the_game(tmp_path):
    folder = tmp_path / "read-only"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        result = run_in(
            folder, *TWO_PLAYERS, stdin=f"no\n111\nquit\nyes\nback\n112\nsave {tmp_path}/g.txt\n"
        )
    finally:
        folder.chmod(0o755)
    assert "PERMISSION DENIED" in result.stdout and "BACK TO THE GAME." in result.stdout
    assert len(saved_moves(tmp_path / "g.txt")) == 2


def test_back_at_the_question_before_leaving_returns_to_the_game(tmp_path):
    result = run_in(tmp_path, *TWO_PLAYERS, stdin="no\n111\nquit\nback\n112\nquit\nno\n")
    assert "BACK TO THE GAME." in result.stdout and "O, YOUR MOVE? 112" in result.stdout
    assert result.stdout.rstrip().endswith("GOODBYE. THANKS FOR PLAYING QUBIC.")
    assert os.listdir(tmp_path) == []


@pytest.mark.slow
def test_a_name_starting_qubic_save_is_a_file_name(tmp_path):
    # Item 5: SAVE qubic-save-mine.txt succeeded, and --load of it failed as an EXPORT line.
    result = run_in(tmp_path, *TWO_PLAYERS, stdin="no\n111\nSAVE qubic-save-mine.txt\nquit\n")
    assert "GAME SAVED TO qubic-save-mine.txt." in result.stdout
    loaded = run_in(tmp_path, "--load", "qubic-save-mine.txt", stdin="SHOW\nquit\n")
    assert loaded.returncode == 0 and "RESUMING A SAVED GAME AT MOVE 2." in loaded.stdout


@pytest.mark.slow
def test_a_save_cut_short_in_a_move_is_refused_in_one_line(tmp_path):
    # Item 6: `moves: 111 2` loaded as another game (square 2).
    path = tmp_path / "cut.txt"
    savefile.save(str(path), Settings(players=2), position("111", ""))
    path.write_text(path.read_text().replace("moves: 111", "moves: 111 2"))
    for args in (["--load", str(path)], ["review", str(path)]):
        result = run_in(tmp_path, *args)
        assert result.returncode == 2 and result.stdout == ""
        [said] = result.stderr.splitlines()
        assert f"{path}: move 2 '2': " in said


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["fifo", "device", "folder"])
def test_load_review_and_save_refuse_what_is_not_a_regular_file_at_once(tmp_path, kind):
    # Items 12 and 13: a FIFO hung --load, review and SAVE; /dev/zero ran out of memory.
    if kind == "fifo":
        target = tmp_path / "pipe"
        os.mkfifo(target)
        words = "it is a named pipe (FIFO), not a regular file"
    elif kind == "device":
        target = Path("/dev/zero")
        words = "it is a device, not a regular file"
    else:
        target = tmp_path / "folder"
        target.mkdir()
        words = "it is a folder"
    started = time.monotonic()
    for mode, args in (("load", ["--load", str(target)]), ("review", ["review", str(target)])):
        result = run_in(tmp_path, *args, timeout=20)
        assert result.returncode == 2
        assert result.stderr == f"qubic: cannot {mode} {target}: {words}\n"
    result = run_in(tmp_path, *TWO_PLAYERS, stdin=f"no\n111\nSAVE {target}\nquit\nno\n", timeout=20)
    assert f"CANNOT SAVE TO {target}: {words.upper()}." in result.stdout
    assert time.monotonic() - started < 30
    if kind == "fifo":
        assert stat.S_ISFIFO(os.stat(target).st_mode)


def test_a_save_file_larger_than_the_limit_is_refused_in_one_line(tmp_path):
    # Item 13: a 50 MB save peaked at 1.16 GB.
    path = tmp_path / "huge.txt"
    savefile.save(str(path), Settings(players=2), position("111", ""))
    with path.open("a") as file:
        file.write("#" * (savefile.LIMIT + 1))
    result = run_in(tmp_path, "--load", str(path))
    assert result.returncode == 2
    assert result.stderr == f"qubic: cannot load {path}: it is larger than 1 MB\n"


def test_a_save_never_replaces_a_file_this_game_did_not_write(tmp_path):
    other = tmp_path / "other.txt"
    savefile.save(str(other), Settings(players=2), position("444", ""))
    notes = tmp_path / "notes.txt"
    notes.write_text("mine\n")
    before = other.read_bytes()
    result = run_in(
        tmp_path, *TWO_PLAYERS, stdin="no\n111\nSAVE other.txt\nSAVE notes.txt\nquit\nno\n"
    )
    assert "CANNOT SAVE TO other.txt: IT HOLDS ANOTHER SAVED GAME" in result.stdout
    assert "CANNOT SAVE TO notes.txt: IT EXISTS AND IS NOT A QUBIC SAVED GAME." in result.stdout
    assert other.read_bytes() == before and notes.read_text() == "mine\n"


def test_save_through_a_symlink_keeps_the_link_and_the_mode_and_never_follows_to_another(
    tmp_path,
):
    # Item 19: SAVE over a symlink replaced the link with a plain file, of mode 0600.
    other = tmp_path / "other.txt"
    savefile.save(str(other), Settings(players=2), position("444", ""))
    (tmp_path / "to-other.txt").symlink_to("other.txt")
    (tmp_path / "to-nothing.txt").symlink_to("nothing/here.txt")
    script = [
        "no",
        "111",
        "SAVE mine.txt",  # new: made with the umask's mode, not 0600
        "SAVE to-other.txt",  # a link to another game's save: refused
        "SAVE to-nothing.txt",  # a link to nothing: refused, nothing made at its end
        "112",
        "SAVE to-mine.txt",  # a link to this game's own save: the save behind it is replaced
        "quit",
    ]
    before = other.read_bytes()
    program = subprocess.Popen(
        [qubic_command(), *TWO_PLAYERS],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        cwd=tmp_path,
        env=program_env(),
        text=True,
    )
    assert program.stdin is not None and program.stdout is not None
    for line in script[:3]:
        program.stdin.write(line + "\n")
    program.stdin.flush()
    while "GAME SAVED TO mine.txt." not in program.stdout.readline():
        pass
    mine = tmp_path / "mine.txt"
    assert stat.S_IMODE(mine.stat().st_mode) == 0o666 & ~current_umask()
    mine.chmod(0o640)
    (tmp_path / "to-mine.txt").symlink_to("mine.txt")
    out, _ = program.communicate("\n".join(script[3:]) + "\n", timeout=30)
    assert "CANNOT SAVE TO to-other.txt: IT HOLDS ANOTHER SAVED GAME" in out
    assert "CANNOT SAVE TO to-nothing.txt: IT IS A SYMBOLIC LINK TO NOTHING" in out
    assert "GAME SAVED TO to-mine.txt." in out
    assert other.read_bytes() == before and not (tmp_path / "nothing").exists()
    assert (tmp_path / "to-mine.txt").is_symlink() and len(saved_moves(mine)) == 2
    assert stat.S_IMODE(mine.stat().st_mode) == 0o640


def current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def dead_pid() -> int:
    """The id of a process that has ended (and been reaped)."""
    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid


def test_a_save_cleans_up_stale_temporary_files_of_its_own(tmp_path):
    # Item 18: kill -9 during SAVE left hidden temporary files.
    stale = tmp_path / f".game.txt.{dead_pid()}-0123abcd{files.TEMP_SUFFIX}"
    old = tmp_path / f".game.txt.{os.getpid()}-4567abcd{files.TEMP_SUFFIX}"
    live = tmp_path / f".game.txt.{os.getpid()}-89abcdef{files.TEMP_SUFFIX}"
    theirs = tmp_path / ".game.txt.abcdefgh.tmp"
    for path in (stale, old, live, theirs):
        path.write_text("half a save")
    two_minutes_ago = time.time() - 120
    os.utime(stale, (two_minutes_ago, two_minutes_ago))
    two_hours_ago = time.time() - 2 * 3600
    os.utime(old, (two_hours_ago, two_hours_ago))
    result = run_in(tmp_path, *TWO_PLAYERS, stdin="no\n111\nSAVE game.txt\nquit\n")
    assert "GAME SAVED TO game.txt." in result.stdout
    left = sorted(os.listdir(tmp_path))
    assert left == sorted(["game.txt", live.name, theirs.name]), "the stale ones are gone"


@pytest.mark.slow
def test_a_save_killed_outright_leaves_the_old_file_or_the_new_one(tmp_path):
    # A writer killed at any point leaves the old file or the new one, never half of one.
    path = tmp_path / "game.txt"
    path.write_text("old\n")
    script = (
        "import sys\n"
        "from qubic.core import files\n"
        "while True:\n"
        "    files.write_atomic(sys.argv[1], 'new\\n' * 20000)\n"
        "    files.write_atomic(sys.argv[1], 'old\\n')\n"
    )
    for _ in range(10):
        writer = subprocess.Popen([sys.executable, "-c", script, str(path)], env=program_env())
        time.sleep(0.3)
        writer.kill()
        writer.wait()
        assert path.read_text() in ("old\n", "new\n" * 20000)
    assert files.clean_stale(tmp_path) == 0  # too fresh to call stale
    left = [name for name in os.listdir(tmp_path) if files.is_our_temporary(name)]
    assert len(left) <= 10


def test_the_writer_fsyncs_the_file_and_its_folder(tmp_path, monkeypatch):
    synced: list[str] = []
    real_fsync = os.fsync

    def fsync(handle: int) -> None:
        synced.append("folder" if stat.S_ISDIR(os.fstat(handle).st_mode) else "file")
        real_fsync(handle)

    monkeypatch.setattr(os, "fsync", fsync)
    files.write_atomic(tmp_path / "a.txt", "text")
    files.write_atomic(tmp_path / "b.txt", "text", exclusive=True)
    assert synced == ["file", "folder", "file", "folder"]
    with pytest.raises(files.NameTaken):
        files.write_atomic(tmp_path / "b.txt", "other", exclusive=True)
    assert (tmp_path / "b.txt").read_text() == "text"
    assert sorted(os.listdir(tmp_path)) == ["a.txt", "b.txt"]


def test_read_text_is_bounded_and_reads_regular_files_only(tmp_path):
    path = tmp_path / "a.txt"
    path.write_text("x" * 100)
    assert files.read_text(path, 100) == "x" * 100
    with pytest.raises(files.FileError, match=r"^it is larger than 99 bytes$"):
        files.read_text(path, 99)
    os.mkfifo(tmp_path / "pipe")
    with pytest.raises(files.FileError, match="named pipe"):
        files.read_text(tmp_path / "pipe", 100)
    (tmp_path / "b.txt").write_bytes(b"\xff")
    with pytest.raises(files.FileError, match=r"^it is not UTF-8 text$"):
        files.read_text(tmp_path / "b.txt", 100)
    with pytest.raises(files.FileError, match=r"^there is no such file or folder$"):
        files.read_text(tmp_path / "none", 100)


@pytest.mark.slow
def test_quit_saves_a_loaded_game_back_to_its_file_asking_first(tmp_path):
    # --load g1.txt, a move, QUIT, YES used to save to a new qubic-....txt.
    g1 = tmp_path / "g1.txt"
    savefile.save(str(g1), Settings(players=2), position("111", ""))
    result = run_in(tmp_path, "--load", "g1.txt", stdin="112\nquit\nyes\n")
    assert "SAVE THE GAME TO g1.txt (REPLACING IT) BEFORE YOU GO? yes" in result.stdout
    assert "GAME SAVED TO g1.txt." in result.stdout
    assert os.listdir(tmp_path) == ["g1.txt"] and len(saved_moves(g1)) == 2
    # NO leaves g1.txt as it was; SAVE FILE puts the game elsewhere.
    result = run_in(tmp_path, "--load", "g1.txt", stdin="113\nquit\nno\n")
    assert "GOODBYE" in result.stdout and len(saved_moves(g1)) == 2
    result = run_in(tmp_path, "--load", "g1.txt", stdin="113\nquit\nsave g2.txt\n")
    assert "GAME SAVED TO g2.txt." in result.stdout
    assert len(saved_moves(g1)) == 2 and len(saved_moves(tmp_path / "g2.txt")) == 3


def test_export_lines_still_load(tmp_path):
    line = savefile.export(Settings(players=2), position("111", ""))
    result = run_piped("--load", line, stdin="quit\nno\n")
    assert result.returncode == 0 and "RESUMING A SAVED GAME AT MOVE 2." in result.stdout
