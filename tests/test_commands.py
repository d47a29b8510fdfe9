"""The commands at the move prompt, through Session: UNDO, HINT, MOVES, SAVE, SHOW, HELP."""

import re

from qubic.core.board import PASS, Mark
from qubic.core.notation import format_cell, parse_cell
from qubic.core.variant import VARIANTS
from qubic.play import savefile
from qubic.play.commands import COMMAND_HELP, FILE, PASS_STAYS, command_help
from qubic.play.render import Picture
from qubic.play.session import Session
from qubic.play.settings import Settings
from qubic.play.sitting import GOODBYE
from qubic.play.text import fit
from qubic.players.levels import LEVELS, hint_level, make_player


def started(human_first: bool = True, seed: int = 1, **options) -> Session:
    session = Session(Settings(seed=seed, **options))
    session.start()
    session.answer("no")
    if session.prompt == "DO YOU WANT TO MOVE FIRST?":
        session.answer("yes" if human_first else "no")
    while session.machine_to_move:
        session.machine_move()
    return session


def play(session: Session, *moves: str) -> None:
    for move in moves:
        assert session.answer(move) == [] or session.settings.always_show
        while session.machine_to_move:
            session.machine_move()


def free(session: Session) -> str:
    """Some empty square."""
    return format_cell(session.board.legal_moves()[-1])


def test_undo_takes_back_your_move_and_the_machines_reply():
    session = started()
    play(session, "111")
    second = free(session)
    play(session, second)
    reply = format_cell(session.board.moves[-1])
    assert session.answer("undo") == [f"TAKEN BACK: YOUR {second} AND THE MACHINE'S {reply}."]
    assert format_cell(session.board.moves[0]) == "111"
    assert len(session.board.moves) == 2 and session.board.turn is Mark.X
    session.answer("UNDO")
    assert session.board.moves == [] and session.prompt == "YOUR MOVE?"
    assert session.answer("Undo") == ["NOTHING TO UNDO."]


def test_undo_when_only_the_machine_has_moved():
    session = started(human_first=False)
    assert len(session.board.moves) == 1
    [message] = session.answer("undo")
    assert message.startswith("NOTHING OF YOURS TO UNDO")
    assert len(session.board.moves) == 1


def test_a_turn_that_passed_cannot_be_taken_back():
    session = started(time_limit=5.0)
    session.time_up()
    session.machine_move()
    moves = list(session.board.moves)
    assert session.answer("undo") == [PASS_STAYS]
    assert session.board.moves == moves
    play(session, free(session))
    assert session.answer("undo")[0].startswith("TAKEN BACK: YOUR ")
    assert session.board.moves == moves and session.answer("undo") == [PASS_STAYS]
    two = started(players=2, time_limit=5.0)
    two.time_up()
    assert two.answer("undo") == [PASS_STAYS] and two.board.moves == [PASS]


def test_undo_in_a_two_player_game_takes_back_one_move():
    session = started(players=2)
    play(session, "111", "222")
    assert session.answer("undo") == ["TAKEN BACK: O'S 222."]
    assert session.prompt == "O, YOUR MOVE?"
    assert session.answer("undo") == ["TAKEN BACK: X'S 111."]
    assert session.answer("undo") == ["NOTHING TO UNDO."]


def test_hint_is_the_hint_levels_move_and_is_not_played():
    session = started(seed=4)
    play(session, "111", "122")
    moves = list(session.board.moves)
    expected = make_player(hint_level(session.variant), 4).choose(session.board.copy()).cell
    assert session.answer("hint") == [f"HINT: {format_cell(expected)}"]
    assert session.board.moves == moves
    assert session.board.is_legal(expected)


def test_hint_takes_a_win_and_suggests_for_o_in_a_two_player_game():
    session = started(players=2)
    play(session, "111", "211", "112", "212", "113", "213", "444")
    assert session.prompt == "O, YOUR MOVE?"
    assert session.answer("HINT") == ["HINT: 214"]


def test_moves_lists_every_turn_with_its_player():
    session = started(human_first=False, seed=3, time_limit=9.0)
    assert session.answer("moves")[0].endswith("(MACHINE)")
    session.time_up()
    session.machine_move()
    play(session, "444")
    lines = session.answer("moves")
    board = session.board
    assert len(lines) == len(board.moves) == 5
    assert lines[0] == f" 1. O {format_cell(board.moves[0])} (MACHINE)"
    assert lines[1] == " 2. X PASS (YOU)"
    assert lines[3] == " 4. X 444 (YOU)"


