"""QUBIC as an OpenSpiel game (`qubic.integrations.openspiel`), through pyspiel's own API:
its random simulation test for every documented parameter combination, known positions,
observations, and our levels as bots. Skipped without the `openspiel` extra."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from open_spiel.python.algorithms.evaluate_bots import evaluate_bots  # noqa: E402
from open_spiel.python.algorithms.get_all_states import get_all_states  # noqa: E402
from open_spiel.python.bots.uniform_random import UniformRandomBot  # noqa: E402

from qubic.core.geometry import geometry  # noqa: E402
from qubic.core.notation import parse_cell  # noqa: E402
from qubic.integrations.openspiel import QubicBot  # noqa: E402

TESSERACT = "size=3,dims=4,no_centre=True,target=9"
# The combinations docs/integrations.md lists, each with its number of players.
DOCUMENTED = {
    "python_qubic": 2,
    "python_qubic(sides=3)": 3,
    "python_qubic(sides=4)": 4,
    "python_qubic(target=3)": 2,
    "python_qubic(size=3,target=10)": 2,
    "python_qubic(size=3)": 2,
    f"python_qubic({TESSERACT})": 2,
    f"python_qubic({TESSERACT},sides=3)": 3,
    f"python_qubic({TESSERACT},sides=4)": 4,
    "python_qubic(size=3,dims=4,target=1)": 2,
    "python_qubic(size=3,dims=2)": 2,
    "python_qubic(size=5,dims=2,sides=3)": 3,
}


def words(text: str) -> list[str]:
    return text.split()


# A full 4x4x4 board with no line of either mark: 32 X and 32 O, played alternately.
DRAW_X = words(
    "111 121 124 132 133 141 142 211 213 222 223 224 234 243 244 312 "
    "314 321 322 323 332 334 344 411 412 413 422 423 431 434 441 443"
)
DRAW_O = words(
    "112 113 114 122 123 131 134 143 144 212 214 221 231 232 233 241 "
    "242 311 313 324 331 333 341 342 343 414 421 424 432 433 442 444"
)

# Two four-sided tesseract games (3x3x3x3, centre disabled, first to 9 lines), X O Y Z in
# turn: Z reaches the target (two lines at once, 8 to 10) on move 48; then a game that
# fills the board, X on top with 6 lines to Y's 5, O's 2 and Z's 1.
Z_WINS = words(
    "1313 1131 3311 1331 3333 1333 3331 1311 2323 1232 3321 1321 3133 3131 3111 1113 "
    "2223 2131 3211 1212 2123 2232 3221 1222 3233 2333 3121 1123 1213 3232 3231 1133 "
    "3313 3113 1111 1323 2313 2122 2111 1121 2133 2113 2211 1122 3223 3122 1211 1322"
)
FULL = words(
    "1131 1113 1311 1133 3111 2121 1331 1321 3333 2232 3222 3131 2132 3133 1313 2123 "
    "3113 1312 1322 2122 1333 1232 2223 3232 2333 3112 3223 1223 2212 3132 1332 1222 "
    "3122 1123 1221 1111 3221 1122 3331 1121 2321 1323 2322 2331 3313 3312 3322 2323 "
    "3212 2312 3123 1212 3213 3321 3323 1211 3211 1213 1233 3231 3311 2221 3121 3233 "
    "2133 2131 2233 2213 2111 2311 2313 2112 2231 3332 1132 1231 2113 1112 2332 2211"
)


def play(name: str, moves: list[str]) -> Any:
    """The state after `moves` (in notation), each checked legal before it is applied."""
    state = pyspiel.load_game(name).new_initial_state()
    for move in moves:
        assert not state.is_terminal()
        action = state.string_to_action(move)
        assert action in state.legal_actions()
        state.apply_action(action)
    return state


@pytest.mark.parametrize("name", sorted(DOCUMENTED))
def test_openspiels_random_simulation_test_passes(name: str) -> None:
    game = pyspiel.load_game(name)
    assert game.num_players() == DOCUMENTED[name]
    pyspiel.random_sim_test(game, num_sims=4, serialize=True, verbose=False)


def test_the_default_game_is_qubic_and_says_what_it_is() -> None:
    game = pyspiel.load_game("python_qubic")
    kind = game.get_type()
    assert kind.short_name == "python_qubic"
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.get_parameters() == {
        "size": 4,
        "dims": 3,
        "sides": 2,
        "target": 1,
        "no_centre": False,
    }
    assert (game.num_players(), game.num_distinct_actions(), game.max_game_length()) == (2, 64, 64)
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)


@pytest.mark.parametrize(
    ("name", "utility"),
    [
        ("python_qubic(size=3,target=10)", pyspiel.GameType.Utility.ZERO_SUM),
        (f"python_qubic({TESSERACT})", pyspiel.GameType.Utility.ZERO_SUM),
        ("python_qubic(sides=3)", pyspiel.GameType.Utility.GENERAL_SUM),
        (f"python_qubic({TESSERACT},sides=4)", pyspiel.GameType.Utility.GENERAL_SUM),
    ],
)
def test_two_sides_are_zero_sum_and_more_are_general_sum(name: str, utility: object) -> None:
    assert pyspiel.load_game(name).get_type().utility == utility


@pytest.mark.parametrize(
    "params", ["size=4,no_centre=True", "sides=5", "size=3,target=50", "dims=5"]
)
def test_settings_that_make_no_game_are_refused(params: str) -> None:
    with pytest.raises(Exception, match=r"must be|needs an odd size"):
        pyspiel.load_game(f"python_qubic({params})")


def test_actions_are_cells_written_in_our_notation() -> None:
    state = pyspiel.load_game("python_qubic").new_initial_state()
    assert state.legal_actions() == list(range(64))
    assert state.action_to_string(0, 27) == "234"  # level 2, column 3, row 4
    assert state.string_to_action("234") == 27
    assert [state.action_to_string(0, a) for a in (0, 63)] == ["111", "444"]


@pytest.mark.parametrize(
    "diagonal",
    [
        ["111", "222", "333", "444"],
        ["114", "223", "332", "441"],
        ["141", "232", "323", "414"],
        ["411", "322", "233", "144"],
    ],
)
def test_a_space_diagonal_wins(diagonal: list[str]) -> None:
    others = [m for m in ("121", "131", "141", "412") if m not in diagonal][:3]
    moves = [m for pair in zip(diagonal, others) for m in pair] + diagonal[3:]
    state = play("python_qubic", moves[:6])
    assert not state.is_terminal() and state.returns() == [0.0, 0.0]
    state.apply_action(state.string_to_action(moves[6]))
    assert state.is_terminal()
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.returns() == [1.0, -1.0]
    assert state.legal_actions() == []


def test_o_completing_a_line_wins_for_o() -> None:
    state = play("python_qubic", ["111", "411", "112", "422", "121", "433", "131", "444"])
    assert state.is_terminal() and state.returns() == [-1.0, 1.0]


def test_a_full_board_with_no_line_is_a_draw() -> None:
    every = [f"{level}{column}{row}" for level in "1234" for column in "1234" for row in "1234"]
    assert sorted(DRAW_X + DRAW_O) == every
    state = play("python_qubic", [m for pair in zip(DRAW_X, DRAW_O) for m in pair][:63])
    assert not state.is_terminal() and state.legal_actions() == [parse_cell(DRAW_O[-1])]
    state.apply_action(parse_cell(DRAW_O[-1]))
    assert state.is_terminal()
    assert state.returns() == [0.0, 0.0]


def test_the_tesseracts_disabled_centre_is_refused() -> None:
    state = pyspiel.load_game(f"python_qubic({TESSERACT})").new_initial_state()
    centre = geometry(3, 4, True).cell((1, 1, 1, 1))
    assert state.num_distinct_actions() == 81
    assert len(state.legal_actions()) == 80 and centre not in state.legal_actions()
    with pytest.raises(Exception, match="not a legal move"):
        state.apply_action(centre)
    assert state.history() == [] and state.current_player() == 0
    planes = np.array(state.observation_tensor()).reshape(4, 3, 3, 3, 3)
    assert planes[3, 1, 1, 1, 1] == 1 and planes[3].sum() == 1  # the disabled plane
    assert planes[2].sum() == 80  # empty


def lines_held(name: str, moves: list[str], sides: int) -> list[int]:
    """Each side's completed lines, recounted plainly from the moves (side = move % sides)."""
    shape = geometry(3, 4, True)
    held: list[set[int]] = [set() for _ in range(sides)]
    for number, move in enumerate(moves):
        held[number % sides].add(parse_cell(move, shape))
    return [sum(set(line.cells) <= cells for line in shape.lines) for cells in held]


