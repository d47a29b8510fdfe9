"""The game flow in other variants: seats with 3-4 sides, scores, LINES, UNDO, LEVEL, HINT."""

import random
import re

import pytest

from qubic.core.board import Board, Mark
from qubic.core.variant import CUBE3, QUBIC, TESSERACT
from qubic.play.instructions import instructions
from qubic.play.render import Picture
from qubic.play.session import Session
from qubic.play.settings import Settings
from qubic.play.sitting import Stage
from qubic.players.levels import LEVELS, make_player
from tests.conftest import run_piped


def session(players: int, variant=CUBE3, **options) -> Session:
    game = Session(Settings(players=players, seed=2, variant=variant, **options))
    game.start()
    if players:
        game.answer("no")
    return game


def test_instructions_follow_the_variant():
    text = " ".join(instructions(TESSERACT.with_options(sides=3)))
    for needle in (
        "3x3x3x3 TESSERACT",
        "X, O AND Y TAKE TURNS",
        "FIRST TO 9 LINES WINS",
        "232 LINES",
        "4 DIGITS, BIG COLUMN COLUMN BIG ROW ROW",
        "1 TO 81",
        "CENTRE SQUARE IS DISABLED",
        "A TIE AT THE TOP IS A DRAW",
    ):
        assert needle in text
    assert all(len(line) <= 80 for line in text)


def test_alone_against_two_machines_you_are_x_and_move_first_or_last():
    game = session(1, CUBE3.with_options(sides=3))
    assert game.prompt == "DO YOU WANT TO MOVE FIRST?"
    assert game.answer("no") == [] and game.board.first is Mark.O
    output = []
    while game.machine_to_move:
        output += game.machine_move()
    assert [line.split()[0] for line in output if "MOVES TO" in line] == ["O", "Y"]
    assert game.prompt == "YOUR MOVE?" and game.board.turn is Mark.X
    assert game.status.endswith("X TO PLAY (YOU) | Y PLAYED 113 | SCORE X 0 O 0 Y 0")
    game.answer("111")
    while game.machine_to_move:
        game.machine_move()
    assert game.answer("UNDO")[0].startswith("TAKEN BACK: YOUR 111 AND O'S ")
    assert len(game.board.moves) == 2 and game.board.turn is Mark.X
    moves = game.answer("MOVES")
    assert moves[0].startswith(" 1. O ") and moves[0].endswith("(MACHINE)")


def test_scores_lines_and_the_end_with_three_sides():
    game = session(3, CUBE3.with_options(sides=3, target=2))
    assert game.prompt == "X, YOUR MOVE?"
    # The score is printed when it changes, not after every move.
    for move in ("111", "311", "331", "112", "312", "332"):
        assert game.answer(move) == []
    assert game.answer("113") == ["SCORE X 1 O 0 Y 0"]
    assert game.answer("LINES X") == ["X'S LINES (1): 111 112 113"]
    assert game.answer("lines") == [
        "X'S LINES (1): 111 112 113",
        "O'S LINES (0): NONE YET",
        "Y'S LINES (0): NONE YET",
    ]
    assert game.answer("LINES W") == ["LINES TAKES A MARK (X, O, Y) OR NOTHING: 'W' IS NOT ONE."]
    assert game.answer("UNDO") == ["TAKEN BACK: X'S 113."]
    for move in ("113", "313", "333", "121", "321", "132", "122", "322", "231"):
        game.answer(move)
    assert game.answer("MOVES")[-1] == "15. Y 231"
    output = game.answer("123")
    assert isinstance(output[-4], Picture)
    assert output[-3] == "SCORE X 2 O 1 Y 1"
    assert output[-2] == "X WINS! 2 LINES REACH THE TARGET. THE LINES: 111 112 113, 121 122 123"
    assert game.stage is Stage.PLAY_AGAIN