def test_moves_in_a_two_player_game_and_before_any_move():
    session = started(players=2)
    assert session.answer("moves") == ["NO MOVES YET."]
    play(session, "2,3,4", "111")
    assert session.answer("MOVES") == [" 1. X 234", " 2. O 111"]


def test_show_always_prints_the_board_after_every_move_until_show_off():
    session = started()
    assert session.answer("show always") == ["THE BOARD WILL BE SHOWN AFTER EVERY MOVE."]
    assert session.answer("111") == [], "the board comes once the machine has replied"
    announcement, picture = session.machine_move()
    assert announcement.startswith("MACHINE MOVES TO ") and isinstance(picture, Picture)
    assert picture.marks[parse_cell("111")] is Mark.X
    assert session.answer("SHOW OFF")[0].startswith("THE BOARD WILL BE SHOWN ONLY")
    assert session.answer(free(session)) == []
    assert session.answer("show maybe")[0].startswith("SHOW TAKES ALWAYS OR OFF")


def test_the_always_show_option_starts_with_the_board_on():
    session = started(always_show=True)
    session.answer("111")
    assert isinstance(session.machine_move()[-1], Picture)


def test_save_writes_the_game_and_says_how_to_resume(tmp_path):
    session = started(seed=8)
    play(session, "111")
    path = tmp_path / "my game.txt"
    message = session.answer(f"save '{path}'")
    assert message == [f"GAME SAVED TO {path}.", f"TO RESUME IT: qubic --load '{path}'"]
    settings, board = savefile.load(str(path))
    assert settings == session.settings and board.moves == session.board.moves


