"""QUBIC as an OpenSpiel game, and our levels as OpenSpiel bots (the `openspiel` extra).

Importing this module registers the Python game `python_qubic` with pyspiel:

    import pyspiel
    import qubic.integrations.openspiel  # registers python_qubic
    game = pyspiel.load_game("python_qubic")  # QUBIC: 4x4x4, two sides, first line wins
    game = pyspiel.load_game("python_qubic(size=3,dims=4,no_centre=True,target=9,sides=4)")

Its parameters are our variant's settings: `size` (4), `dims` (3), `sides` (2, up to 4),
`target` (1: the first line wins; more: lines score) and `no_centre` (False). Players are
the sides in playing order: 0 is X, 1 O, 2 Y, 3 Z. Actions are cell indexes (the coordinates
in notation order read as digits in base `size`) and print in our notation, `234`. Returns:
see `qubic.integrations.common.returns`. Observations: see `QubicObserver`.

`QubicBot(level, seed)` plays any of our levels, for `evaluate_bots` and the like.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from qubic.core.board import Board, Mark
from qubic.core.notation import format_cell
from qubic.core.variant import Variant
from qubic.integrations.common import make_variant, plane_names, planes, returns
from qubic.play.render import Picture, render
from qubic.players.levels import LEVELS, make_player

SHORT_NAME = "python_qubic"
DEFAULTS: dict[str, Any] = {"size": 4, "dims": 3, "sides": 2, "target": 1, "no_centre": False}


def game_type(variant: Variant | None = None) -> pyspiel.GameType:
    """The game type of `variant` (QUBIC's if None): zero-sum with two sides, whose returns
    are +1, -1 or 0 whatever the target; general-sum with three or four, where the winner's
    +1 is paid for by -1 from every other side."""
    two = variant is None or variant.sides == 2
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="Python QUBIC (3-D tic-tac-toe and its variants)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=(
            pyspiel.GameType.Utility.ZERO_SUM if two else pyspiel.GameType.Utility.GENERAL_SUM
        ),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=DEFAULTS,
    )


def variant_of(params: dict[str, Any] | None) -> Variant:
    """The variant a game's parameters name (the defaults for those not given)."""
    settings = {**DEFAULTS, **(params or {})}
    unknown = set(settings) - set(DEFAULTS)
    if unknown:
        raise ValueError(f"unknown parameters {sorted(unknown)}; parameters: {list(DEFAULTS)}")
    return make_variant(
        "qubic",
        size=int(settings["size"]),
        dims=int(settings["dims"]),
        sides=int(settings["sides"]),
        target=int(settings["target"]),
        no_centre=bool(settings["no_centre"]),
    )


class QubicGame(pyspiel.Game):
    """The game of a variant: every rule is our `Board`'s."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        self.variant = variant_of(params)
        geometry = self.variant.geometry
        info = pyspiel.GameInfo(
            num_distinct_actions=len(geometry.cells),
            max_chance_outcomes=0,
            num_players=self.variant.sides,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if self.variant.sides == 2 else None,
            max_game_length=bin(geometry.full_mask).count("1"),
        )
        super().__init__(game_type(self.variant), info, {**DEFAULTS, **(params or {})})

    def new_initial_state(self) -> QubicState:
        return QubicState(self)

    def make_py_observer(
        self,
        iig_obs_type: pyspiel.IIGObservationType | None = None,
        params: dict[str, Any] | None = None,
    ) -> Any:
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return QubicObserver(self.variant, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class Position:
    """A state's board. OpenSpiel clones a state by deep-copying its attributes: this copies
    the board through its public `copy`, replaying the moves, rather than cell by cell."""

    __slots__ = ("board",)

    def __init__(self, board: Board) -> None:
        self.board = board

    def __deepcopy__(self, memo: dict[int, Any]) -> Position:
        return Position(self.board.copy())


class QubicState(pyspiel.State):
    """A position of a QUBIC game. `board` is our Board (read it; do not push on it)."""

    def __init__(self, game: QubicGame) -> None:
        super().__init__(game)
        self.position = Position(Board(game.variant))

    @property
    def board(self) -> Board:
        return self.position.board

    def current_player(self) -> int:
        board = self.board
        return int(pyspiel.PlayerId.TERMINAL) if board.is_over() else int(board.turn)

    def _legal_actions(self, player: int) -> list[int]:
        board = self.board
        if board.is_over() or player != board.turn:
            return []
        return board.legal_moves()

    def _apply_action(self, action: int) -> None:
        self.board.push(int(action))  # IllegalMoveError for a used or disabled cell

    def _action_to_string(self, player: int, action: int) -> str:
        return format_cell(int(action), self.board.geometry)

    def is_terminal(self) -> bool:
        return self.board.is_over()

    def returns(self) -> list[float]:
        return returns(self.board)

    def __str__(self) -> str:
        """The board as `qubic` prints it, less the lowercase mark of the last move: the same
        text for the same position, however it was reached."""
        picture = replace(Picture.of(self.board), last=None)
        return "\n".join(render(picture)).rstrip("\n")


class QubicObserver:
    """The observation: `sides + 2` planes over the cube, in absolute order whoever observes
    (X, O, then Y and Z when they play, then the empty playable cells, then the disabled
    ones), each of shape (size,) * dims indexed by the coordinates in notation order (for the
    3-D game: level, column, row, from 0). Every cell is 1 in exactly one plane. The string
    is the state's: the board as `qubic` prints it."""

    def __init__(self, variant: Variant, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, not {params}")
        self.order = [Mark(side) for side in range(variant.sides)]
        geometry = variant.geometry
        self.shape = (variant.sides + 2, *[geometry.size] * geometry.dims)
        self.tensor = np.zeros(int(np.prod(self.shape)), np.float32)
        self.dict = {"observation": np.reshape(self.tensor, self.shape)}
        self.names = plane_names(variant.sides)

    def set_from(self, state: QubicState, player: int) -> None:
        self.tensor[:] = planes(state.board, self.order, np.float32).reshape(-1)

    def string_from(self, state: QubicState, player: int) -> str:
        return str(state)


def board_of(state: pyspiel.State) -> Board:
    """A copy of the board of a `python_qubic` state."""
    if isinstance(state, QubicState):
        return state.board.copy()
    variant = variant_of(state.get_game().get_parameters())
    return Board.from_moves(state.history(), variant)


class QubicBot(pyspiel.Bot):
    """One of our levels (`easy` ... `perfect`, `classic`) as an OpenSpiel bot for
    `python_qubic` games: `QubicBot("perfect", seed=1)`. The seed makes it reproducible;
    `seconds` caps its thinking per move (None: the level's own limits). A level that does
    not play the game's variant (perfect and classic: QUBIC only; hard and expert: two sides,
    first line wins) raises ValueError when asked for a move."""

    def __init__(self, level: str, seed: int | None = None, seconds: float | None = None) -> None:
        pyspiel.Bot.__init__(self)
        name = level.lower()
        if name not in LEVELS:
            raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
        self.level = LEVELS[name]
        self.player = make_player(name, seed)
        self.seconds = seconds

    def restart_at(self, state: pyspiel.State) -> None:
        pass

    def step(self, state: pyspiel.State) -> int:
        board = board_of(state)
        refusal = self.level.refusal(board.variant)
        if refusal is not None:
            raise ValueError(refusal)
        return self.player.choose(board, self.seconds).cell


if SHORT_NAME not in pyspiel.registered_names():
    pyspiel.register_game(game_type(), QubicGame)
