"""QUBIC as a PettingZoo AEC environment (`qubic.integrations.pettingzoo`): PettingZoo's own
api_test and seed test for 2, 3 and 4 agents, then observations, rewards, illegal moves and
rendering through the environment's public interface. Skipped without the `pettingzoo`
extra."""

from __future__ import annotations

from typing import Any

import pytest

pettingzoo = pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from qubic.core.geometry import geometry  # noqa: E402
from qubic.core.notation import parse_cell  # noqa: E402
from qubic.integrations.pettingzoo import env, raw_env  # noqa: E402

# The settings the environment is tested with, by number of agents.
SETTINGS: list[dict[str, Any]] = [
    {},
    {"variant": "cube3"},
    {"variant": "tesseract"},
    {"sides": 3},
    {"variant": "tesseract", "sides": 3},
    {"variant": "qubic", "sides": 4},
    {"variant": "tesseract", "sides": 4},
    {"variant": "qubic", "size": 5, "dims": 2, "sides": 4, "target": 2},
]
# api_test warns about any environment with dict observations that is not one of its own
# classic environments, which it knows by name; every other warning is an error here.
NAMED_ONLY = [
    "ignore:Observation is not a NumPy array",
    "ignore:Observation space for each agent probably should be",
]
TESSERACT: dict[str, Any] = {"variant": "tesseract", "sides": 4}
Z_WINS = (
    "1313 1131 3311 1331 3333 1333 3331 1311 2323 1232 3321 1321 3133 3131 3111 1113 "
    "2223 2131 3211 1212 2123 2232 3221 1222 3233 2333 3121 1123 1213 3232 3231 1133 "
    "3313 3113 1111 1323 2313 2122 2111 1121 2133 2113 2211 1122 3223 3122 1211 1322"
)


def label(settings: dict[str, Any]) -> str:
    return ",".join(f"{key}={value}" for key, value in settings.items()) or "qubic"


@pytest.mark.filterwarnings("error", *NAMED_ONLY)
@pytest.mark.parametrize("settings", SETTINGS, ids=label)
def test_pettingzoos_api_test_passes(settings: dict[str, Any]) -> None:
    api_test(env(**settings), num_cycles=1000)


@pytest.mark.parametrize("settings", SETTINGS, ids=label)
def test_pettingzoos_seed_test_passes(settings: dict[str, Any]) -> None:
    seed_test(lambda: env(**settings), num_cycles=500)


@pytest.mark.parametrize("sides", [2, 3, 4])
def test_the_agents_are_the_sides_in_turn(sides: int) -> None:
    game = env(variant="tesseract", sides=sides)
    game.reset()
    assert game.possible_agents == [f"player_{side}" for side in range(sides)]
    turns = []
    for move in Z_WINS.split()[: 2 * sides]:
        turns.append(game.agent_selection)
        game.step(parse_cell(move, geometry(3, 4, True)))
    assert turns == game.possible_agents * 2


def finish(game: Any) -> dict[str, float]:
    """Each agent's reward at the end, as `last()` gives it, stepping every agent out."""
    rewards = {}
    for agent in game.agent_iter():
        _, reward, termination, truncation, _ = game.last()
        assert termination or truncation
        rewards[agent] = reward
        game.step(None)
    return rewards


def play(game: Any, moves: list[str]) -> None:
    shape = game.unwrapped.variant.geometry
    for move in moves:
        game.step(parse_cell(move, shape))


def test_a_space_diagonal_wins_one_point_and_loses_the_other() -> None:
    game = env()
    game.reset()
    play(game, ["111", "121", "222", "131", "333", "141"])
    assert not any(game.terminations.values())
    play(game, ["444"])
    assert all(game.terminations.values())
    assert finish(game) == {"player_1": -1.0, "player_0": 1.0}
    assert game.agents == []


def test_a_four_sided_tesseract_game_pays_the_winner_and_charges_the_rest() -> None:
    game = env(**TESSERACT)
    game.reset()
    play(game, Z_WINS.split())
    assert finish(game) == {
        "player_0": -1.0,
        "player_1": -1.0,
        "player_2": -1.0,
        "player_3": 1.0,
    }


def test_an_illegal_move_ends_the_game_against_its_maker() -> None:
    game = env()
    game.reset()
    play(game, ["111"])
    game.step(parse_cell("111"))  # O plays onto X's cell
    assert finish(game) == {"player_0": 0.0, "player_1": -1.0}


def test_the_tesseracts_disabled_centre_is_an_illegal_move() -> None:
    game = env(**TESSERACT)
    game.reset()
    centre = geometry(3, 4, True).cell((1, 1, 1, 1))
    observation, *_ = game.last()
    assert observation["action_mask"][centre] == 0 and observation["action_mask"].sum() == 80
    assert observation["observation"][centre].tolist() == [0, 0, 0, 0, 0, 1]  # disabled
    game.step(centre)
    assert finish(game)["player_0"] == -1.0


def test_an_action_off_the_board_is_an_error() -> None:
    game = env()
    game.reset()
    with pytest.raises(AssertionError):
        game.step(64)


def test_the_observation_is_the_agents_own_marks_first() -> None:
    game = env(sides=3)
    game.reset()
    play(game, ["111", "234", "444"])  # X, O, Y
    x, o, y = (parse_cell(move) for move in ("111", "234", "444"))
    seen = {agent: game.observe(agent) for agent in game.possible_agents}
    # Planes: own, next side, the one after, empty, disabled; a row per cell.
    assert seen["player_0"]["observation"][[x, o, y]].tolist() == [
        [1, 0, 0, 0, 0],
        [0, 1, 0, 0, 0],
        [0, 0, 1, 0, 0],
    ]
    assert seen["player_1"]["observation"][[x, o, y]].tolist() == [
        [0, 0, 1, 0, 0],
        [1, 0, 0, 0, 0],
        [0, 1, 0, 0, 0],
    ]
    for agent, view in seen.items():
        planes = view["observation"]
        assert planes.shape == (64, 5) and planes.dtype == np.int8
        assert (planes.sum(axis=1) == 1).all() and planes[:, 3].sum() == 61
        mask = view["action_mask"]
        assert mask.sum() == (61 if agent == game.agent_selection else 0)
    assert game.agent_selection == "player_0"
    assert seen["player_0"]["action_mask"][[x, o, y]].tolist() == [0, 0, 0]


def test_ansi_rendering_is_the_board_as_qubic_prints_it() -> None:
    game = env(render_mode="ansi")
    game.reset()
    play(game, ["111", "234"])
    text = game.render()
    assert text.splitlines()[:3] == ["LEVEL 1", "  C1 C2 C3 C4", "R1  X  .  .  ."]
    assert "o" in text.split("LEVEL 2")[1].split("LEVEL 3")[0]  # the last move, lowercase


def test_human_rendering_prints_after_every_move(capsys: pytest.CaptureFixture[str]) -> None:
    game = env(variant="cube3", render_mode="human")
    game.reset()
    play(game, ["222"])
    assert "LEVEL 2" in capsys.readouterr().out


def test_bad_settings_and_render_modes_are_refused() -> None:
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(render_mode="rgb_array")
    with pytest.raises(ValueError, match="sides must be 2 to 4"):
        env(sides=5)
    with pytest.raises(ValueError, match="there is no variant"):
        env(variant="hypercube")


def test_none_is_no_move_for_the_agent_to_move() -> None:
    game = raw_env()
    with pytest.raises(ValueError, match="player_0 is to move"):
        game.step(None)
    wrapped = env()
    wrapped.reset()
    with pytest.raises(AssertionError):  # the wrappers refuse it first
        wrapped.step(None)