def test_save_alone_saves_to_a_dated_name_and_failures_explain(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    session = started()
    play(session, "111")
    saved = "\n".join(session.answer("SAVE"))
    match = re.fullmatch(
        r"GAME SAVED TO (qubic-\d{4}-\d\d-\d\d-\d{6}\.txt)\.\n"
        r"TO RESUME IT: qubic --load \1",
        saved,
    )
    assert match and savefile.load(match.group(1))[1].moves == session.board.moves
    [failure] = session.answer(f"save {tmp_path}/missing/game.txt")
    assert failure == f"CANNOT SAVE TO {tmp_path}/missing/game.txt: THERE IS NO SUCH FOLDER."


def test_save_names_take_quotes_and_a_home_directory(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    session = started()
    path = tmp_path / "my game.txt"
    assert session.answer('save "~/my game.txt"') == [
        "GAME SAVED TO ~/my game.txt.",
        f"TO RESUME IT: qubic --load '{path}'",
    ]
    assert path.exists()
    [two] = session.answer("save my game.txt")
    assert two.startswith("SAVE TAKES ONE FILE NAME") and not (tmp_path / "my").exists()
    [unclosed] = session.answer("save 'my game.txt")
    assert unclosed.startswith("A QUOTE IS NOT CLOSED")


def test_resume_continues_at_the_move_and_shows_the_board():
    session = started(seed=6)
    play(session, "111", "222")
    resumed = Session.resume(session.settings, session.board.copy())
    title, *_, resuming, picture = resumed.start()
    assert title == "QUBIC" and resuming == "RESUMING A SAVED GAME AT MOVE 5."
    assert isinstance(picture, Picture) and picture.marks.count(Mark.X) == 2
    assert resumed.prompt == "YOUR MOVE?" and not resumed.machine_to_move


def test_resume_when_the_machine_is_to_move():
    session = started()
    play(session, "111")
    board = session.board.copy()
    board.push_pass()
    resumed = Session.resume(session.settings, board)
    assert resumed.machine_to_move
    assert not any(isinstance(item, Picture) for item in resumed.start())
    reply, picture = resumed.machine_move()
    assert reply.startswith("MACHINE MOVES TO ") and picture == Picture.of(resumed.board)
    assert resumed.answer(free(resumed)) == [], "the board was due once only"
    assert not any(isinstance(item, Picture) for item in resumed.machine_move())
    assert board.moves.count(PASS) == 1 and resumed.prompt == "YOUR MOVE?"


def test_help_lists_every_command_from_the_one_table():
    session = started()
    said = session.answer("help")
    assert said[0] == "AT YOUR MOVE YOU CAN TYPE:"
    lines = [piece for line in said for piece in fit(line, 80)]  # as the console prints it
    assert all(len(line) <= 80 for line in lines), "it fits 80 columns"
    text = "\n".join(lines)
    words = " ".join(text.split())
    for usage, meaning in command_help(session):
        assert f"{usage} {meaning}" in words, "each command's words, wrapped at spaces"
    for command in session.commands:
        assert command in text
    assert len(command_help(session)) == len(COMMAND_HELP) - 1


def test_help_lists_only_what_works_in_the_variant_played():
    # The 4x4x4 cube takes no square numbers (HELP used to offer `17` there).
    assert "17 " not in " ".join(started().answer("HELP"))
    cube3 = " ".join(" ".join(started(variant=VARIANTS["cube3"]).answer("HELP")).split())
    assert "17 PLAY THE SQUARE NUMBERED 17 (1 TO 27, LEVEL BY LEVEL" in cube3
    tesseract = started(variant=VARIANTS["tesseract"], players=2).answer("HELP")
    text = " ".join(" ".join(tesseract).split())
    assert "ANALYZE" not in text and "cube" not in text and "LEVEL NAME" not in text
    assert "2333 or 2,3,3,3 PLAY THAT SQUARE" in text
    assert "233 or 2,3,3 PLAY LEVEL 2, COLUMN 3, ROW 3" in cube3


def test_level_has_no_meaning_with_two_players():
    session = started(players=2)
    assert session.answer("level normal") == ["NO MACHINE PLAYS IN A TWO-PLAYER GAME."]


def test_completion_words_follow_the_question():
    session = Session()
    assert session.words() == ("YES", "NO", "QUIT", "EXIT")
    session = started()
    commands = {
        "UNDO",
        "HINT",
        "ANALYZE",
        "MOVES",
        "LINES",
        "SAVE",
        "EXPORT",
        "HELP",
        "SHOW",
        "QUIT",
        "EXIT",
    }
    assert commands == set(session.words()) - {"BOARD", "LEVEL"}
    assert session.words("sh") == session.words()
    assert session.words("show ") == session.words("SHOW al") == ("ALWAYS", "OFF")
    assert set(session.words("level ")) == {name.upper() for name in LEVELS} | {"AUTO"}
    assert session.words("save ") == (FILE,)
    assert session.words("undo ") == session.words("show off ") == ()


def test_status_names_move_level_and_turn():
    session = Session()
    assert session.status == "LEVEL NORMAL"
    session = started()
    assert session.status == "MOVE 1 | LEVEL NORMAL | X TO PLAY (YOU)"
    play(session, "111")
    reply = format_cell(session.board.moves[-1])
    assert session.status == f"MOVE 3 | LEVEL NORMAL | X TO PLAY (YOU) | MACHINE PLAYED {reply}"
    assert started(players=2).status == "MOVE 1 | TWO PLAYERS | X TO PLAY"
    assert Session(Settings(players=0)).status == ("MOVE 1 | X NORMAL AGAINST O NORMAL | X TO PLAY")


def test_quit_offers_to_save_a_game_in_progress(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for leave in ("quit", "EXIT"):
        session = started()
        assert session.answer(leave) == [GOODBYE] and session.done, "nothing to save yet"
    session = started()
    play(session, "111")
    assert session.answer("quit now") == ["QUIT AND EXIT TAKE NOTHING AFTER THEM."]
    assert session.answer("Quit") == [] and session.prompt == "SAVE THE GAME BEFORE YOU GO?"
    assert session.answer("maybe") == [
        "PLEASE ANSWER YES OR NO, OR TYPE SAVE AND A FILE NAME TO SAVE THERE, OR BACK TO "
        "RETURN TO THE GAME."
    ]
    saved, resume, goodbye = session.answer("yes")
    assert saved.startswith("GAME SAVED TO qubic-") and goodbye == GOODBYE and session.done
    assert resume.startswith("TO RESUME IT: qubic --load qubic-")
    assert len(list(tmp_path.glob("qubic-*.txt"))) == 1
    session = started()
    play(session, "111")
    session.answer("exit")
    assert session.answer("n") == [GOODBYE] and session.done


def test_leaving_offers_to_save_only_moves_no_save_holds(tmp_path, monkeypatch):
    # QUIT right after SAVE used to ask to save.
    monkeypatch.chdir(tmp_path)
    session = started()
    play(session, "111")
    session.answer("SAVE")
    assert session.answer("QUIT") == [GOODBYE] and session.done
    session = started()
    play(session, "111")
    [said, _] = session.answer("SAVE")
    play(session, "112")
    # Leaving offers the file the game was saved to, and says it will be replaced.
    name = said.removeprefix("GAME SAVED TO ").removesuffix(".")
    assert session.answer("QUIT") == []
    assert session.prompt == f"SAVE THE GAME TO {name} (REPLACING IT) BEFORE YOU GO?"
    assert session.answer("yes")[0] == f"GAME SAVED TO {name}."
    assert savefile.load(str(tmp_path / name))[1].moves == session.board.moves


def test_quit_at_a_yes_no_question_leaves_at_once():
    session = Session()
    assert session.answer("quit") == [GOODBYE] and session.done
