"""The game flow through Session: questions, answers, turns, messages, replay."""

import re
from dataclasses import replace

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from qubic.core.board import Mark
from qubic.core.notation import format_cell, looks_like_move, parse_cell, parse_moves
from qubic.core.variant import QUBIC
from qubic.play.commands import LEAVE
from qubic.play.instructions import instructions
from qubic.play.render import Picture
from qubic.play.session import AT_THE_END_WORDS, Session
from qubic.play.settings import Settings
from qubic.play.sitting import GOODBYE, Stage, parse_yes_no
from qubic.players.levels import LEVELS
from qubic.players.normal import NormalPlayer
from tests.scripted import find_game, human_moves, winning_line


def started(human_first: bool = True, seed: int = 1) -> Session:
    session = Session(Settings(seed=seed))
    session.start()
    session.answer("no")
    session.answer("yes" if human_first else "no")
    return session


def play_moves(session: Session, moves: list[int]) -> list:
    """Play the human's moves, letting the machine answer; everything printed, in order."""
    output = []
    for cell in moves:
        while session.machine_to_move:
            output += session.machine_move()
        assert session.stage is Stage.MOVE
        output += session.answer(format_cell(cell))
    while session.machine_to_move:
        output += session.machine_move()
    return output


def test_questions_come_in_the_guides_order():
    session = Session(Settings(seed=1))
    assert session.start()[0] == "QUBIC"
    assert session.prompt == "DO YOU WANT INSTRUCTIONS?"
    assert session.answer("YES") == [*instructions(QUBIC), ""]
    assert session.prompt == "DO YOU WANT TO MOVE FIRST?"
    assert session.answer("y") == []
    assert session.prompt == "YOUR MOVE?"
    assert not session.machine_to_move


def test_instructions_cover_lines_format_and_commands():
    text = " ".join(instructions(QUBIC))
    for needle in ("76 LINES", "LEVEL COLUMN ROW", "234 OR 2,3,4", "SHOW", "BOARD", "DRAW"):
        assert needle in text


def test_yes_no_accepts_any_case_and_short_forms():
    assert [parse_yes_no(t) for t in ("YES", "yes", " Y ", "n", "No")] == [
        True,
        True,
        True,
        False,
        False,
    ]
    assert parse_yes_no("maybe") is None and parse_yes_no("") is None


def test_the_machine_moves_first_when_asked_to():
    session = started(human_first=False)
    assert session.machine_to_move
    [line] = session.machine_move()
    assert line.startswith("MACHINE MOVES TO ")
    cell = parse_cell(line.removeprefix("MACHINE MOVES TO "))
    assert session.board.mark_at(cell) is Mark.O
    assert session.prompt == "YOUR MOVE?" and not session.machine_to_move


def test_a_move_is_answered_by_the_machine():
    session = started()
    assert session.answer("2,3,4") == []
    assert session.board.mark_at(parse_cell("234")) is Mark.X
    assert session.machine_to_move
    assert session.machine_move()[0].startswith("MACHINE MOVES TO ")


def test_show_and_board_print_the_cube_in_any_case():
    session = started()
    session.answer("111")
    session.machine_move()
    for word in ("SHOW", "board", "Show"):
        [picture] = session.answer(word)
        assert isinstance(picture, Picture)
        assert picture.marks[parse_cell("111")] is Mark.X
        assert picture.marks.count(Mark.O) == 1


def test_bad_moves_explain_and_change_nothing():
    session = started()
    session.answer("111")
    session.machine_move()
    expectations = {
        "2345": "THREE COORDINATES",
        "65": "THREE COORDINATES",
        "24": "MOVES NEED THREE COORDINATES (LEVEL, COLUMN, ROW), EACH 1 TO 4",
        "1 2": "THREE COORDINATES",
        "2 34": "THREE COORDINATES",
        "159": "OFF THE CUBE",
        "111": "111 IS TAKEN BY X (YOU). TRY ANOTHER SQUARE.",
        "": "TYPE A MOVE LIKE 234",
        "hello": "IS NOT A MOVE",
    }
    for text, needle in expectations.items():
        moves = list(session.board.moves)
        [message] = session.answer(text)
        assert needle in message
        assert session.board.moves == moves
        assert session.prompt == "YOUR MOVE?" and not session.machine_to_move


