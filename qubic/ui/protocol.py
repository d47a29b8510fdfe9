"""The engine protocol: `qubic engine` reads commands on stdin and answers on stdout.

One command a line, in the spirit of chess's UCI; docs/protocol.md has the full protocol.
Keywords and level names ignore case. A bad command or an illegal position answers
`error <reason>`, changes nothing and the engine keeps running; so does a line that is not
UTF-8 or is longer than LINE_LIMIT bytes, which is read no further than that.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from typing import BinaryIO, TextIO

from qubic.core.board import Board, IllegalMoveError
from qubic.core.geometry import Geometry
from qubic.core.inputs import NumberError, whole
from qubic.core.notation import NotationError, format_cell, parse_cell
from qubic.core.variant import QUBIC, VariantError, parse_spec
from qubic.play.analysis import Unanswered, Verdict, analyze
from qubic.play.rating import RATING_LIMIT, typed_rating
from qubic.play.text import quoted
from qubic.players.base import Player
from qubic.players.ladder import nearest
from qubic.players.levels import DEFAULT_LEVEL, LEVELS, make_player
from qubic.ui.shared import INTERRUPTED

LINE_LIMIT = 65_536  # bytes in a command line, its newline included: a longer one is refused
MOVETIME_LIMIT = 86_400_000  # ms, a day: go movetime's largest

GO_OPTIONS = {"level": "NAME", "elo": "RATING", "movetime": "MS"}  # go's options and values
# What `help` lists: (how to type it, what it answers).
COMMANDS = [
    ("isready", "readyok"),
    ("variant [NAME] [size N] [dims D] [target K] [sides N] [no-centre]", "choose a variant"),
    ("position startpos [moves MOVE ...]", "set the position"),
    ("go [level NAME | elo RATING] [movetime MS]", "bestmove MOVE for the side to move"),
    ("newgame", "back to the empty board"),
    ("analyze", "analysis win|defend|lost|quiet MOVE ... [delays MOVE ...]"),
    ("help", "this list"),
    ("quit", "leave"),
]


class ProtocolError(ValueError):
    """A command the engine cannot carry out; the message is the reason."""


class Engine:
    """The protocol's state: the variant, the position, and a player per level asked so far."""

    def __init__(self, level: str = DEFAULT_LEVEL, seed: int | None = None) -> None:
        self.level = level
        self.seed = seed
        self.variant = QUBIC
        self.board = Board(self.variant)
        self.players: dict[str, Player] = {}
        self.handlers: dict[str, Callable[[list[str]], list[str]]] = {
            "isready": self._isready,
            "variant": self._variant,
            "position": self._position,
            "go": self._go,
            "newgame": self._newgame,
            "analyze": self._analyze,
            "help": self._help,
        }

    def handle(self, line: str) -> list[str]:
        """The answer lines to one command line (none for an empty line)."""
        words = line.split()
        if not words:
            return []
        handler = self.handlers.get(words[0].lower())
        try:
            if handler is None:
                raise ProtocolError(f"unknown command {quoted(words[0])}")
            return handler(words[1:])
        except ProtocolError as error:
            return [f"error {error}"]

    def _help(self, args: list[str]) -> list[str]:
        """`help`: one line per command, `help` first word of each; docs/protocol.md has more."""
        return [f"help {usage}: {meaning}" for usage, meaning in COMMANDS]

    def _isready(self, args: list[str]) -> list[str]:
        return ["readyok"]

    def _newgame(self, args: list[str]) -> list[str]:
        self.board = Board(self.variant)
        return []

    def _variant(self, args: list[str]) -> list[str]:
        """`variant NAME [size N] ...` selects a variant and resets; `variant` alone names it."""
        if args:
            try:
                self.variant = parse_spec(args)
            except VariantError as error:
                raise ProtocolError(str(error)) from None
            self.board = Board(self.variant)
            return []
        return [f"variant {self.variant.spec}"]

    def _position(self, args: list[str]) -> list[str]:
        if not args or args[0].lower() != "startpos":
            raise ProtocolError("expected: position startpos [moves M1 M2 ...]")
        if len(args) > 1 and args[1].lower() != "moves":
            raise ProtocolError(f"expected 'moves' after startpos, not {quoted(args[1])}")
        board = Board(self.variant)
        for number, text in enumerate(args[2:], start=1):
            try:
                board.push(parse_cell(text, board.geometry))
            except NotationError as error:
                raise ProtocolError(f"move {number} {quoted(text)}: {error}") from None
            except IllegalMoveError:
                reason = "the game is already over" if board.is_over() else "that square is taken"
                raise ProtocolError(f"move {number} {quoted(text)}: {reason}") from None
        self.board = board
        return []

    def _go(self, args: list[str]) -> list[str]:
        level, seconds, chosen = self.level, None, False
        options = iter(args)
        takes = ", ".join(f"{option} {value}" for option, value in GO_OPTIONS.items())
        for word in options:
            option = word.lower()
            if option not in GO_OPTIONS:
                raise ProtocolError(f"unknown go option {quoted(word)}; go takes {takes}")
            value = next(options, None)
            if value is None:
                raise ProtocolError(f"go {option} needs a value: go {option} {GO_OPTIONS[option]}")
            if option in ("level", "elo") and chosen:
                raise ProtocolError("go takes level NAME or elo RATING, not both")
            chosen = chosen or option in ("level", "elo")
            if option == "level":
                level = value.lower()
                if level not in LEVELS:
                    raise ProtocolError(
                        f"unknown level {quoted(value)}; levels: {' '.join(LEVELS)}"
                    )
            elif option == "elo":
                rating = typed_rating(value)
                if rating is None:
                    raise ProtocolError(
                        f"elo takes a whole number from -{RATING_LIMIT} to {RATING_LIMIT}, "
                        f"not {quoted(value)}"
                    )
                level = nearest(rating).name
            else:
                try:
                    seconds = whole(value, 1, MOVETIME_LIMIT) / 1000
                except NumberError as error:
                    raise ProtocolError(
                        f"movetime must be a positive whole number of ms: {error}"
                    ) from None
        if self.board.is_over():
            raise ProtocolError("the game is over")
        refusal = LEVELS[level].refusal(self.variant)
        if refusal is not None:
            raise ProtocolError(refusal)
        if level not in self.players:
            self.players[level] = make_player(level, self.seed)
        reply = self.players[level].choose(self.board.copy(), seconds)
        return [f"bestmove {format_cell(reply.cell, self.board.geometry)}"]

    def _analyze(self, args: list[str]) -> list[str]:
        if args:
            raise ProtocolError("analyze takes nothing after it")
        try:
            analysis = analyze(self.board)
        except Unanswered as error:
            raise ProtocolError(str(error)) from None
        cells = analysis.stops if analysis.verdict is Verdict.DEFEND else analysis.line
        words = ["analysis", analysis.verdict.value, *cells_of(cells, self.board.geometry)]
        if analysis.delays:
            words += ["delays", *cells_of(analysis.delays, self.board.geometry)]
        return [" ".join(words)]


