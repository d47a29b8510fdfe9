"""The commands at the move prompt, through Session: UNDO, HINT, MOVES, SAVE, SHOW, HELP."""

import re

from qubic import savefile
from qubic.board import PASS, Mark
from qubic.game import COMMAND_HELP, Session
from qubic.levels import LEVELS, hint_level, make_player
from qubic.notation import format_cell, parse_cell
from qubic.render import Picture
from qubic.settings import Settings


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


def test_undo_after_a_pass_takes_back_the_pass_and_the_reply():
    session = started(time_limit=5.0)
    session.time_up()
    session.machine_move()
    [message] = session.answer("undo")
    assert message.startswith("TAKEN BACK: YOUR PASS AND THE MACHINE'S ")
    assert session.board.moves == []


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
    [picture] = session.answer("111")
    assert isinstance(picture, Picture) and picture.last == parse_cell("111")
    announcement, picture = session.machine_move()
    assert announcement.startswith("MACHINE MOVES TO ") and isinstance(picture, Picture)
    assert session.answer("SHOW OFF")[0].startswith("THE BOARD WILL BE SHOWN ONLY")
    assert session.answer(free(session)) == []
    assert session.answer("show maybe")[0].startswith("SHOW TAKES ALWAYS OR OFF")


def test_the_always_show_option_starts_with_the_board_on():
    session = started(always_show=True)
    assert isinstance(session.answer("111")[-1], Picture)


def test_save_writes_the_game_and_says_how_to_resume(tmp_path):
    session = started(seed=8)
    play(session, "111")
    path = tmp_path / "my game.txt"
    [message] = session.answer(f"save {path}")
    assert message == f"GAME SAVED TO {path}. TO RESUME IT: qubic --load '{path}'"
    settings, board = savefile.load(str(path))
    assert settings == session.settings and board.moves == session.board.moves


def test_save_without_a_name_suggests_one_and_failures_explain(tmp_path):
    session = started()
    [suggestion] = session.answer("SAVE")
    assert re.fullmatch(r"SAVE NEEDS A FILE NAME, FOR EXAMPLE: SAVE qubic-\d{4}-\d\d-\d\d-\d{4}"
                        r"\.txt", suggestion)
    [failure] = session.answer(f"save {tmp_path}/missing/game.txt")
    assert failure.startswith(f"CANNOT SAVE TO {tmp_path}/missing/game.txt: ")
    assert "No such file or directory" in failure


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
    assert resumed.machine_move()[0].startswith("MACHINE MOVES TO ")
    assert board.moves.count(PASS) == 1 and resumed.prompt == "YOUR MOVE?"


def test_help_lists_every_command_from_the_one_table():
    session = started()
    lines = session.answer("help")
    assert len(lines) == len(COMMAND_HELP) + 1
    for (usage, meaning), line in zip(COMMAND_HELP, lines[1:]):
        assert usage in line and meaning in line
    text = "\n".join(lines)
    for command in session.commands:
        assert command in text


def test_level_has_no_meaning_with_two_players():
    session = started(players=2)
    assert session.answer("level normal") == ["NO MACHINE PLAYS IN A TWO-PLAYER GAME."]


def test_completion_words_follow_the_question():
    session = Session()
    assert session.words == ["YES", "NO"]
    session = started()
    assert {"UNDO", "HINT", "MOVES", "SAVE", "HELP", "SHOW", "ALWAYS", "OFF"} <= set(
        session.words)
    assert {name.upper() for name in LEVELS} <= set(session.words)


def test_status_names_move_level_and_turn():
    session = Session()
    assert session.status == "LEVEL NORMAL"
    session = started()
    assert session.status == "MOVE 1 | LEVEL NORMAL | X TO PLAY (YOU)"
    play(session, "111")
    assert session.status == "MOVE 3 | LEVEL NORMAL | X TO PLAY (YOU)"
    assert started(players=2).status == "MOVE 1 | TWO PLAYERS | X TO PLAY"
    assert Session(Settings(players=0)).status == (
        "MOVE 1 | X NORMAL AGAINST O NORMAL | X TO PLAY")