def test_a_won_game_names_the_line_then_offers_another():
    game = find_game(Mark.X, NormalPlayer(5))
    session = started(seed=5)
    output = play_moves(session, human_moves(game))
    line = " ".join(format_cell(c) for c in winning_line(game))
    assert output[-2:] == [f"YOU WIN! THE LINE: {line}", AT_THE_END_WORDS]
    assert session.prompt == "DO YOU WANT TO PLAY ANOTHER GAME?"


def test_a_lost_game_names_the_machines_line():
    game = find_game(Mark.O, NormalPlayer(5))
    session = started(seed=5)
    output = play_moves(session, human_moves(game))
    assert output[-2].startswith("MACHINE WINS. THE LINE: ")
    cells = parse_moves(output[-2].split(": ")[1])
    assert cells == list(winning_line(game))


def test_a_full_board_is_a_draw():
    game = find_game(None, NormalPlayer(5), human_first=False)
    session = started(human_first=False, seed=5)
    output = play_moves(session, human_moves(game))
    assert output[-2:] == ["THE GAME IS A DRAW.", AT_THE_END_WORDS]
    assert session.board.is_over() and session.board.winner is None


def test_play_again_skips_instructions_and_no_says_goodbye():
    game = find_game(Mark.O, NormalPlayer(5))
    session = started(seed=5)
    play_moves(session, human_moves(game))
    assert session.answer("perhaps") == [
        "HERE: YES OR NO, REVIEW TO LOOK BACK ON THE GAME, OR HELP."
    ]
    assert session.answer("YES") == []
    assert session.prompt == "DO YOU WANT TO MOVE FIRST?"
    session.answer("yes")
    assert session.board.moves == []
    play_moves(session, human_moves(game))
    assert session.answer("no") == [GOODBYE]
    assert session.done


def prompt_state(session: Session):
    return session.stage, list(session.board.moves), session.board.first, replace(session.settings)


COMMAND_TEXTS = [
    "undo",
    "Undo please",
    "hint",
    "HINT 2",
    "moves",
    "moves all",
    "help",
    "help me",
    "show",
    "board ALWAYS",
    "show off",
    "show sideways",
    "level",
    "level nope",
    "level normal",
    "quit now",
    "exit 2",
]


def may_change(session: Session, text: str) -> bool:
    """Whether `text` is an answer that may change the game (everything else must not)."""
    if session.stage is not Stage.MOVE:
        return parse_yes_no(text) is not None or text.strip().upper() in LEAVE
    words = [word.upper() for word in text.split()]
    if not words:
        return False
    command, rest = words[0], words[1:]
    if command in ("QUIT", "EXIT"):
        return not rest
    if command == "UNDO":
        return not rest
    if command in ("SHOW", "BOARD"):
        return rest in (["ALWAYS"], ["OFF"])
    if command == "LEVEL":
        return len(rest) == 1 and rest[0].lower() in LEVELS
    if command in session.commands:
        return False
    return looks_like_move(text) and _legal(session, text)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.text(max_size=12) | st.sampled_from(COMMAND_TEXTS), min_size=1, max_size=8),
    st.integers(0, 4),
    st.sampled_from([1, 2]),
)
@example(["QUIT"], 0, 1)  # leaving at a yes-or-no question ends the sitting: an answer
def test_random_text_never_crashes_or_changes_the_game(texts, stop_at, players):
    """At every question, text that is not a valid answer changes nothing; neither do the
    commands that only tell (SHOW, HINT, MOVES, HELP, LEVEL, SAVE without a name)."""
    session = Session(Settings(seed=2, players=players))
    session.start()
    # Reach one of the questions, then throw text at it.
    script = [["no"], ["no", "yes"], ["no", "yes", "111"], ["no", "no", "111", "222"], []][stop_at]
    for answer in script:
        session.answer(answer)
        while session.machine_to_move:
            session.machine_move()
    for text in texts:
        words = text.split()
        command = (
            session.stage is Stage.MOVE and bool(words) and (words[0].upper() in session.commands)
        )
        if command and words[0].upper() == "SAVE":
            continue  # it would write a file; SAVE has its own tests
        before = prompt_state(session)
        changing = may_change(session, text)
        output = session.answer(text)
        if not changing:
            assert prompt_state(session) == before
            if not command:
                assert len(output) == 1 and isinstance(output[0], str)
        while session.machine_to_move:
            session.machine_move()
        if session.done:
            break


