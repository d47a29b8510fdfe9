"""QUBIC as a PettingZoo AEC environment, after the classic environments (the `pettingzoo`
extra).

    from qubic.integrations.pettingzoo import env
    game = env()                                      # QUBIC: 4x4x4, two sides
    game = env(variant="tesseract", sides=4, render_mode="ansi")
    game.reset(seed=1)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        mask = observation["action_mask"]
        action = None if termination or truncation else game.action_space(agent).sample(mask)
        game.step(action)

`env(variant, size, dims, sides, target, no_centre, render_mode)` takes a variant by name
(`qubic`, `cube3`, `tesseract` or an alias) and changes the settings given. The agents are
`player_0` (X, who moves first) to `player_{sides - 1}` (O, Y, Z), in turn. An action is a
cell index, as in the OpenSpiel game. The observation is a dict: `observation`, int8 of shape
(cells, sides + 2), a row per cell (the action's index) and the planes last, as the classic
environments have them, from the observing agent's side: its own marks first, then the other
sides' in turn from it, then the empty playable cells, then the disabled ones (reshape it to
(size,) * dims + (sides + 2,) for the cube); and `action_mask`, 1 for each legal cell, all 0
except for the agent to move. Rewards come at the end: +1 for the winner,
-1 for every other side, 0 for all in a draw. An illegal move ends the game with -1 for the
agent that made it and 0 for the others (PettingZoo's TerminateIllegalWrapper).
`render_mode="ansi"` makes `render()` return the board as `qubic` prints it; `"human"` prints
it after every move.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import AgentSelector, wrappers

from qubic.core.board import Board, Mark
from qubic.integrations.common import make_variant, planes, returns
from qubic.play.render import Picture, render

NAME = "qubic_v0"


def env(
    variant: str = "qubic",
    size: int | None = None,
    dims: int | None = None,
    sides: int | None = None,
    target: int | None = None,
    no_centre: bool | None = None,
    render_mode: str | None = None,
) -> AECEnv:
    """The environment, wrapped as the classic environments are: an illegal move ends the
    game (-1 for its maker), an action off the board is an error, and the AEC order is
    enforced."""
    wrapped: AECEnv = raw_env(variant, size, dims, sides, target, no_centre, render_mode)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv, EzPickle):  # PettingZoo's name for the unwrapped class
    """The unwrapped environment: `board` is our Board, which makes every rule."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo's class attribute
        "render_modes": ["ansi", "human"],
        "name": NAME,
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        variant: str = "qubic",
        size: int | None = None,
        dims: int | None = None,
        sides: int | None = None,
        target: int | None = None,
        no_centre: bool | None = None,
        render_mode: str | None = None,
    ) -> None:
        EzPickle.__init__(self, variant, size, dims, sides, target, no_centre, render_mode)
        super().__init__()
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
        self.variant = make_variant(variant, size, dims, sides, target, no_centre)
        self.render_mode = render_mode
        self.board = Board(self.variant)
        geometry = self.variant.geometry
        sides = self.variant.sides
        self.possible_agents = [f"player_{side}" for side in range(sides)]
        self.agents = self.possible_agents[:]
        cells = len(geometry.cells)
        self.action_spaces = {agent: spaces.Discrete(cells) for agent in self.possible_agents}
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0, 1, (cells, sides + 2), dtype=np.int8),
                    "action_mask": spaces.Box(0, 1, (cells,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self._agent_selector = AgentSelector(self.agents)
        self.reset()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        sides = self.variant.sides
        seat = self.possible_agents.index(agent)
        order = [Mark((seat + step) % sides) for step in range(sides)]
        flat = planes(self.board, order, np.int8)
        observation = np.ascontiguousarray(flat.T)
        mask = np.zeros(len(self.variant.geometry.cells), dtype=np.int8)
        if agent == self.agent_selection:
            mask[self.board.legal_moves()] = 1
        return {"observation": observation, "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game on the empty board (the game has no chance: `seed` changes nothing)."""
        self.board = Board(self.variant)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._agent_selector.reinit(self.agents)
        self.agent_selection = self._agent_selector.reset()

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: None is only for agents whose game is over")
        self.board.push(int(action))
        if self.board.is_over():
            for side, value in zip(self.possible_agents, returns(self.board)):
                self.rewards[side] = value
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
        self.agent_selection = self._agent_selector.next()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The board as text, the last move in lowercase: returned ("ansi") or printed
        ("human")."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode: nothing to draw")
            return None
        text = "\n".join(render(Picture.of(self.board))).rstrip("\n")
        if self.render_mode == "ansi":
            return text
        print(text + "\n", flush=True)
        return None

    def close(self) -> None:
        pass
