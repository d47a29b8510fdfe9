"""Game flow: the questions, the turns, the messages and the replay (the commands typed at the
move are `qubic.play.commands`, the review's steps `qubic.play.navigator`).

A `Session` is a `qubic.play.sitting.Sitting`, driven by its front end as that module says.
Output is a list of text lines and `Picture`s of the cube. Bad input returns a one-line
explanation and leaves everything as it was, including the question. No terminal in sight: the
one thing a session touches outside itself is the file SAVE names.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable
from datetime import datetime
from functools import partial
from pathlib import Path

from qubic.core.board import PASS, Board, Mark, Outcome
from qubic.core.notation import format_cell
from qubic.play import record, savefile
from qubic.play.commands import ARGUMENTS, AT_THE_END, COMMANDS, HELPS, LEAVE, LEVEL, NUMBER_WORDS
from qubic.play.instructions import instructions, title
from qubic.play.navigator import REVIEW_KEYS, Navigator
from qubic.play.rating import START, Rating, after_game, step_words
from qubic.play.render import Output, Picture, line_text, score_lines
from qubic.play.settings import Settings
from qubic.play.sitting import GOODBYE, Stage, YourMove, parse_yes_no
from qubic.play.text import Verbatim
from qubic.players.base import PLAIN_ANNOUNCEMENT, Player
from qubic.players.ladder import Step, nearest, step_named
from qubic.players.levels import make_player

LEAVING_BACK = ("BACK", "PLAY", "STAY")  # at SAVE THE GAME BEFORE YOU GO?: back to the game
LEAVING_CHOICES = (
    "PLEASE ANSWER YES OR NO, OR TYPE SAVE AND A FILE NAME TO SAVE THERE, OR BACK TO RETURN "
    "TO THE GAME."
)
ONE_NAME = "FOR A NAME WITH SPACES: SAVE 'my game.txt'"
SAVE_TRIES = 100  # dated names tried by a SAVE alone, when other games take them
SCORES = {"won": 1.0, "drawn": 0.5, "lost": 0.0}  # a result as the rating counts it
AT_THE_END_WORDS = "REVIEW LOOKS BACK ON THE GAME, SAVE KEEPS IT, HELP SAYS WHAT ELSE WORKS HERE."


def unrated_reason(help_taken: set[str]) -> str | None:
    """Why help taken in a game leaves it unrated, in words; None if none was taken."""
    used = [name for name in HELPS if name in help_taken]
    reasons = [f"YOU USED {' AND '.join(used)}"] if used else []
    if LEVEL in help_taken:
        reasons.append("YOU CHANGED THE LEVEL")
    return ", AND ".join(reasons) or None


class Session:
    """One sitting at the console: instructions once, then games until the player stops.

    The people at the keyboard play the first sides (X, then O, Y, Z) and the machine the
    rest; with none, the machine plays every side and nobody is asked anything until the game
    is over. Alone against the machine, the person is asked whether to move first.
    """

    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings if settings is not None else Settings()
        self.variant = self.settings.variant
        self.machines = self.make_machines()
        self.board = Board(self.variant)
        # Nothing to ask someone watching the machine play itself: the game starts at once.
        self.stage = Stage.MOVE if self.settings.players == 0 else Stage.INSTRUCTIONS
        self.opening: Output = [*title(self.variant)]
        self.board_due = False  # show the board after the next move even if not always_show
        self.score_shown: tuple[int, ...] = ()  # the score last printed (none yet: all zero)
        self.program = "qubic"  # how the program was run, for the hints that resume a game
        self.resume_with = "--load"  # the options after it that resume a game (--tui too)
        self.written: set[str] = set()  # the files this game was saved to (or loaded from)
        self.saved_moves: list[int] | None = None  # the moves at the last save
        self.navigator: Navigator | None = None  # the game looked back on, at REVIEW
        self.review_ends = False  # leaving the review ends the sitting (qubic review)
        self.review_keys = REVIEW_KEYS  # what a review's steps are, said as it starts
        self.record: Path | None = None  # where finished games are counted, if anywhere
        self.started_level: str | None = None  # the level the game in play started at
        self.last_file: str | None = None  # the file this game was loaded from or saved to
        self._store: record.Store | None = None  # the record, once opened (see `store`)
        self._store_error: str | None = None  # why it could not be opened, if it could not
        self._record_notes: Output = []  # what opening it did, to say at the game's end
        self.commands: dict[str, Callable[[str], Output]] = {
            **{name: partial(command, self) for name, command in COMMANDS.items()},
            **dict.fromkeys(LEAVE, self._leave),
        }
        self.your_move = YourMove(self.commands, ARGUMENTS, self.named, self._play)
        self.auto = False  # the machine plays the step nearest the player's rating, game by game
        self.game_step: Step | None = None  # the step this game is rated against, if rated
        self.resumed = False  # this game began before the sitting: it was loaded
        self.help_taken: set[str] = set()  # HELPS and LEVEL taken this game: not rated
        self.counted = False  # this game's end is in the record: an UNDO then is not again

    @classmethod
    def resume(cls, settings: Settings, board: Board, path: str | None = None) -> Session:
        """A session that continues a saved game at the move (loaded from the file `path`, which
        a SAVE may then replace)."""
        session = cls(settings)
        session.board = board
        session.stage = Stage.MOVE
        session.saved_moves = list(board.moves)
        session.resumed = True
        session.started_level = settings.level
        if path is not None:
            session.written.add(os.path.realpath(path))
            session.last_file = path
        session.opening = [
            *title(settings.variant),
            f"RESUMING A SAVED GAME AT MOVE {len(board.moves) + 1}.",
        ]
        # The board comes after the machine's reply when the machine is to move.
        if session.machine_to_move:
            session.board_due = True
        else:
            session.opening += [Picture.of(board), *score_lines(session.board)]
            session.score_shown = tuple(board.scores)
        return session

    @property
    def prompt(self) -> str:
        """The question waiting for an answer."""
        if self.stage is Stage.MOVE and self.settings.players > 1:
            return f"{self.board.turn.name}, {Stage.MOVE.value}"
        if self.stage is Stage.SAVE_BEFORE_LEAVING and self.last_file is not None:
            replacing = (
                " (REPLACING IT)" if os.path.exists(os.path.expanduser(self.last_file)) else ""
            )
            return f"SAVE THE GAME TO {self.last_file}{replacing} BEFORE YOU GO?"
        return self.stage.value

    @property
    def done(self) -> bool:
        return self.stage is Stage.DONE

    @property
    def machine_to_move(self) -> bool:
        return self.stage is Stage.MOVE and self.board.turn in self.machines

    @property
    def seconds_to_answer(self) -> float | None:
        """The time limit on the question waiting, if it is a person's move under one."""
        if self.stage is Stage.MOVE and not self.machine_to_move:
            return self.settings.time_limit
        return None

    @property
    def status(self) -> str:
        """One line on the state of play: move number, level(s), whose turn, the score."""
        settings = self.settings
        if not self.machines:
            level = f"{NUMBER_WORDS[settings.players]} PLAYERS"
        elif settings.players == 0:
            others = " ".join(mark.name for mark in self.board.sides[1:])
            level = f"X {settings.level.upper()} AGAINST {others} {settings.level_o.upper()}"
        else:
            level = f"LEVEL {settings.level.upper()}"
        if self.stage is not Stage.MOVE:
            return level
        turn = self.board.turn
        number = len(self.board.moves) + 1
        status = f"MOVE {number} | {level} | {turn.name} TO PLAY{self.settings.seats.owner(turn)}"
        moves = self.board.moves
        last = next((ply for ply in range(len(moves) - 1, -1, -1) if moves[ply] != PASS), None)
        if last is not None:
            mover = self.board.mover(last)
            seats = self.settings.seats
            who = mover.name
            if seats.one_on_one:
                who = "MACHINE" if seats.is_machine(mover) else "YOU"
            status += f" | {who} PLAYED {format_cell(moves[last], self.board.geometry)}"
        return status + "".join(f" | {line}" for line in score_lines(self.board))

    def words(self, before: str = "") -> tuple[str, ...]:
        """The words worth completing after `before`, the text typed so far at the question."""
        return self.your_move.words(self.stage, before)

    def start(self) -> Output:
        return list(self.opening)

    def answer(self, text: str) -> Output:
        """Act on the player's answer to the current question."""
        if self.stage is Stage.MOVE:
            return self.your_move.answer(text, self.board, self.settings.players)
        if self.stage is Stage.REVIEW:
            return self._review_answer(text)
        if self.stage is Stage.PLAY_AGAIN:
            ended = self._at_the_end(text)
            if ended is not None:
                return ended
        choice = parse_yes_no(text)
        if self.stage is Stage.SAVE_BEFORE_LEAVING:
            return self._save_before_leaving(text)
        if text.strip().upper() in LEAVE:
            return self._leave("")
        if choice is None:
            typed = text.split()[0].upper() if text.split() else ""
            if self.stage is Stage.PLAY_AGAIN:
                works = f"{typed} WORKS AT YOUR MOVE. " if typed in self.commands else ""
                return [f"{works}HERE: YES OR NO, REVIEW TO LOOK BACK ON THE GAME, OR HELP."]
            if typed in self.commands:
                return [f"{typed} WORKS AT YOUR MOVE. HERE, PLEASE ANSWER YES OR NO (OR QUIT)."]
            return ["PLEASE ANSWER YES OR NO."]
        if self.stage is Stage.INSTRUCTIONS:
            chosen = self._next_game()
            return (
                [*instructions(self.variant, self.settings.players), "", *chosen]
                if choice
                else chosen
            )
        if self.stage is Stage.MOVE_FIRST:
            # Yes: X (you) moves first. No: the machine's sides move first, and you last.
            first = Mark.X if choice else Mark.O
            self.board = Board(self.variant, first)
            self.stage = Stage.MOVE
            return []
        if self.stage is Stage.PLAY_AGAIN:
            if choice:
                return self._next_game()
            self.stage = Stage.DONE
            return [GOODBYE]
        raise RuntimeError("the session is over")

    def _at_the_end(self, text: str) -> Output | None:
        """REVIEW, or a command that works on a finished game (SAVE, MOVES, UNDO, ...), typed
        at PLAY ANOTHER GAME?; None for anything else."""
        words = text.split(maxsplit=1)
        name = words[0].upper() if words else ""
        if name == "REVIEW":
            return self.start_review() if len(words) == 1 else ["REVIEW TAKES NOTHING AFTER IT."]
        if name not in AT_THE_END or name not in self.commands:
            return None
        return self.commands[name](words[1].strip() if len(words) > 1 else "")

    def machine_move(self) -> Output:
        """Let the machine play its move; may take a while at the stronger levels."""
        mark = self.board.turn
        reply = self.machines[mark].choose(self.board)
        self.board.push(reply.cell)
        cell = format_cell(reply.cell, self.board.geometry)
        if self.settings.seats.lone_machine:
            announcement = f"{reply.announcement} {cell}"
        elif reply.announcement == PLAIN_ANNOUNCEMENT:
            announcement = f"{mark.name} MOVES TO {cell}"
        else:
            announcement = f"{mark.name}: {reply.announcement} {cell}"
        return [announcement, *self._after_move()]

    def time_up(self) -> Output:
        """The person to move ran out of time: the turn passes to the next side."""
        self.board.push_pass()
        if self.settings.seats.one_on_one:
            return ["TIME IS UP. YOUR TURN PASSES TO THE MACHINE."]
        return [f"TIME IS UP. THE TURN PASSES TO {self.board.turn.name}."]

    def new_game(self) -> Output:
        """Start the next game now, as YES to another game does, leaving any game in play;
        with auto, the line naming the step chosen."""
        return self._next_game()

    def make_machines(self) -> dict[Mark, Player]:
        settings = self.settings
        sides = [Mark(side) for side in range(self.variant.sides)]
        if settings.players == 0:
            return {
                mark: make_player(
                    settings.level if mark is Mark.X else settings.level_o, settings.seed
                )
                for mark in sides
            }
        return {
            mark: make_player(settings.level, settings.seed) for mark in sides[settings.players :]
        }

    def _next_game(self) -> Output:
        chosen = self._choose_step()
        self.help_taken.clear()
        self.counted = False
        self.resumed = False
        self.game_step = self._rated_step()
        self.score_shown = ()
        self.written.clear()  # a file saved in the last game holds that game: never replaced
        self.saved_moves = None
        self.last_file = None
        self.started_level = None
        if self.settings.players == 1 and self.machines:
            self.stage = Stage.MOVE_FIRST
        else:
            self.board = Board(self.variant)
            self.stage = Stage.MOVE
        return chosen

    def _choose_step(self) -> Output:
        """With auto, the step nearest the player's rating plays the next game: the line
        naming it."""
        if not self.auto:
            return []
        return [f"THE MACHINE PLAYS AT {step_words(self.follow_rating())}."]

    def follow_rating(self) -> Step:
        """Auto from now on: the step nearest the player's rating plays (chosen again before
        each game); the step."""
        try:
            rating = self.player_rating()
        except record.RecordError:
            rating = START  # the game's end says why the record cannot be read
        step = nearest(rating.rating)
        self.set_level(step.name, auto=True)
        return step

    def set_level(self, name: str, auto: bool = False) -> None:
        """The machine plays at level `name` from now on, and with `auto` follows the player's
        rating game by game. A change after the game's first move leaves the game unrated."""
        self.auto = auto
        if name == self.settings.level:
            return
        self.settings.level = name
        self.machines = self.make_machines()
        if self.stage is Stage.MOVE and self.board.moves:
            self.help_taken.add(LEVEL)
        else:
            self.game_step = self._rated_step()

    def _rated_step(self) -> Step | None:
        """The step a game starting now is rated against: one person against a step of the
        ladder in QUBIC itself, counted in the record; None for a game never rated."""
        if self.record is None or not self.settings.seats.one_on_one or not self.variant.is_qubic:
            return None
        return step_named(self.settings.level)

    def took_help(self, name: str) -> None:
        """The player took help (one of HELPS) in this game, which leaves it unrated."""
        self.help_taken.add(name)

    def player_rating(self) -> Rating:
        """The player's rating in the record (a new player's without one); RecordError if
        the record cannot be read."""
        rating = self.store.rating() if self.store is not None else None
        return START if rating is None else rating

    def named(self, mark: Mark) -> str:
        """A mark and who plays it, as a taken square names them: X (YOU)."""
        return f"{mark.name}{self.settings.seats.owner(mark)}"

    def _play(self, cell: int) -> Output:
        """A person's legal move."""
        self.board.push(cell)
        return self._after_move()

    def _after_move(self) -> Output:
        board = self.board
        if self.started_level is None:
            self.started_level = self.settings.level  # what the record counts it at
        outcome = board.outcome()
        if outcome is None:
            shown: Output = []
            # Against the machine, the board comes once its replies are in, not after each move.
            waiting = self.machine_to_move and bool(self.settings.players)
            if (self.settings.always_show or self.board_due) and not waiting:
                self.board_due = False
                shown = [Picture.of(board)]
            return shown + self._score_change()
        self.stage = Stage.PLAY_AGAIN
        counted = self._count(outcome.winner)
        return [
            Picture.of(board),
            *score_lines(self.board),
            self._result(outcome),
            *counted,
            AT_THE_END_WORDS,
        ]

    def _result(self, outcome: Outcome) -> str:
        """Who won, and by which line (or lines, in the scoring games)."""
        if outcome.winner is None:
            return "THE GAME IS A DRAW."
        verdict = self._verdict(outcome.winner)
        lines = [line_text(self.board, line) for line in outcome.lines]
        if not self.variant.scoring:
            return f"{verdict} THE LINE: {lines[0]}"
        score = self.board.scores[outcome.winner]
        how = (
            f"THE BOARD IS FULL, AND {score} LINES ARE THE MOST."
            if outcome.full
            else f"{score} LINES REACH THE TARGET."
        )
        return f"{verdict} {how} THE LINES: {', '.join(lines)}"

    def _score_change(self) -> list[str]:
        """The score line if the score has changed since it was last printed."""
        scores = tuple(self.board.scores)
        if scores == (self.score_shown or (0,) * len(scores)):
            return []
        self.score_shown = scores
        return score_lines(self.board)

    @property
    def store(self) -> record.Store | None:
        """The record (`self.record`), opened at its first use; None where games are not
        counted, or while it cannot be opened (the end of a game says why, and tries again)."""
        if self._store is None and self.record is not None and self._store_error is None:
            try:
                self._store = record.Store.open(self.record)
            except record.RecordError as error:
                self._store_error = str(error)
            else:
                if self._store.game_notice is not None:
                    self._record_notes.append(self._store.game_notice)
        return self._store

    def _count(self, winner: Mark | None) -> Output:
        """Count a finished game in the record, one person against the machine only, at the
        level it started at, with the player's rating after it if it was rated; what the
        game's end says about it (the rating, or why the record could not count it)."""
        seats = self.settings.seats
        if self.record is None or not seats.one_on_one:
            return []
        if self.counted:
            return ["YOUR RECORD KEEPS THIS GAME AS IT FIRST ENDED."]
        self.counted = True
        result = "drawn" if winner is None else ("lost" if seats.is_machine(winner) else "won")
        rating, said = self._rate(result)
        self._store_error = None  # a record that could not be opened is tried again
        store = self.store
        notes, self._record_notes = self._record_notes, []
        row = record.GameRow(
            variant=self.variant.spec,
            level=self.started_level or self.settings.level,
            first=self.board.first is Mark.X,
            result=result,
            rated=rating is not None,
            rating=rating,
        )
        try:
            if store is None:
                raise record.RecordError(str(self._store_error))
            store.add(row)
        except record.RecordError as error:
            return [*notes, f"THIS GAME IS NOT COUNTED IN YOUR RECORD: {str(error).upper()}."]
        return [*notes, *said]

    def _rate(self, result: str) -> tuple[Rating | None, Output]:
        """The player's rating after this game if it is rated, and the line the game's end
        says about it: the new rating, or why the game is not rated (nothing for a game of a
        kind never rated)."""
        if self.game_step is None:
            if self.resumed and self._rated_step() is not None:
                return None, ["THIS GAME IS NOT RATED: IT WAS RESUMED FROM A SAVE."]
            return None, []
        reason = unrated_reason(self.help_taken)
        if reason is not None:
            return None, [f"THIS GAME IS NOT RATED: {reason}."]
        try:
            before = self.player_rating()
        except record.RecordError as error:
            return None, [f"THIS GAME IS NOT RATED: {str(error).upper()}."]
        after = after_game(before, self.game_step.rating, SCORES[result])
        new = round(after.rating)
        change = new - round(before.rating)
        return after, [f"YOUR RATING: {new} ({change:+d}), ± {round(after.deviation)}."]

    def _verdict(self, winner: Mark) -> str:
        seats = self.settings.seats
        if seats.one_on_one:
            return "MACHINE WINS." if seats.is_machine(winner) else "YOU WIN!"
        if seats.people == 1 and not seats.is_machine(winner):
            return "YOU WIN!"
        return f"{winner.name}{self.settings.seats.owner(winner)} WINS!"

    def play_on(self) -> None:
        """Back to the move, as after UNDO (even from a game's end)."""
        self.stage = Stage.MOVE

    def start_review(self) -> Output:
        """Look back on the game on the board: its mistakes, then its positions in turn."""
        if not self.board.moves:
            return ["NO MOVES TO REVIEW."]
        self.navigator = Navigator(self.board)
        self.board = self.navigator.board
        self.stage = Stage.REVIEW
        return self.navigator.start(self.review_keys)

    def _review_answer(self, text: str) -> Output:
        assert self.navigator is not None
        said = self.navigator.answer(text)
        self.board = self.navigator.board
        if not self.navigator.done:
            return said
        self.navigator = None
        if self.review_ends:
            self.stage = Stage.DONE
            return [GOODBYE]
        self.stage = Stage.PLAY_AGAIN
        return []

    def stay(self) -> None:
        """Back to the move from the question before leaving, as if QUIT had not been typed."""
        if self.stage is Stage.SAVE_BEFORE_LEAVING:
            self.stage = Stage.MOVE

    def _leave(self, argument: str) -> Output:
        if argument:
            return [f"{' AND '.join(LEAVE)} TAKE NOTHING AFTER THEM."]
        if self.stage is Stage.MOVE and self.settings.players and self.unsaved:
            self.stage = Stage.SAVE_BEFORE_LEAVING
            return []
        self.stage = Stage.DONE
        return [GOODBYE]

    @property
    def unsaved(self) -> bool:
        """Whether the game has moves that no save holds."""
        return bool(self.board.moves) and self.board.moves != self.saved_moves

    def _save_before_leaving(self, text: str) -> Output:
        """The answer to SAVE THE GAME BEFORE YOU GO?: YES saves (to the file the game came
        from or was last saved to, which the question names, else to a new dated name) and
        leaves; NO leaves; SAVE FILE saves to FILE and leaves; BACK returns to the game. A
        save that fails leaves the question open, and says what else can be done."""
        words = text.split(maxsplit=1)
        typed = words[0].upper() if words else ""
        if typed in LEAVING_BACK and len(words) == 1:
            self.stay()
            return ["BACK TO THE GAME."]
        if typed == "SAVE":
            try:
                names = shlex.split(words[1]) if len(words) > 1 else []
            except ValueError:
                return [f"A QUOTE IS NOT CLOSED. {ONE_NAME}"]
            if len(names) > 1:
                return [f"SAVE TAKES ONE FILE NAME. {ONE_NAME}"]
            saved, output = self.save_to(names[0] if names else None)
        else:
            choice = parse_yes_no(text)
            if choice is None:
                return [LEAVING_CHOICES]
            saved, output = self.save_to(self.last_file) if choice else (True, [])
        if not saved:
            return [*output, LEAVING_CHOICES]  # still asked: nothing is lost
        self.stage = Stage.DONE
        return [*output, GOODBYE]

    def save_to(self, name: str | None = None) -> tuple[bool, Output]:
        """Save the game to the file `name` (`~` expanded), which must be new or one this game
        wrote or came from; with none, to a new name made from the date and time (the next
        one, if another game takes it meanwhile). Whether it worked, and the words."""
        for _ in range(SAVE_TRIES):
            shown = name if name is not None else savefile.suggested_name(datetime.now())
            path = os.path.expanduser(shown)
            try:
                real = os.path.realpath(path)
            except OSError:  # the working folder is gone: savefile says so
                real = path
            try:
                savefile.save(path, self.settings, self.board, replace=real in self.written)
            except savefile.NameTaken as error:
                if name is None:
                    continue  # another game saved in the same second: take the next name
                return False, [f"CANNOT SAVE TO {shown}: {str(error).upper()}."]
            except savefile.SaveFileError as error:
                return False, [f"CANNOT SAVE TO {shown}: {str(error).upper()}."]
            self.written.add(real)
            self.last_file = shown
            self.saved_moves = list(self.board.moves)
            return True, [f"GAME SAVED TO {shown}.", self.resume_hint(path)]
        return False, ["CANNOT SAVE: EVERY NAME TRIED WAS TAKEN. TYPE SAVE AND A FILE NAME."]

    def resume_hint(self, game: str) -> Verbatim:
        """How to resume `game` (a file or an export line), or to review it once it is over,
        with the program as it was run: a line never wrapped, to be copied whole."""
        if self.board.is_over():
            return Verbatim(f"TO REVIEW IT: {self.program} review {shlex.quote(game)}")
        return Verbatim(f"TO RESUME IT: {self.program} {self.resume_with} {shlex.quote(game)}")