def _legal(session: Session, text: str) -> bool:
    try:
        return session.board.is_legal(parse_cell(text))
    except ValueError:
        return False


def test_level_command_names_changes_and_rejects_levels():
    session = started()
    current, steps, how = session.answer("LEVEL")
    assert current == "THE MACHINE PLAYS AT LEVEL NORMAL." and "TO CHANGE IT" in how
    assert steps.startswith("THE STEPS: ") and "NORMAL " in steps
    [unknown] = session.answer("level grandmaster")
    assert "THERE IS NO LEVEL 'grandmaster'" in unknown and session.settings.level == "normal"
    for name in LEVELS:
        assert session.answer(f"level {name.title()}") == [f"THE LEVEL IS NOW {name.upper()}."]
        assert session.settings.level == name
    assert session.board.moves == [] and not session.machine_to_move


def test_two_players_take_turns_as_x_and_o_until_one_wins():
    session = Session(Settings(players=2))
    session.start()
    assert session.answer("no") == []
    assert session.prompt == "X, YOUR MOVE?"  # no "move first?": X starts
    output = []
    for move in ("111", "211", "112", "212", "113", "213", "444", "214"):
        assert not session.machine_to_move
        output = session.answer(move)
    picture, verdict, _ = output
    assert isinstance(picture, Picture) and picture.line == frozenset(
        parse_cell(c) for c in ("211", "212", "213", "214")
    )
    assert verdict == "O WINS! THE LINE: 211 212 213 214"
    assert session.answer("yes") == []
    assert session.prompt == "X, YOUR MOVE?" and session.board.moves == []


def test_no_players_the_machine_plays_itself_to_the_end():
    session = Session(Settings(players=0, seed=3))
    assert session.start()[0] == "QUBIC"
    output = []
    while session.machine_to_move:
        output += session.machine_move()
    announcements = [line for line in output if isinstance(line, str)]
    assert all(re.fullmatch(r"[XO] MOVES TO [1-4]{3}", line) for line in announcements[:-2])
    assert announcements[0].startswith("X ") and announcements[1].startswith("O ")
    assert announcements[-2].startswith(("X WINS!", "O WINS!", "THE GAME IS A DRAW"))
    assert isinstance(output[-3], Picture)
    assert session.prompt == "DO YOU WANT TO PLAY ANOTHER GAME?"
    session.answer("yes")
    assert session.machine_to_move and session.board.moves == []


def test_the_machine_levels_per_side():
    session = Session(Settings(players=0))
    assert set(session.machines) == {Mark.X, Mark.O}
    assert set(started().machines) == {Mark.O}
    assert Session(Settings(players=2)).machines == {}


def test_time_up_passes_the_turn_to_the_machine():
    session = started(seed=3)
    session.settings.time_limit = 2.0
    assert session.seconds_to_answer == 2.0
    assert session.time_up() == ["TIME IS UP. YOUR TURN PASSES TO THE MACHINE."]
    assert session.machine_to_move and session.seconds_to_answer is None
    session.machine_move()
    assert session.board.mark_at(session.board.moves[-1]) is Mark.O
    assert session.board.turn is Mark.X and session.prompt == "YOUR MOVE?"


def test_time_up_with_two_players_passes_to_the_other_person():
    session = Session(Settings(players=2, time_limit=1.5))
    session.start()
    session.answer("no")
    assert session.time_up() == ["TIME IS UP. THE TURN PASSES TO O."]
    assert session.prompt == "O, YOUR MOVE?" and session.seconds_to_answer == 1.5


def test_questions_other_than_a_persons_move_are_untimed():
    session = Session(Settings(time_limit=1.0))
    assert session.seconds_to_answer is None
    session.answer("no")
    assert session.seconds_to_answer is None
    session.answer("no")
    assert session.machine_to_move and session.seconds_to_answer is None
