"""The full-screen game: the board with a cursor, played by keys and clicks, while the
machine thinks in the background.

It drives a `Session` as the line console does: every move, command and message comes from
the session (a key is a command typed for you: `u` is UNDO); the screen only shows them. The
session's questions are answered here for the player (no instructions, you move first as X)
except the two that end things: save before leaving, and another game.
"""

from __future__ import annotations

import asyncio
import shlex
import signal
import time
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from prompt_toolkit.application import Application, get_app
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.data_structures import Point
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import (
    ConditionalContainer,
    Dimension,
    Float,
    FloatContainer,
    FormattedTextControl,
    HorizontalAlign,
    HSplit,
    Layout,
    VSplit,
    Window,
)
from prompt_toolkit.layout.controls import BufferControl
from prompt_toolkit.layout.menus import CompletionsMenu
from prompt_toolkit.layout.processors import BeforeInput
from prompt_toolkit.mouse_events import MouseEvent, MouseEventType
from prompt_toolkit.output import ColorDepth
from prompt_toolkit.styles import Style
from prompt_toolkit.widgets import Frame

from qubic.core.board import PASS
from qubic.core.notation import NotationError, format_cell, numbered, parse_cell
from qubic.play.commands import Hint
from qubic.play.render import Layout as Shape
from qubic.play.render import Output
from qubic.play.session import AT_THE_END_WORDS, Session
from qubic.play.sitting import GOODBYE, Stage, people_words
from qubic.play.text import WIDTH, Verbatim, fit, table
from qubic.players.levels import LEVELS
from qubic.ui.completion import ContextCompleter
from qubic.ui.shared import (
    INTERRUPTED,
    Spinner,
    TurnClock,
    dropped_words,
    seconds_left,
    split_paste,
    squeezed,
)
from qubic.ui.tui.view import (
    Highlights,
    describe,
    fitted,
    fragments,
    height,
    shifted,
    step,
    threats,
)
from qubic.ui.tui.worker import Worker, WorkerError

if TYPE_CHECKING:
    from asyncio import TimerHandle

PANEL = 13  # the move list's width
TICK = 0.1  # seconds between two looks at the spinner and the clock
KEPT = 200  # message lines kept
# (axis of [ and ], axis of PgUp and PgDn; each key's step) by dimensions: in 3-D both change
# the level (PgUp goes up the cube), in 4-D [ ] the big column and PgUp PgDn the big row.
LEVEL_KEYS = {3: ((0, 1), (0, 1)), 4: ((0, 1), (2, -1))}
KEYS = [
    ("arrows, h j k l", "MOVE THE CURSOR, ACROSS A LEVEL'S EDGE TO THE NEXT"),
    ("PgUp PgDn, [ ]", "CHANGE LEVEL (4-D: PgUp PgDn BIG ROW, [ ] BIG COLUMN)"),
    ("digits", "JUMP TO THE SQUARE THEY NAME: 234"),
    ("Enter, space", "PLAY THE SQUARE UNDER THE CURSOR (OR CLICK IT)"),
    ("t", "MARK (!) THE SQUARES THAT COMPLETE A LINE NOW"),
    ("u", "UNDO YOUR MOVE AND THE MACHINE'S REPLY"),
    ("H", "HINT: THE CURSOR JUMPS TO THE MOVE SUGGESTED"),
    ("a", "ANALYZE: WHO HAS A FORCED WIN BY THREATS"),
    ("s", "SAVE THE GAME (ASKS FOR A FILE NAME)"),
    ("L", "CHANGE THE MACHINE'S LEVEL (ASKS WHICH)"),
    ("m", "LET THE MACHINE MOVE FIRST (BEFORE YOUR MOVE)"),
    ("n", "A NEW GAME"),
    ("r", "AT A GAME'S END: REVIEW IT, MOVE BY MOVE"),
    (":", "TYPE A COMMAND OF THE CONSOLE (:help LISTS THEM)"),
    ("?", "THESE KEYS"),
    ("q, Ctrl-C", "QUIT (q OFFERS TO SAVE A GAME IN PROGRESS)"),
    ("Ctrl-Z", "SUSPEND THE GAME (fg BRINGS IT BACK)"),
]
KEYS_TITLE = "KEYS: ? OR Esc CLOSES THEM"  # on the box's top edge, seen whatever its height
KEYS_CLOSE = ("?", "escape", "q", "c-m", " ")  # the keys that close the keys' box: ? Esc q Enter
FOOTERS = {
    Stage.MOVE: " ?:keys  arrows:move  Enter:play  u:undo  H:hint  t:threats  s:save  q:quit",
    Stage.PLAY_AGAIN: " ?:keys  y:new game  n:leave  r:review  s:save  u:undo  ::command",
    Stage.REVIEW: " n:next  p:back  f:first  L:last  q:done",
    Stage.SAVE_BEFORE_LEAVING: " y:save and leave  q:leave  n:stay",
}
REVIEW_KEYS = "REVIEW: n (OR RIGHT) NEXT, p (OR LEFT) BACK, f FIRST, L (OR G) LAST, q DONE."
GAME_OVER = "THE GAME IS OVER: y A NEW GAME, r REVIEW IT, s SAVE IT, u UNDO, q LEAVE."
COPY = "THAT LINE IS PRINTED WHOLE WHEN YOU LEAVE, TO BE COPIED."
COLOURED = {
    "status": "reverse",
    "keys": "reverse",
    "heading": "bold",
    "info": "bold",
    "mark-x": "bold ansicyan",
    "mark-o": "bold ansiyellow",
    "mark-y": "bold ansimagenta",
    "mark-z": "bold ansigreen",
    "threat": "bold",
    "disabled": "ansibrightblack",
    "last": "underline",
    "preview": "bg:ansiblue",
    "win": "bg:ansiyellow fg:ansiblack bold",
    "cursor": "reverse bold",
}
# Without colour: marks bold, the last move in lowercase, the preview underlined, the
# winner's lines reversed, the cursor reversed in brackets.
PLAIN = {
    "status": "reverse",
    "keys": "reverse",
    "heading": "bold",
    "info": "bold",
    "mark": "bold",
    "threat": "bold",
    "preview": "underline",
    "win": "reverse",
    "cursor": "reverse bold",
}