def test_a_four_sided_tesseract_game_won_by_z() -> None:
    name = f"python_qubic({TESSERACT},sides=4)"
    state = play(name, Z_WINS[:-1])
    assert state.current_player() == 3  # Z
    assert lines_held(name, Z_WINS[:-1], 4) == [8, 8, 8, 8]
    state.apply_action(state.string_to_action(Z_WINS[-1]))
    assert lines_held(name, Z_WINS, 4) == [8, 8, 8, 10]
    assert state.is_terminal()
    assert state.returns() == [-1.0, -1.0, -1.0, 1.0]


def test_a_four_sided_tesseract_game_to_the_full_board() -> None:
    name = f"python_qubic({TESSERACT},sides=4)"
    state = play(name, FULL)
    assert len(FULL) == 80 and state.is_terminal()
    assert lines_held(name, FULL, 4) == [6, 2, 5, 1]
    assert state.returns() == [1.0, -1.0, -1.0, -1.0]


def test_players_take_turns_x_o_y_z() -> None:
    state = pyspiel.load_game(f"python_qubic({TESSERACT},sides=4)").new_initial_state()
    turns = []
    for move in FULL[:8]:
        turns.append(state.current_player())
        state.apply_action(state.string_to_action(move))
    assert turns == [0, 1, 2, 3, 0, 1, 2, 3]


