"""The puzzle sitting: one puzzle after another, each played out against the best defence.

A `PuzzleSession` is a `qubic.play.sitting.Sitting`, driven by the console as a game is; it
reads YOUR MOVE? and answers SHOW as a game does. A move that keeps the forced win is answered
at once by the machine's best defence; one that lets it slip is refused with the defence that
now holds, and the position stays as it was. No terminal in sight.
"""

from __future__ import annotations

from datetime import date
from functools import partial

from qubic.core.board import Board, Mark, iter_bits
from qubic.core.notation import format_cell
from qubic.play.analysis import line_rows, moves_word
from qubic.play.commands import COMMAND_HELP, LEAVE, SHOW_OPTIONS, Hint, show
from qubic.play.puzzles import Effect, Puzzle, daily_seed, judge, sitting_puzzle
from qubic.play.render import Output, Picture
from qubic.play.settings import Settings
from qubic.play.sitting import GOODBYE, Action, Stage, YourMove, parse_yes_no
from qubic.play.text import table
from qubic.players.base import new_seed
from qubic.search.threats import ThreatSearch, new_threats

INTRO = """\
QUBIC PUZZLES

IN EACH PUZZLE YOU, TO MOVE, HAVE A FORCED WIN BY THREATS: MAKE THREE IN A LINE
WITH THE FOURTH SQUARE EMPTY, SO THE MACHINE MUST BLOCK, AGAIN AND AGAIN, UNTIL
YOU MAKE TWO THREATS AT ONCE. THE MACHINE DEFENDS AS WELL AS IT CAN. A MOVE THAT
LETS THE WIN SLIP IS REFUSED. HINT NAMES THE NEXT MOVE, SOLUTION THE WHOLE LINE,
SKIP GIVES THE PUZZLE UP, HELP LISTS EVERY COMMAND.
""".splitlines()
ANOTHER = "ANOTHER PUZZLE?"
PUZZLE_HELP = [
    *((usage, meaning) for usage, meaning in COMMAND_HELP if usage.split()[0] in ("234", "SHOW")),
    ("HINT", "NAME THE NEXT MOVE OF A WINNING LINE"),
    ("SOLUTION", "SHOW THE WHOLE WINNING LINE FROM HERE (THE PUZZLE THEN DOES NOT COUNT)"),
    ("SKIP", "GIVE THIS PUZZLE UP AND SEE ITS SOLUTION"),
    ("HELP", "LIST THESE COMMANDS"),
    ("QUIT or EXIT", "LEAVE (AT ANY QUESTION); CTRL-C OR CTRL-D LEAVES AT ONCE"),
]


