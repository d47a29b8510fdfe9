"""The game flow through Session: questions, answers, turns, messages, replay."""

from hypothesis import given, settings
from hypothesis import strategies as st

from qubic.board import Mark
from qubic.game import GOODBYE, INSTRUCTIONS, Picture, Session, Stage, parse_yes_no
from qubic.heuristic import NormalPlayer
from qubic.levels import LEVELS
from qubic.notation import format_cell, looks_like_move, parse_cell
from tests.scripted import find_game, human_moves


def started(human_first: bool = True, seed: int = 1) -> Session:
    session = Session(seed=seed)
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
    session = Session(seed=1)
    assert session.start()[0] == "QUBIC"
    assert session.prompt == "DO YOU WANT INSTRUCTIONS?"
    assert session.answer("YES") == [*INSTRUCTIONS, ""]
    assert session.prompt == "DO YOU WANT TO MOVE FIRST?"
    assert session.answer("y") == []
    assert session.prompt == "YOUR MOVE?"
    assert not session.machine_to_move


def test_instructions_cover_lines_format_and_commands():
    text = "\n".join(INSTRUCTIONS)
    for needle in ("76 LINES", "LEVEL COLUMN ROW", "234 OR 2,3,4", "SHOW", "BOARD", "DRAW"):
        assert needle in text


def test_yes_no_accepts_any_case_and_short_forms():
    assert [parse_yes_no(t) for t in ("YES", "yes", " Y ", "n", "No")] == [
        True, True, True, False, False]
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
        "24": "THREE COORDINATES",
        "159": "OFF THE CUBE",
        "111": "THAT SQUARE IS USED",
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
    line = " ".join(format_cell(c) for c in game.winning_line)
    assert output[-1] == f"YOU WIN! THE LINE: {line}"
    assert session.prompt == "DO YOU WANT TO PLAY ANOTHER GAME?"


def test_a_lost_game_names_the_machines_line():
    game = find_game(Mark.O, NormalPlayer(5))
    session = started(seed=5)
    output = play_moves(session, human_moves(game))
    assert output[-1].startswith("MACHINE WINS. THE LINE: ")
    cells = [parse_cell(c) for c in output[-1].split(": ")[1].split()]
    assert cells == list(game.winning_line)


def test_a_full_board_is_a_draw():
    game = find_game(None, NormalPlayer(5), human_first=False)
    session = started(human_first=False, seed=5)
    output = play_moves(session, human_moves(game))
    assert output[-1] == "THE GAME IS A DRAW."
    assert session.board.is_full()


def test_play_again_skips_instructions_and_no_says_goodbye():
    game = find_game(Mark.O, NormalPlayer(5))
    session = started(seed=5)
    play_moves(session, human_moves(game))
    assert session.answer("perhaps") == ["PLEASE ANSWER YES OR NO."]
    assert session.answer("YES") == []
    assert session.prompt == "DO YOU WANT TO MOVE FIRST?"
    session.answer("yes")
    assert session.board.moves == []
    play_moves(session, human_moves(game))
    assert session.answer("no") == [GOODBYE]
    assert session.done


def prompt_state(session: Session):
    return session.stage, list(session.board.moves), session.board.first


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(max_size=12), min_size=1, max_size=8), st.integers(0, 3))
def test_random_text_never_crashes_or_changes_the_game(texts, stop_at):
    """At every question, text that is not a valid answer changes nothing."""
    session = Session(seed=2)
    session.start()
    # Reach one of the four questions, then throw text at it.
    script = [["no"], ["no", "yes"], ["no", "yes", "111"], []][stop_at]
    for answer in script:
        session.answer(answer)
        while session.machine_to_move:
            session.machine_move()
    for text in texts:
        before = prompt_state(session)
        if session.stage is Stage.MOVE:
            words = text.split()
            valid = (bool(words) and words[0].upper() in session.commands) or (
                looks_like_move(text) and _legal(session, text))
        else:
            valid = parse_yes_no(text) is not None
        output = session.answer(text)
        if not valid:
            assert prompt_state(session) == before
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
    [current] = session.answer("LEVEL")
    assert "THE LEVEL IS NORMAL" in current
    [unknown] = session.answer("level grandmaster")
    assert "THERE IS NO LEVEL 'GRANDMASTER'" in unknown and session.level == "normal"
    for name in LEVELS:
        assert session.answer(f"level {name.title()}") == [f"THE LEVEL IS NOW {name.upper()}."]
        assert session.level == name
    assert session.board.moves == [] and not session.machine_to_move
