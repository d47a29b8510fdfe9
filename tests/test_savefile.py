"""The saved-game format: what is written, what is refused, and that a save loads back whole."""

import os
import tempfile
from datetime import datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qubic.core.board import PASS, Board, Mark
from qubic.core.notation import parse_cell
from qubic.core.variant import CUBE3, QUBIC, TESSERACT
from qubic.play import savefile
from qubic.play.savefile import SaveFileError
from qubic.play.session import Session
from qubic.play.settings import Settings
from qubic.players.levels import LEVELS

SAVED = """\
qubic-save 2
variant: qubic size 4 dims 3 target 1 sides 2
players: 1
human: X
level: normal
level-o: normal
first: O
always-show: yes
time-limit: 30.0
seed: 5
moves: 143 111 222 --
"""


def example() -> tuple[Settings, Board]:
    board = Board.from_moves(
        [parse_cell("143"), parse_cell("111"), parse_cell("222"), PASS], first=Mark.O
    )
    return Settings(always_show=True, time_limit=30.0, seed=5), board


def test_the_format_is_a_version_line_then_keys():
    assert savefile.dumps(*example()) == SAVED


def test_loading_gives_back_settings_and_position():
    settings_, board = savefile.loads(SAVED)
    want_settings, want_board = example()
    assert settings_ == want_settings
    assert board.moves == want_board.moves and board.first is Mark.O
    assert board.turn is Mark.O


def test_a_version_1_file_loads_as_qubic():
    old = SAVED.replace(
        "qubic-save 2\nvariant: qubic size 4 dims 3 target 1 sides 2\n", "qubic-save 1\n"
    )
    settings_, board = savefile.loads(old)
    assert settings_ == example()[0] and settings_.variant == QUBIC
    assert board.moves == example()[1].moves


def test_the_export_is_the_file_on_one_line_and_loads_back():
    line = savefile.export(*example())
    assert "\n" not in line and line.startswith("qubic-save 2; variant: qubic")
    settings_, board = savefile.load(line)
    assert settings_ == example()[0] and board.moves == example()[1].moves


def test_keys_may_come_in_any_order_and_optional_values_be_none():
    lines = (
        SAVED.replace("seed: 5", "seed: none")
        .replace("time-limit: 30.0", "time-limit: none")
        .splitlines()
    )
    settings_, _ = savefile.loads("\n".join([lines[0], *reversed(lines[1:])]))
    assert settings_.seed is None and settings_.time_limit is None


def test_an_empty_game_has_an_empty_moves_line():
    text = savefile.dumps(Settings(players=2), Board())
    assert "moves:\n" in text and "human: X O\n" in text
    settings_, board = savefile.loads(text)
    assert settings_.players == 2 and board.moves == []


def corrupt(old: str, new: str) -> str:
    assert old in SAVED
    return SAVED.replace(old, new)


@pytest.mark.parametrize(
    "text, reason",
    [
        ("", "not a qubic saved game"),
        ("hello\n", "not a qubic saved game"),
        (corrupt("qubic-save 2", "qubic-save 3"), "reads qubic-save 1 and qubic-save 2"),
        (corrupt("variant: qubic", "variant: chess"), "variant: there is no variant 'chess'"),
        (
            corrupt("level: normal", "level: classic").replace("target 1", "target 2"),
            "level: level classic plays QUBIC",
        ),
        (corrupt("players: 1\n", ""), "'players' is missing"),
        (corrupt("players: 1", "players 1"), "line 3 is not 'key: value'"),
        (corrupt("seed: 5", "colour: red"), "line 10: unknown key 'colour'"),
        (SAVED + "seed: 6\n", "line 12: 'seed' is given twice"),
        (corrupt("players: 1", "players: 3"), "players: '3' is not one of 0, 1, 2"),
        (corrupt("human: X", "human: O"), "human 'O' does not fit players 1"),
        (corrupt("level: normal", "level: godlike"), "level: there is no level 'godlike'"),
        (corrupt("level-o: normal", "level-o: "), "level-o: there is no level ''"),
        (corrupt("first: O", "first: Z"), "first: 'Z' is not one of X, O"),
        (corrupt("always-show: yes", "always-show: maybe"), "always-show: 'maybe' is not one"),
        (corrupt("time-limit: 30.0", "time-limit: -1"), "time-limit '-1' is not a positive"),
        (corrupt("time-limit: 30.0", "time-limit: nan"), "time-limit 'nan' is not a positive"),
        (corrupt("seed: 5", "seed: five"), "seed 'five' is not a whole number"),
        (corrupt("143 111", "143 511"), "move 2 '511': coordinates run from 1 to 4"),
        (corrupt("143 111", "143 143"), "move 2 '143' is on a used square"),
        (corrupt("143 111 222 --", "-- 143 111 222"), "move 1 is a pass by the machine"),
        (corrupt("players: 1\nhuman: X", "players: 0\nhuman: none"), "move 4 is a pass by"),
        (corrupt("moves: 143 111 222 --", "moves: 111 211 112 212 113 213 114"), "already over"),
        (
            corrupt("moves: 143 111 222 --", "moves: 111 211 112 212 113 213 114 444"),
            "move 8 comes after the end of the game",
        ),
    ],
)
def test_a_corrupt_save_is_refused_with_its_reason(text, reason):
    with pytest.raises(SaveFileError) as caught:
        savefile.loads(text)
    message = str(caught.value)
    assert reason in message and "\n" not in message