class PuzzleSession:
    """A sitting of puzzles, seeded by `seed` (random when None) or by the day `day`, each
    `length` own moves long (mixed lengths when None); it counts those solved and tried. The
    machine answers within a move, so it never moves on its own, and nothing is timed."""

    def __init__(
        self, seed: int | None = None, length: int | None = None, day: date | None = None
    ) -> None:
        self.settings = Settings(players=2, always_show=True)  # SHOW ALWAYS or OFF changes it
        self.board = Board(self.settings.variant)
        self.stage = Stage.MOVE
        self.day = day
        self.seed = daily_seed(day) if day is not None else new_seed(seed)
        self.told_seed = seed is None and day is None  # a random sitting says how to repeat it
        self.length = length
        self.number = self.solved = 0
        self.puzzle: Puzzle | None = None
        self.search = ThreatSearch()
        self.helped = False  # HINT or SOLUTION was asked for this puzzle
        self.puzzle_mark = Mark.X  # the side you play in this puzzle
        commands: dict[str, Action] = {
            "SHOW": partial(show, self),
            "BOARD": partial(show, self),
            "HINT": self._hint,
            "SOLUTION": self._solution,
            "SKIP": self._skip,
            "HELP": self._help,
            "QUIT": self._leave,
            "EXIT": self._leave,
        }
        arguments = {"SHOW": SHOW_OPTIONS, "BOARD": SHOW_OPTIONS}
        self.your_move = YourMove(commands, arguments, self.named, self._play)

    @property
    def prompt(self) -> str:
        return ANOTHER if self.stage is Stage.PLAY_AGAIN else self.stage.value

    @property
    def done(self) -> bool:
        return self.stage is Stage.DONE

    @property
    def machine_to_move(self) -> bool:
        return False

    @property
    def seconds_to_answer(self) -> float | None:
        return None

    def machine_move(self) -> Output:
        raise RuntimeError("in a puzzle the machine answers within your move")

    def time_up(self) -> Output:
        raise RuntimeError("a puzzle is not timed")

    def words(self, before: str = "") -> tuple[str, ...]:
        return self.your_move.words(self.stage, before)

    @property
    def finished(self) -> int:
        """The puzzles solved or given up so far (not the one being played)."""
        return self.number - (self.puzzle is not None and self.stage is Stage.MOVE)

    @property
    def status(self) -> str:
        solved = f"SOLVED {self.solved} OF {self.finished}"
        if self.puzzle is None or self.stage is not Stage.MOVE:
            return solved
        played = (len(self.board.moves) - len(self.puzzle.moves) + 1) // 2
        left = max(1, self.puzzle.length - played)
        return (
            f"PUZZLE {self.number} | {moves_word(left)} LEFT | {solved} | "
            f"YOU PLAY {self.board.turn.name}"
        )

    def start(self) -> Output:
        lines: Output = [*INTRO, ""]
        if self.told_seed:
            lines += [f"THESE PUZZLES COME AGAIN WITH: qubic puzzle --seed {self.seed}", ""]
        return lines + self._next_puzzle()

    def answer(self, text: str) -> Output:
        """Act on the answer to the current question."""
        if self.stage is Stage.MOVE:
            return self.your_move.answer(text, self.board, self.settings.players)
        if self.stage is not Stage.PLAY_AGAIN:
            raise RuntimeError("the sitting is over")
        choice = parse_yes_no(text)
        if choice is None:
            if text.strip().upper() in LEAVE:
                return self._leave("")
            return ["PLEASE ANSWER YES OR NO."]
        if choice:
            return self._next_puzzle()
        self.stage = Stage.DONE
        return [GOODBYE]

    def _next_puzzle(self) -> Output:
        self.number += 1
        self.puzzle = sitting_puzzle(self.seed, self.number, self.length)
        self.board = self.puzzle.board()
        self.puzzle_mark = self.board.turn
        self.helped = False
        self.stage = Stage.MOVE
        title = f"PUZZLE {self.number}"
        if self.day is not None and self.number == 1:
            title = f"THE PUZZLE OF {self.day.isoformat()}"
        return [
            f"{title}: YOU PLAY {self.board.turn.name}, TO MOVE. "
            f"WIN BY THREATS IN {moves_word(self.puzzle.length)}.",
            Picture.of(self.board),
        ]

    def _leave(self, argument: str) -> Output:
        if argument:
            return [f"{' AND '.join(LEAVE)} TAKE NOTHING AFTER THEM."]
        said = [self._tally()] if self.finished else []
        self.stage = Stage.DONE
        return [*said, GOODBYE]

    def _help(self, argument: str) -> Output:
        return ["AT YOUR MOVE YOU CAN TYPE:", *table(PUZZLE_HELP, None)]

    def _tally(self) -> str:
        return f"PUZZLES SOLVED: {self.solved} OF {self.finished}."

    def named(self, mark: Mark) -> str:
        return f"{mark.name} ({'YOU' if mark is self.puzzle_mark else 'MACHINE'})"

    def _line(self) -> list[int]:
        """The shortest forced win from the current position (there always is one)."""
        me, you = self.board.pair()
        line = self.search.forced_win(me, you)
        assert line is not None, "every position of a puzzle keeps its win"
        return line

    def _play(self, cell: int) -> Output:
        judgement = judge(self.board, cell, self.search)
        if judgement.outcome is Effect.SOLVED:
            self.board.push(cell)
            self.stage = Stage.PLAY_AGAIN
            self.solved += not self.helped
            how = (
                "FOUR IN A LINE."
                if self.board.winner is not None
                else "TWO THREATS AT ONCE: THE MACHINE CANNOT BLOCK BOTH."
            )
            verdict = "DONE, WITH HELP" if self.helped else "SOLVED"
            return [Picture.of(self.board), f"{verdict}! {how}", self._tally()]
        assert judgement.reply is not None
        reply = format_cell(judgement.reply)
        if judgement.outcome is Effect.LOSES:
            reason = f"THE MACHINE WOULD WIN AT {reply}"
        elif judgement.outcome is Effect.BLOCKED:
            reason = f"{self._reply_words(cell, judgement.reply)}, AND YOUR THREATS RUN OUT"
        elif judgement.outcome is Effect.ANSWERED:
            reason = f"THE MACHINE WOULD ANSWER {reply}, AND NO FORCED WIN WOULD REMAIN"
        else:
            said = self._reply_words(cell, judgement.reply)
            self.board.push(cell)
            self.board.push(judgement.reply)
            return [f"{said}.", *([Picture.of(self.board)] if self.settings.always_show else [])]
        return [
            f"{format_cell(cell)} LETS THE WIN SLIP: {reason}. "
            "THE POSITION IS AS IT WAS: TRY AGAIN."
        ]

    def _reply_words(self, cell: int, reply: int) -> str:
        """The machine's reply to `cell` in words: a block (and any threat it makes) or not."""
        turn = self.board.turn
        me, you = self.board.bits[turn] | 1 << cell, self.board.bits[turn.other]
        words = (
            f"THE MACHINE BLOCKS AT {format_cell(reply)}"
            if new_threats(me, you, cell)
            else f"THE MACHINE MOVES TO {format_cell(reply)}"
        )
        threats = [format_cell(c) for c in iter_bits(new_threats(you | 1 << reply, me, reply))]
        return f"{words}, THREATENING {' AND '.join(threats)}" if threats else words

    def _hint(self, argument: str) -> Output:
        if argument:
            return ["HINT TAKES NOTHING AFTER IT."]
        cell = self._line()[0]
        self.helped = True
        return [Hint(f"HINT: {format_cell(cell)} (THIS PUZZLE NO LONGER COUNTS AS SOLVED)", cell)]

    def _solution(self, argument: str) -> Output:
        if argument:
            return ["SOLUTION TAKES NOTHING AFTER IT."]
        self.helped = True
        return [
            "THE WIN FROM HERE (THIS PUZZLE NO LONGER COUNTS AS SOLVED):",
            *line_rows(self._line(), self.board.turn),
        ]

    def _skip(self, argument: str) -> Output:
        if argument:
            return ["SKIP TAKES NOTHING AFTER IT."]
        rows = line_rows(self._line(), self.board.turn)
        self.stage = Stage.PLAY_AGAIN
        return ["THE WIN FROM HERE WAS:", *rows, self._tally()]