def run(
    level: str = DEFAULT_LEVEL,
    seed: int | None = None,
    stdin: BinaryIO | None = None,
    stdout: TextIO | None = None,
) -> int:
    """Answer commands (bytes from `stdin`, standard input's by default) until `quit` or end of
    input; the exit status: 0, or 130 after Ctrl-C."""
    source = sys.stdin.buffer if stdin is None else stdin
    out = sys.stdout if stdout is None else stdout
    engine = Engine(level, seed)
    try:
        for line in lines(source):
            if isinstance(line, ProtocolError):
                answers = [f"error {line}"]
            elif line.lower().split()[:1] == ["quit"]:
                break
            else:
                answers = engine.handle(line)
            for answer in answers:
                out.write(answer + "\n")
            out.flush()
    except KeyboardInterrupt:
        return INTERRUPTED
    return 0


def lines(source: BinaryIO) -> Iterator[str | ProtocolError]:
    """The command lines in `source`, each as text, or a ProtocolError for one longer than
    LINE_LIMIT bytes (the rest of it skipped unread) or not UTF-8."""
    while raw := source.readline(LINE_LIMIT):
        if not raw.endswith(b"\n") and len(raw) == LINE_LIMIT:
            while (rest := source.readline(LINE_LIMIT)) and not rest.endswith(b"\n"):
                pass
            yield ProtocolError(f"a line is at most {LINE_LIMIT} bytes: this one was skipped")
            continue
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError:
            yield ProtocolError("a line must be UTF-8 text: this one was skipped")


def cells_of(cells: tuple[int, ...], geometry: Geometry) -> list[str]:
    return [format_cell(cell, geometry) for cell in cells]