def too_small() -> Window:
    """What a screen too small for the game shows instead, in the game's words."""
    return Window(FormattedTextControl(" THE TERMINAL IS TOO SMALL FOR THE GAME."))


class Screen:
    """The full-screen game around one session."""

    def __init__(self, session: Session, colour: bool = True, pause: float = 0.0) -> None:
        self.session = session
        self.colour = colour
        self.pause = pause
        self.worker = Worker()
        self.clock = TurnClock()
        self.cursor = 0
        self.messages: list[str] = []
        self.copies: list[str] = []  # lines to copy whole (an export), printed after the screen
        session.review_keys = REVIEW_KEYS
        session.resume_with = "--tui --load"
        self.farewell: Output = []  # what the session said last, printed after the screen
        self.show_threats = False
        self.show_help = False
        self.digits = ""  # a square's digits typed so far
        self.confirm_new = False
        self.asking: tuple[str, str] | None = None  # the command line: its label and prefix
        self.pending: TimerHandle | None = None  # the machine's next move, after a pause
        self.spin = 0
        self.began = 0.0  # when the worker's call began: a quick one shows no spinner
        self.handlers = [self._mouse_handler(cell) for cell in session.board.geometry.cells]
        self.buffer = Buffer(
            multiline=False, accept_handler=self._accept, completer=ContextCompleter(self._words)
        )
        self.app: Application[int] = self._application()

    # The screen's parts

    def _application(self) -> Application[int]:
        # The cursor is drawn, not the terminal's: its position is fixed rather than looked
        # up in the board's text on every draw.
        self.board_control = FormattedTextControl(
            self._board_text,
            focusable=True,
            key_bindings=self._keys(),
            show_cursor=False,
            get_cursor_position=lambda: Point(0, 0),
        )
        root = FloatContainer(
            self._body(),
            floats=[
                Float(
                    ConditionalContainer(
                        Frame(Window(FormattedTextControl(self._keys_text)), title=KEYS_TITLE),
                        filter=Condition(lambda: self.show_help),
                    )
                ),
                Float(xcursor=True, ycursor=True, content=CompletionsMenu(max_height=8)),
            ],
        )
        keys = KeyBindings()
        keys.add("c-c", eager=True)(self._interrupt)
        keys.add("c-z")(lambda event: event.app.suspend_to_background())
        keys.add(Keys.BracketedPaste)(self._paste)
        keys.add("escape", filter=Condition(lambda: self.asking is not None))(
            lambda event: self._close_line()
        )
        app: Application[int] = Application(
            layout=Layout(root, focused_element=self.board_control),
            key_bindings=keys,
            style=Style.from_dict(COLOURED if self.colour else PLAIN),
            full_screen=True,
            mouse_support=True,
            color_depth=None if self.colour else ColorDepth.MONOCHROME,
        )
        # Escape alone is Escape at once: no wait for the rest of an escape sequence (the
        # terminal sends one whole), nor for a key that might follow it (Alt-key bindings).
        app.ttimeoutlen = 0.05
        app.timeoutlen = 0.05
        return app

    def _body(self) -> HSplit:
        """The status bar, the board with the line under it and the messages, the move list
        beside them where it fits, the command line when open, and the keys' bar."""
        board = HSplit(
            [
                Window(self.board_control, height=self._board_height),
                Window(
                    FormattedTextControl(self._info_text),
                    height=lambda: len(self._info_lines()),
                    style="class:info",
                ),
                Window(
                    FormattedTextControl(
                        self._message_text, get_cursor_position=self._last_message
                    ),
                    wrap_lines=True,  # only a line meant to be copied whole is this long
                ),
            ],
            width=lambda: Dimension.exact(self._board_width()),
        )
        panel = ConditionalContainer(
            VSplit(
                [
                    Window(width=1, char="\u2502", style="class:rule"),
                    HSplit(
                        [
                            Window(FormattedTextControl([("class:heading", " MOVES")]), height=1),
                            Window(
                                FormattedTextControl(
                                    self._move_text, get_cursor_position=self._last_move
                                )
                            ),
                        ],
                        width=PANEL,
                    ),
                ]
            ),
            filter=Condition(self._panel_shown),
        )
        asking = ConditionalContainer(
            Window(
                BufferControl(self.buffer, input_processors=[BeforeInput(self._label)]), height=1
            ),
            filter=Condition(lambda: self.asking is not None),
        )
        return HSplit(
            [
                Window(FormattedTextControl(self._status_text), height=1, style="class:status"),
                VSplit([board, panel], align=HorizontalAlign.CENTER, window_too_small=too_small()),
                asking,
                Window(FormattedTextControl(self._footer_text), height=1, style="class:keys"),
            ],
            window_too_small=too_small(),
        )

    def _keys(self) -> KeyBindings:
        """The keys that act on the board (the command line, when open, has its own)."""
        keys = KeyBindings()

        def bind(*names: str | Keys, action: Callable[[], None]) -> None:
            for name in names:
                keys.add(name)(lambda event, act=action: self._key(event, act))

        geometry = self.session.board.geometry
        for names, down, right in (
            (("up", "k"), -1, 0),
            (("down", "j"), 1, 0),
            (("left", "h"), 0, -1),
            (("right", "l"), 0, 1),
        ):
            bind(*names, action=partial(self._step, down, right))
        brackets, pages = LEVEL_KEYS.get(geometry.dims, ((None, 0), (None, 0)))
        for names, (axis, sign) in ((("[", "]"), brackets), (("pagedown", "pageup"), pages)):
            if axis is not None:
                for name, delta in zip(names, (-sign, sign)):
                    bind(name, action=partial(self._shift, axis, delta))
        for digit in "0123456789":
            bind(digit, action=partial(self._digit, digit))
        bind("enter", "space", action=self._play_cursor)
        bind("t", action=self._toggle_threats)
        bind("u", action=lambda: self._command("UNDO", cancel=True, ending=True))
        bind("H", action=lambda: self._background("answer", "HINT"))
        bind("a", action=lambda: self._background("answer", "ANALYZE"))
        bind(
            "s",
            action=lambda: self._open_line(
                "SAVE TO FILE (ENTER ALONE: A DATED NAME): ", "SAVE", ending=True
            ),
        )
        bind("L", action=lambda: self._open_line(f"LEVEL ({', '.join(LEVELS)}): ", "LEVEL"))
        bind(":", action=lambda: self._open_line(": ", "", ending=True))
        bind("m", action=self._machine_first)
        bind("n", action=self._n_key)
        bind("y", action=self._yes)
        bind("r", action=self._review_start)
        bind("q", action=self._quit)
        bind("?", action=self._show_keys)
        bind("escape", action=self._escape)  # cancels the quit question, closes the help
        bind(Keys.Any, action=lambda: None)  # closes the help, as every key does
        return keys

    # What is drawn

    def _columns(self) -> int:
        return get_app().output.get_size().columns

    def _arrangement(self) -> tuple[Shape, bool]:
        """The board's layout, and whether the move list goes beside it: where it takes no
        room the board needs (a column is kept for the cursor's bracket after the board)."""
        geometry = self.session.board.geometry
        columns = self._columns()
        alone = fitted(geometry, columns - 1)
        beside = fitted(geometry, columns - 1 - PANEL - 1)
        return alone, beside is alone and alone.width + 1 + 1 + PANEL <= columns

    def _panel_shown(self) -> bool:
        return self._arrangement()[1]

    def _board_shape(self) -> Shape:
        return self._arrangement()[0]

    def _board_height(self) -> int:
        return height(self._board_shape())

    def _board_text(self) -> StyleAndTextTuples:
        board = self.session.board
        shape = self._board_shape()
        playing = self.session.stage is Stage.MOVE and not board.is_over()
        outcome = board.outcome()
        lines = outcome.lines if outcome is not None else ()
        shown = Highlights(
            self.cursor,
            frozenset(
                cell
                for line in board.geometry.lines_through[self.cursor]
                for cell in board.geometry.lines[line].cells
            )
            if playing
            else frozenset(),
            frozenset(cell for line in lines for cell in board.geometry.lines[line].cells),
            threats(board) if self.show_threats else {},
        )
        return fragments(board, shape, shown, self.colour, self.handlers)

    def _status_text(self) -> str:
        parts = self.session.status.split(" | ")
        left = self.clock.left(self.session)
        if left is not None:
            parts.append(seconds_left(left))
        if self.worker.busy and time.monotonic() - self.began >= Spinner.DELAY:
            frames = Spinner.FRAMES
            parts.append(f"{Spinner.TEXT}{frames[self.spin % len(frames)]}")
        return " " + squeezed(parts, self._columns() - 1)

    def _board_width(self) -> int:
        """The columns of the board, the line under it and the messages: the terminal's, less
        the move list's; on a large terminal no more than at 80 columns, so the board and
        the move list sit together in the middle."""
        shape, beside = self._arrangement()
        columns = self._columns()
        if not beside:
            return columns
        return min(columns - 1 - PANEL, max(WIDTH - 1 - PANEL, shape.width + 1))

    def _keys_text(self) -> str:
        """The keys, each on one line where the screen is wide enough (80 columns)."""
        lines = table(KEYS, min(WIDTH - 4, self._columns() - 4))
        return "\n".join(lines)

    def _footer_text(self) -> str:
        """The reminder of the keys that work now, whole entries only, as many as fit."""
        entries = FOOTERS.get(self.session.stage, "").split("  ")
        while len("  ".join(entries)) > self._columns() and len(entries) > 1:
            entries.pop()
        return "  ".join(entries)

    def _info_lines(self) -> list[str]:
        return fit(self._info(), self._board_width() - 1) or [""]

    def _info_text(self) -> str:
        return "\n".join(self._info_lines())

    def _info(self) -> str:
        stage = self.session.stage
        if stage is Stage.PLAY_AGAIN:
            return f" {self.session.prompt} y: A NEW GAME, n OR q: LEAVE, r: REVIEW IT, s: SAVE IT"
        if stage is Stage.REVIEW:
            return f" {REVIEW_KEYS}"
        if stage is Stage.SAVE_BEFORE_LEAVING:
            return f" {self.session.prompt} y: SAVE, q: DON'T SAVE, n OR Esc: STAY"
        if self.digits:
            return f" GO TO: {self.digits}_"
        if self.confirm_new:
            return " START A NEW GAME? n AGAIN: YES; ANY OTHER KEY: NO"
        return " " + describe(self.session.board, self.cursor)

    def _message_lines(self) -> list[str]:
        """The messages, each wrapped between words to the width they have (a line to copy
        too: it is printed whole after the screen)."""
        width = self._board_width() - 1
        return [
            line
            for message in self.messages
            for line in fit(str(message) if isinstance(message, Verbatim) else message, width)
        ]

    def _message_text(self) -> str:
        return "\n".join(self._message_lines())

    def _last_message(self) -> Point:
        return Point(0, max(0, len(self._message_lines()) - 1))

    def _move_text(self) -> str:
        board = self.session.board
        return "\n".join(
            f"{ply + 1:>3}. {board.mover(ply).name} "
            f"{'PASS' if cell == PASS else format_cell(cell, board.geometry)}"
            for ply, cell in enumerate(board.moves)
        )

    def _last_move(self) -> Point:
        return Point(0, max(0, len(self.session.board.moves) - 1))

    def _label(self) -> str:
        return self.asking[0] if self.asking else ""

    def _words(self, before: str) -> tuple[str, ...]:
        prefix = self.asking[1] if self.asking else ""
        return self.session.words(f"{prefix} {before}" if prefix else before)

    # Keys and clicks

    def _key(self, event: KeyPressEvent, action: Callable[[], None]) -> None:
        """Every board key: closes the help if it is open, else does its action. Any other
        key forgets digits typed so far and a new game half asked for."""
        if self.show_help:
            pressed = event.key_sequence[0].key if event.key_sequence else ""
            name = pressed.value if isinstance(pressed, Keys) else pressed
            self.show_help = name not in KEYS_CLOSE
            return
        if self.session.stage is Stage.REVIEW:
            self._review_key(event)
            return
        if not event.data.isdigit():
            self.digits = ""
        if event.data != "n":
            self.confirm_new = False
        action()

    def _review_key(self, event: KeyPressEvent) -> None:
        """The review's keys, the console's letters: n, right or Enter the next position, p or
        left the one before, f (or g) the start, l (or G) the end, q or Esc done."""
        pressed = event.key_sequence[0].key if event.key_sequence else ""
        key = pressed.value if isinstance(pressed, Keys) else pressed
        steps = {"n": "N", "right": "N", "c-m": "N", " ": "N", "p": "P", "left": "P"}
        steps |= {"f": "F", "g": "F", "home": "F", "G": "L", "l": "L", "L": "L", "end": "L"}
        step = steps.get(event.data) or steps.get(key)
        if event.data in ("q", "\x1b") or key == "escape":
            step = "Q"
        if step is None:
            self._say([REVIEW_KEYS])
            return
        self._said(self.session.answer(step))

    def _review_start(self) -> None:
        if self.session.stage is Stage.PLAY_AGAIN:
            self._say(["LOOKING BACK ON THE GAME..."])
            self._said(self.session.answer("REVIEW"))
        else:
            self._say(["r REVIEWS A FINISHED GAME, AT ITS END."])

    def _mouse_handler(self, cell: int) -> Callable[[MouseEvent], object]:
        def handle(event: MouseEvent) -> object:
            if event.event_type in (MouseEventType.SCROLL_UP, MouseEventType.SCROLL_DOWN):
                return NotImplemented
            if self.show_help:
                return None
            self.cursor = cell
            if event.event_type is MouseEventType.MOUSE_UP:
                self._play(cell)
            return None

        return handle

    def _step(self, down: int, right: int) -> None:
        self.cursor = step(self._board_shape(), self.cursor, down, right)

    def _shift(self, axis: int, delta: int) -> None:
        self.cursor = shifted(self.session.board.geometry, self.cursor, axis, delta)

    def _digit(self, digit: str) -> None:
        """A square's digits, one a key: the cursor jumps there once they are all typed."""
        geometry = self.session.board.geometry
        self.digits += digit
        if len(self.digits) < geometry.dims:
            return
        typed, self.digits = self.digits, ""
        try:
            self.cursor = parse_cell(typed, geometry, numbers=numbered(geometry))
        except NotationError as error:
            self._say([f"{people_words(error)}."])

    def _play_cursor(self) -> None:
        self._play(self.cursor)

    def _play(self, cell: int) -> None:
        self._command(format_cell(cell, self.session.board.geometry))

    def _toggle_threats(self) -> None:
        self.show_threats = not self.show_threats
        if not self.show_threats:
            self._say(["THE ! MARKS ARE HIDDEN AGAIN."])
        elif threats(self.session.board):
            self._say(["! MARKS THE SQUARES WHERE A SIDE COULD COMPLETE A LINE NOW."])
        else:
            self._say(["NO SQUARE COMPLETES A LINE NOW: t AGAIN HIDES THE MARKS."])

    def _show_keys(self) -> None:
        self.show_help = True

    def _machine_first(self) -> None:
        session = self.session
        if (
            session.stage is not Stage.MOVE
            or session.board.moves
            or self.worker.busy
            or session.settings.players != 1
            or not session.machines
        ):
            self._say(["m LETS THE MACHINE MOVE FIRST, BEFORE YOUR FIRST MOVE."])
            return
        session.new_game()
        self._say(session.answer("NO"))
        self._advance()

    def _n_key(self) -> None:
        """n: no at the two questions (at the quit question, stay), else a new game."""
        stage = self.session.stage
        if stage is Stage.SAVE_BEFORE_LEAVING:
            self._stay()
        elif stage is Stage.PLAY_AGAIN:
            self._said(self.session.answer("NO"))  # n means no, as in the console: leave
        else:
            self._new_game()

    def _new_game(self) -> None:
        session = self.session
        in_play = session.stage is Stage.MOVE and bool(session.board.moves)
        if in_play and not self.confirm_new:
            self.confirm_new = True
            return
        self.confirm_new = False
        self._cancel()
        chosen = session.new_game()
        self.messages.clear()  # a new game starts with a clean log
        self.cursor = 0
        self._say(["A NEW GAME.", *chosen])
        self._advance()

    def _yes(self) -> None:
        if self.session.stage is Stage.PLAY_AGAIN:
            self._new_game()
        elif self.session.stage is Stage.SAVE_BEFORE_LEAVING:
            self._said(self.session.answer("YES"))

    def _quit(self) -> None:
        """q: QUIT, as typed, once the machine has stopped thinking (if the question is
        cancelled, it thinks again); at the quit question, leave without saving."""
        if self.session.stage is Stage.SAVE_BEFORE_LEAVING:
            self._said(self.session.answer("NO"))
            return
        self._cancel()
        self._said(self.session.answer("QUIT"))

    def _stay(self) -> None:
        """Esc or n at the quit question: back to the game, the machine thinking again if it
        was."""
        self.session.stay()
        self._say(["BACK TO THE GAME."])
        self._advance()

    def _escape(self) -> None:
        if self.session.stage is Stage.SAVE_BEFORE_LEAVING:
            self._stay()

    def _interrupt(self, event: KeyPressEvent) -> None:
        """Ctrl-C: leave at once, as the console does, with its exit status."""
        self._leave(INTERRUPTED)

    def _leave(self, status: int) -> None:
        self._cancel()
        self.farewell = [GOODBYE]
        self.app.exit(result=status)

    # The command line

    def _open_line(self, label: str, prefix: str, ending: bool = False) -> None:
        if not self._ready(ending):
            return
        self.asking = (label, prefix)
        self.buffer.reset()
        self.app.layout.focus(self.buffer)

    def _paste(self, event: KeyPressEvent) -> None:
        """A paste is typed on the command line (opened for it, on the board): its first line
        only, answered if a line break ends it; the rest is dropped, and said so."""
        first, enter, rest = split_paste(event.data)
        if self.asking is None:
            self._open_line(": ", "", ending=True)
            if self.asking is None:
                return
        self.buffer.insert_text(first)
        if rest:
            self._say([dropped_words(rest)])
        if enter:
            self.buffer.validate_and_handle()

    def _close_line(self) -> None:
        self.asking = None
        self.buffer.reset()
        self.app.layout.focus(self.board_control)

    def _accept(self, buffer: Buffer) -> bool:
        assert self.asking is not None
        prefix, text = self.asking[1], buffer.text.strip()
        self._close_line()
        if prefix == "SAVE":
            self._command(f"SAVE {shlex.quote(text)}" if text else "SAVE", ending=True)
        elif prefix:
            self._command(f"{prefix} {text}")
        else:
            self._background("answer", text, ending=True)
        return False

    # The session

    def _ready(self, ending: bool = False) -> bool:
        """Whether the session can take a move or a command now (with `ending`, one that also
        works on a finished game: save, undo, a typed command); if not, says why (at its other
        questions, the line under the board asks them)."""
        if self.worker.busy or self.pending is not None:
            self._say(
                [
                    "THE MACHINE IS THINKING. u TAKES BACK YOUR MOVE, q LEAVES."
                    if self.session.machine_to_move
                    else "WORKING ON IT."
                ]
            )
            return False
        if self.session.stage is Stage.PLAY_AGAIN and not ending:
            self._say([GAME_OVER])
            return False
        return self.session.stage in (Stage.MOVE, Stage.PLAY_AGAIN)

    def _command(self, text: str, cancel: bool = False, ending: bool = False) -> None:
        """Send `text` to the session, as if typed at its question (with `cancel`, first
        stopping the machine's thinking; with `ending`, at a game's end too), and show what it
        says."""
        if cancel:
            self._cancel()
        if self._ready(ending):
            self._said(self.session.answer(text))

    def _background(self, method: str, *args: str, ending: bool = False) -> None:
        """Call the session's `method` in the worker, the screen going on meanwhile."""
        if not self._ready(ending):
            return
        self.worker.start(self.session, method, *args)
        self.began = time.monotonic()
        asyncio.get_running_loop().add_reader(self.worker.fileno(), self._finished)

    def _finished(self) -> None:
        asyncio.get_running_loop().remove_reader(self.worker.fileno())
        try:
            self.session, output = self.worker.result()
        except WorkerError as error:
            self.app.exit(exception=error)
            return
        self._said(output)

    def _cancel(self) -> None:
        """Stop the machine's thinking (and any pause before its next move)."""
        if self.pending is not None:
            self.pending.cancel()
            self.pending = None
        if self.worker.busy:
            asyncio.get_running_loop().remove_reader(self.worker.fileno())
            self.worker.stop()

    def _said(self, output: Output) -> None:
        """Show what the session said, then move the game on."""
        self._say(output)
        self.farewell = output
        self._advance()

    def _say(self, output: Output) -> None:
        """The session's words in the message area; a hint moves the cursor."""
        for item in output:
            if not isinstance(item, str) or item == AT_THE_END_WORDS:
                continue  # the board is always on the screen; the line under it says the keys
            self.messages.append(item)
            if isinstance(item, Verbatim) and item not in self.copies:
                self.copies.append(item)
                if len(item) >= self._board_width():
                    self.messages.append(COPY)
            if isinstance(item, Hint):
                self.cursor = item.cell
        del self.messages[:-KEPT]

    def _advance(self) -> None:
        """Answer the questions the screen answers itself, leave when the session is done,
        and start the machine when it is to move."""
        session = self.session
        while session.stage in (Stage.INSTRUCTIONS, Stage.MOVE_FIRST):
            self._say(session.answer("NO" if session.stage is Stage.INSTRUCTIONS else "YES"))
        if session.done:
            self.app.exit(result=0)
            return
        if session.machine_to_move and not self.worker.busy and self.pending is None:
            after_machine = (
                bool(session.board.moves)
                and session.board.mover(len(session.board.moves) - 1) in session.machines
            )
            delay = self.pause if after_machine else 0.0
            self.pending = asyncio.get_running_loop().call_later(delay, self._think)
        self.app.invalidate()

    def _think(self) -> None:
        self.pending = None
        self._background("machine_move")

    async def _tick(self) -> None:
        """The spinner turns and the clock runs; a person's time running out passes the
        turn."""
        while True:
            await asyncio.sleep(TICK)
            self.spin += 1
            left = self.clock.left(self.session)
            if left is not None and left <= 0 and not self.worker.busy:
                if self.asking is not None:
                    self._close_line()
                self._said(self.session.time_up())
            if self.worker.busy or left is not None:
                self.app.invalidate()

    def run(self) -> int:
        """Play until the player leaves; the exit status."""
        self._say([*self.session.start(), "PRESS ? FOR THE KEYS."])

        def started() -> None:
            # Told to stop, it puts the terminal back as it found it first.
            asyncio.get_running_loop().add_signal_handler(
                signal.SIGTERM, self._leave, 128 + signal.SIGTERM
            )
            self._advance()
            self.app.create_background_task(self._tick())

        try:
            return self.app.run(pre_run=started)
        finally:
            self.worker.stop()