def test_level_refuses_what_it_cannot_play_and_hint_asks_one_that_can():
    game = session(1)
    game.answer("yes")
    assert game.answer("LEVEL classic") == [
        "LEVEL CLASSIC PLAYS QUBIC (4x4x4, TWO SIDES, THE FIRST LINE WINS) ONLY."
    ]
    assert game.answer("LEVEL hard") == [
        "LEVEL HARD PLAYS TWO-SIDED GAMES WHERE THE FIRST LINE WINS ONLY."
    ]
    assert game.answer("LEVEL shrewd") == ["THE LEVEL IS NOW SHREWD."]
    [hint] = game.answer("HINT")
    assert re.fullmatch(r"HINT: [1-3]{3}", hint)
    assert session(1, QUBIC.with_options(size=3)).answer("yes") == []


def test_the_machine_plays_every_side_of_a_four_sided_tesseract():
    game = session(0, TESSERACT.with_options(sides=4, target=3), level="shrewd", level_o="normal")
    output = []
    while game.machine_to_move:
        output += game.machine_move()
    movers = [line.split()[0] for line in output if isinstance(line, str) and "MOVES" in line]
    assert movers[:5] == ["X", "O", "Y", "Z", "X"]
    assert output[-2].startswith(("X WINS", "O WINS", "Y WINS", "Z WINS", "THE GAME IS"))
    assert game.status == "X SHREWD AGAINST O Y Z NORMAL"


def test_a_pass_and_its_message_with_several_machines():
    game = session(1, CUBE3.with_options(sides=3), time_limit=5.0)
    game.answer("yes")
    assert game.time_up() == ["TIME IS UP. THE TURN PASSES TO O."]
    while game.machine_to_move:
        game.machine_move()
    assert game.answer("MOVES")[0] == " 1. X PASS (YOU)"


def test_help_lists_the_variants_and_their_limits():
    result = run_piped("--help")
    assert result.returncode == 0
    for needle in (
        "--variant NAME",
        "cube3",
        "tesseract",
        "--sides N",
        "--no-centre",
        "--target K",
        "sizes 3-9 (3-5 in 4-D), dims 2-4, sides 2-4",
        "(QUBIC (4x4x4, two sides, the first line",
    ):
        assert needle in result.stdout


@pytest.mark.parametrize(
    "args, reason",
    [
        (["--variant", "go"], "there is no variant 'go'"),
        (
            ["--variant", "cube3", "--level", "classic"],
            "--level classic: level classic plays QUBIC",
        ),
        (["--variant", "tesseract", "--level", "hard"], "--level hard: level hard plays two-sided"),
        (["--players", "3"], "--players 3: qubic has only 2 sides"),
        (["--size", "4", "--no-centre"], "no-centre needs an odd size"),
        (["--dims", "4", "--size", "6"], "size must be 3 to 5 in 4 dimensions"),
        (["--load", "x.txt", "--sides", "3"], "drop --sides"),
    ],
)
def test_options_that_make_no_game_are_refused_in_one_line(args, reason):
    result = run_piped(*args)
    assert result.returncode == 2 and reason in result.stderr
    assert result.stderr.strip().splitlines()[-1].startswith("qubic: error:")


def test_a_piped_cube3_game_numbers_cells_and_keeps_score():
    result = run_piped("--variant", "cube3", "--seed", "1", stdin="no\nyes\n5\n27\nSCORE\n")
    assert result.returncode == 0
    assert "CUBE3\n3-D TIC-TAC-TOE ON A 3x3x3 CUBE" in result.stdout
    assert "YOUR MOVE? 5\nYOU PLAY 122 (SQUARE 5)\nMACHINE MOVES TO " in result.stdout


@pytest.mark.slow
@pytest.mark.parametrize(
    "variant",
    [
        CUBE3.with_options(sides=3),
        TESSERACT.with_options(sides=4, target=4),
        QUBIC.with_options(size=3),
        QUBIC.with_options(size=5, dims=2),
    ],
)
def test_every_level_that_plays_a_variant_plays_legal_moves_from_every_seat(variant):
    for name, level in LEVELS.items():
        if not level.supports(variant) or name == "expert":  # expert: hard's search, slower
            continue
        for seat in [Mark(side) for side in range(variant.sides)]:
            rng = random.Random(seat)
            player = make_player(name, seat)
            board = Board(variant)
            while not board.is_over():
                mover = board.turn is seat
                cell = (
                    player.choose(board.copy()).cell if mover else rng.choice(board.legal_moves())
                )
                assert board.is_legal(cell), (name, variant.spec, cell)
                board.push(cell)