def test_the_observation_is_a_plane_per_mark_then_empty_then_disabled() -> None:
    game = pyspiel.load_game("python_qubic")
    assert game.observation_tensor_shape() == [4, 4, 4, 4]
    state = play("python_qubic", ["111", "234", "444"])
    for player in (0, 1):
        planes = np.array(state.observation_tensor(player)).reshape(4, 4, 4, 4)
        assert planes[0, 0, 0, 0] == 1 and planes[0, 3, 3, 3] == 1 and planes[0].sum() == 2
        assert planes[1, 1, 2, 3] == 1 and planes[1].sum() == 1  # O on level 2, column 3, row 4
        assert planes[2].sum() == 61 and planes[3].sum() == 0
        assert (planes.sum(axis=0) == 1).all()
    assert "LEVEL 1" in state.observation_string(0) and "LEVEL 4" in str(state)


def test_a_clone_goes_its_own_way() -> None:
    state = play("python_qubic", ["111", "222"])
    clone = state.clone()
    clone.apply_action(parse_cell("333"))
    assert len(state.history()) == 2 and len(clone.history()) == 3
    assert parse_cell("333") not in clone.legal_actions()
    assert parse_cell("333") in state.legal_actions()


def test_game_and_state_pickle_and_serialize() -> None:
    game = pyspiel.load_game(f"python_qubic({TESSERACT},sides=3)")
    state = game.new_initial_state()
    for move in FULL[:7]:
        state.apply_action(state.string_to_action(move))
    again = pickle.loads(pickle.dumps(state))
    assert str(again) == str(state) and again.history() == state.history()
    new_game, new_state = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(game, state)
    )
    assert str(new_game) == str(game) and new_state.legal_actions() == state.legal_actions()


@pytest.mark.slow  # some 1.5 s: the whole game tree of tic-tac-toe
def test_tic_tac_toe_has_openspiels_own_game_tree() -> None:
    """dims=2, size=3 is tic-tac-toe: as many positions, and as many of them wins for X, for
    O and draws, as OpenSpiel's C++ tic_tac_toe."""

    def census(name: str) -> tuple[int, tuple[int, int, int]]:
        game = pyspiel.load_game(name)
        states = get_all_states(game, to_string=lambda s: bytes(np.array(s.observation_tensor(0))))
        ends = [s.returns()[0] for s in states.values() if s.is_terminal()]
        return len(states), (ends.count(1.0), ends.count(-1.0), ends.count(0.0))

    assert census("python_qubic(size=3,dims=2)") == census("tic_tac_toe")


def test_perfect_as_x_beats_a_random_bot_and_easy() -> None:
    game = pyspiel.load_game("python_qubic")
    rng = np.random.RandomState(3)
    for seed in range(3):
        opponent = UniformRandomBot(1, np.random.RandomState(seed))
        result = evaluate_bots(game.new_initial_state(), [QubicBot("perfect", seed), opponent], rng)
        assert result == [1.0, -1.0]
    result = evaluate_bots(
        game.new_initial_state(), [QubicBot("perfect", 1), QubicBot("easy", 2)], rng
    )
    assert result == [1.0, -1.0]


def test_a_bot_plays_every_seat_of_a_four_sided_game() -> None:
    game = pyspiel.load_game(f"python_qubic({TESSERACT},sides=4)")
    state = game.new_initial_state()
    result = evaluate_bots(
        state, [QubicBot("normal", seed) for seed in range(4)], np.random.RandomState(0)
    )
    assert state.is_terminal()
    assert sorted(result) in ([-1.0, -1.0, -1.0, 1.0], [0.0, 0.0, 0.0, 0.0])


def test_a_level_refuses_a_variant_it_does_not_play() -> None:
    state = pyspiel.load_game("python_qubic(size=3,target=10)").new_initial_state()
    with pytest.raises(ValueError, match="level perfect plays QUBIC"):
        QubicBot("perfect", 1).step(state)
    assert QubicBot("shrewd", 1).step(state) in state.legal_actions()  # shrewd plays it
    with pytest.raises(ValueError, match="unknown level"):
        QubicBot("grandmaster")


def test_a_bot_moves_legally_and_leaves_the_state_alone() -> None:
    state = play("python_qubic", ["111", "112", "222"])
    action = QubicBot("hard", 5).step(state)
    assert action in state.legal_actions()
    assert len(state.history()) == 3
