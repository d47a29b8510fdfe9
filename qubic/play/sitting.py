"""What every sitting shares, games and puzzles alike: `Sitting`, what a front end drives; the
stages and their questions; yes or no; and `YourMove`, what is typed at YOUR MOVE? read.

A front end shows `prompt`, feeds the answer to `answer` and prints what comes back; whenever
`machine_to_move` is true it calls `machine_move` instead of asking, and when a person's time
(`seconds_to_answer`) runs out, `time_up`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Protocol

from qubic.core.board import Board, Mark
from qubic.core.notation import (
    NotationError,
    example_move,
    format_cell,
    looks_like_move,
    numbered,
    parse_cell,
)
from qubic.core.variant import Variant
from qubic.play.commands import AT_THE_END, LEAVE
from qubic.play.navigator import REVIEW_WORDS
from qubic.play.render import Output
from qubic.play.text import quoted

GOODBYE = "GOODBYE. THANKS FOR PLAYING QUBIC."

Action = Callable[[str], Output]  # a command: the text typed after its name, and the answer


class Stage(Enum):
    """Where a sitting is; each stage's value is its question."""

    INSTRUCTIONS = "DO YOU WANT INSTRUCTIONS?"
    MOVE_FIRST = "DO YOU WANT TO MOVE FIRST?"
    MOVE = "YOUR MOVE?"
    PLAY_AGAIN = "DO YOU WANT TO PLAY ANOTHER GAME?"
    SAVE_BEFORE_LEAVING = "SAVE THE GAME BEFORE YOU GO?"
    REVIEW = "REVIEW (N, P, F, L, A MOVE NUMBER, MOVES, Q)?"
    DONE = ""


class Sitting(Protocol):
    """A sitting as a front end drives it (see the module's words); its output is lines of
    text and `Picture`s of the board."""

    @property
    def board(self) -> Board: ...

    @property
    def prompt(self) -> str:
        """The question waiting for an answer."""
        ...

    @property
    def done(self) -> bool: ...

    @property
    def machine_to_move(self) -> bool: ...

    @property
    def seconds_to_answer(self) -> float | None:
        """The time limit on the question waiting, if it has one."""
        ...

    @property
    def status(self) -> str:
        """One line on the state of play, for a status bar."""
        ...

    def start(self) -> Output: ...

    def answer(self, text: str) -> Output: ...

    def machine_move(self) -> Output: ...

    def time_up(self) -> Output: ...

    def words(self, before: str = "") -> tuple[str, ...]:
        """The words worth completing after `before`, the text typed so far."""
        ...


def parse_yes_no(text: str) -> bool | None:
    """True for yes/y, False for no/n (any case, spaces ignored), None for anything else."""
    return {"YES": True, "Y": True, "NO": False, "N": False}.get(text.strip().upper())


def people_words(error: NotationError) -> str:
    """A notation error as the game says it: in capitals, and squares where the engine's
    protocol (for programs) says cells."""
    return str(error).upper().replace("CELLS ARE", "SQUARES ARE")


def move_hint(variant: Variant) -> str:
    example = example_move(variant.geometry)
    return f"TYPE A MOVE LIKE {example} OR {','.join(example)}, OR HELP FOR THE COMMANDS."


@dataclass(frozen=True)
class YourMove:
    """YOUR MOVE? as every sitting reads it: a command by its name, or else a move, checked on
    the board and handed to `play`; and the words that complete what is typed."""

    commands: Mapping[str, Action]  # by name
    arguments: Mapping[str, tuple[str, ...]]  # what completes after a command's name
    named: Callable[[Mark], str]  # a mark and who plays it, as a taken square names them
    play: Callable[[int], Output]  # a legal move played: what is said after it

    def answer(self, text: str, board: Board, players: int) -> Output:
        """The answer to `text` typed on `board`, by `players` people."""
        words = text.split(maxsplit=1)
        if not words:
            return [move_hint(board.variant)]
        command = self.commands.get(words[0].upper())
        if command is not None:
            return command(words[1].strip() if len(words) > 1 else "")
        if not looks_like_move(text):
            return [f"{quoted(text)} IS NOT A MOVE. {move_hint(board.variant)}"]
        geometry = board.geometry
        try:
            cell = parse_cell(text, geometry, numbers=numbered(geometry))
        except NotationError as error:
            return [f"{people_words(error)}."]
        name = format_cell(cell, geometry)
        owner = board.mark_at(cell)
        if owner is not None:
            return [f"{name} IS TAKEN BY {self.named(owner)}. TRY ANOTHER SQUARE."]
        said: Output = []
        if text.strip() != name and len(text.strip()) < geometry.dims:
            # Played by its number: the reply names the square, so a slip shows at once.
            who = "YOU PLAY" if players == 1 else f"{board.turn.name} PLAYS"
            said.append(f"{who} {name} (SQUARE {geometry.numbers[cell]})")
        return said + self.play(cell)

    def words(self, stage: Stage, before: str = "") -> tuple[str, ...]:
        """The words worth completing after `before` at `stage`'s question: commands, then a
        command's own arguments (FILE: a file name); yes or no elsewhere."""
        typed = before.upper().split()
        done = typed if before[-1:].isspace() else typed[:-1]
        if stage is Stage.MOVE:
            if not done:
                return tuple(self.commands)
            return self.arguments.get(done[0], ()) if len(done) == 1 else ()
        if stage is Stage.PLAY_AGAIN:
            if not done:
                ending = (name for name in self.commands if name in AT_THE_END)
                return ("YES", "NO", "REVIEW", *ending, *LEAVE)
            if len(done) == 1 and done[0] in AT_THE_END:
                return self.arguments.get(done[0], ())
            return ()
        if done:
            return ()
        if stage is Stage.REVIEW:
            return REVIEW_WORDS
        if stage is Stage.SAVE_BEFORE_LEAVING:
            return ("YES", "NO", "SAVE", "BACK")
        return ("YES", "NO", *LEAVE)