def test_load_reports_missing_unreadable_and_binary_files(tmp_path):
    with pytest.raises(SaveFileError, match="there is no such file or folder"):
        savefile.load(str(tmp_path / "nowhere.txt"))
    with pytest.raises(SaveFileError, match="it is a folder"):
        savefile.load(str(tmp_path))
    binary = tmp_path / "binary"
    binary.write_bytes(b"\xff\xfe\x00qubic")
    with pytest.raises(SaveFileError, match="not a text file"):
        savefile.load(str(binary))


def test_save_writes_atomically_and_replaces_an_older_save(tmp_path):
    path = tmp_path / "game.txt"
    savefile.save(str(path), Settings(), Board())
    savefile.save(str(path), *example(), replace=True)  # the caller's word: this game wrote it
    assert path.read_text() == SAVED
    assert os.listdir(tmp_path) == ["game.txt"], "no temporary file is left behind"


def test_save_never_overwrites_a_file_that_is_not_a_save(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("my notes\n")
    with pytest.raises(SaveFileError, match="exists and is not a qubic saved game"):
        savefile.save(str(path), *example())
    assert path.read_text() == "my notes\n"


def test_save_into_a_missing_directory_fails_cleanly(tmp_path):
    with pytest.raises(SaveFileError, match="there is no such folder"):
        savefile.save(str(tmp_path / "no" / "game.txt"), *example())
    assert os.listdir(tmp_path) == []


def test_the_suggested_name_carries_date_and_time_and_never_lands_on_a_file(tmp_path):
    now = datetime(2026, 11, 22, 15, 30, 7)
    assert savefile.suggested_name(now, str(tmp_path)) == "qubic-2026-11-22-153007.txt"
    (tmp_path / "qubic-2026-11-22-153007.txt").write_text("mine")
    (tmp_path / "qubic-2026-11-22-153007-2.txt").write_text("mine")
    assert savefile.suggested_name(now, str(tmp_path)) == "qubic-2026-11-22-153007-3.txt"


@st.composite
def games_in_progress(draw: st.DrawFn) -> tuple[Settings, Board]:
    """Random options and a random game still in progress, passes included."""
    variant = draw(
        st.sampled_from(
            [QUBIC, CUBE3, TESSERACT.with_options(sides=4), CUBE3.with_options(sides=3, target=2)]
        )
    )
    players = draw(st.integers(0, variant.sides))
    playable = [name for name, level in LEVELS.items() if level.supports(variant)]
    options = Settings(
        players=players,
        level=draw(st.sampled_from(playable)),
        level_o=draw(st.sampled_from(playable)),
        always_show=draw(st.booleans()),
        # What --time-limit takes: milliseconds, up to a day.
        time_limit=draw(st.none() | st.integers(1, 86_400_000).map(lambda ms: ms / 1000)),
        seed=draw(st.none() | st.integers(-(2**63), 2**63)),
        variant=variant,
    )
    board = Board(variant, draw(st.sampled_from(list(Mark)[: variant.sides])))
    for _ in range(draw(st.integers(0, 80))):
        if board.turn in options.seats.persons and draw(st.integers(0, 4)) == 0:
            board.push_pass()
        else:
            board.push(draw(st.sampled_from(board.legal_moves())))
        if board.is_over():
            board.pop()  # SAVE is only offered while the game goes on
            break
    return options, board


def session_state(session: Session) -> tuple:
    board = session.board
    return (
        session.settings,
        board.moves,
        board.first,
        board.turn,
        board.bits,
        session.stage,
        session.prompt,
        session.machine_to_move,
        session.status,
    )


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(games_in_progress())
def test_save_then_load_resumes_the_identical_session(game):
    session = Session.resume(*game)
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory, "game.txt")
        message, _ = session.answer(f"SAVE {path}")
        assert message == f"GAME SAVED TO {path}."
        loaded = Session.resume(*savefile.load(str(path)))
        assert savefile.dumps(loaded.settings, loaded.board) == path.read_text()
    assert session_state(loaded) == session_state(session)
