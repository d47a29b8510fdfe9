"""Puzzles: positions where the side to move has a forced win by threats, and judging moves.

Puzzles are mined from seeded games between machine players at mixed levels: a position of
the game whose shortest forced win by threats is at least as long as asked is played forward
along that win (the attacker's threat and its forced block at a time) until exactly as long.
Long wins are rare in games, so when a game has none long enough its longest wins are
lengthened backwards instead: a stone of each side is taken back at a time, kept only when
the shortest win grows without passing the length asked. Every puzzle is checked: its
shortest win is exactly as long as asked, and a plausible move (a threat, or the heuristic's
favourite) does not win. Searches are bounded in positions, not time, so a seed always gives
the same puzzle.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from enum import Enum

from qubic.core.board import Board, Mark, iter_bits, winning_mask
from qubic.play.analysis import own_moves
from qubic.players.hard import decide
from qubic.players.levels import make_player
from qubic.search.defence import best_defence
from qubic.search.scoring import score_cells
from qubic.search.threats import (
    OutOfBudget,
    ThreatSearch,
    lowest,
    still_forces,
    threat_moves,
)

LENGTHS = range(1, 13)  # the puzzle lengths one can ask for, in own moves
MIXED = (2, 2, 3, 3, 3, 4, 4, 5, 5, 6, 7, 8)  # the lengths a sitting draws from by default
LEVEL_MIX = ("easy", "normal", "normal", "hard")  # the levels of the games puzzles come from
HARD_NODES = 20_000  # hard's threat-search positions a move in those games: quick, reproducible
GAME_NODES = 300_000  # threat-search positions spent on one game's positions before the next
SIDES = (Mark.X, Mark.O)  # puzzles are QUBIC: two sides
LENGTHENED = 4  # a game's positions whose win is lengthened, longest first, before the next


@dataclass(frozen=True)
class Puzzle:
    """The moves from the empty cube (X first) to the puzzle's position, and its solution:
    the shortest forced win by threats for the side to move, attacker first."""

    moves: tuple[int, ...]
    solution: tuple[int, ...]

    def board(self) -> Board:
        return Board.from_moves(self.moves)

    @property
    def length(self) -> int:
        """The solution's length in the attacker's own moves."""
        return own_moves(self.solution)


def daily_seed(day: date) -> int:
    """The seed of the day's puzzle, the same for everyone: 20260314 for 14 March 2026."""
    return int(day.strftime("%Y%m%d"))


def sitting_puzzle(seed: int, number: int, length: int | None = None) -> Puzzle:
    """Puzzle `number` (from 1) of a sitting seeded `seed`: `length` own moves long, or when
    None a length drawn from MIXED."""
    rng = random.Random(f"{seed}:{number}")
    return generate(rng, length if length is not None else rng.choice(MIXED))


def generate(rng: random.Random, length: int) -> Puzzle:
    """A checked puzzle of `length` own moves, mined from games `rng` seeds."""
    if length not in LENGTHS:
        raise ValueError(f"a puzzle is {LENGTHS[0]} to {LENGTHS[-1]} moves long, not {length}")
    search = ThreatSearch()
    while True:
        moves = machine_game(rng)
        search.set_budget(GAME_NODES)
        try:
            puzzle = _from_game(moves, length, search, rng)
        except OutOfBudget:
            continue
        if puzzle is not None:
            return puzzle


def machine_game(rng: random.Random) -> list[int]:
    """The moves of a whole game between two seeded machine players at levels from LEVEL_MIX
    (hard searching at most HARD_NODES positions a move)."""
    movers = [_mover(rng.choice(LEVEL_MIX), rng.randrange(2**32)) for _ in SIDES]
    board = Board()
    while not board.is_over():
        board.push(movers[board.turn](board))
    return board.moves


def _mover(level: str, seed: int) -> Callable[[Board], int]:
    if level == "hard":
        return lambda board: decide(board, ThreatSearch(HARD_NODES), seed)
    player = make_player(level, seed)
    return lambda board: player.choose(board).cell


def _from_game(
    moves: list[int], length: int, search: ThreatSearch, rng: random.Random
) -> Puzzle | None:
    """The first position of the game with a forced win at least `length` long, played
    forward to exactly that; else its longest wins, lengthened backwards; None if neither
    passes the check. Raises OutOfBudget."""
    wins: list[tuple[list[int], Board]] = []  # the shorter forced wins, and their positions
    board = Board()
    for cell in moves:
        me, you = board.pair()
        line = None
        if not winning_mask(me, you) and search.forced_win(me, you, shortest=False):
            line = search.forced_win(me, you)
        if line is not None:
            found = own_moves(line)
            if found >= length:
                played = board.moves + line[: 2 * (found - length)]
                puzzle = check(Board.from_moves(played), length, search)
                if puzzle is not None:
                    return puzzle
            else:
                wins.append((line, board.copy()))
        board.push(cell)
    for line, start in sorted(wins, key=lambda win: -len(win[0]))[:LENGTHENED]:
        lengthened = _lengthen(start, line, length, search, rng)
        puzzle = None if lengthened is None else check(lengthened, length, search)
        if puzzle is not None:
            return puzzle
    return None


def _lengthen(
    board: Board, line: list[int], length: int, search: ThreatSearch, rng: random.Random
) -> Board | None:
    """`board`, whose shortest forced win is `line`, with a stone of each side taken back at
    a time, in an order `rng` shuffles, until that win is `length` own moves; None when no
    taking back lengthens it without overshooting."""
    while own_moves(line) < length:
        me, you = board.pair()
        pairs = [(a, b) for a in iter_bits(me) for b in iter_bits(you)]
        rng.shuffle(pairs)
        for a, b in pairs:
            fewer, theirs = me & ~(1 << a), you & ~(1 << b)
            if (
                still_forces(line, fewer, theirs)
                or search.forced_win(fewer, theirs, length, shortest=False) is None
            ):
                continue  # the win is no longer than it was, or longer than asked
            longer = search.forced_win(fewer, theirs, length)
            if longer is not None and own_moves(line) < own_moves(longer):
                board, line = _without(board, a, b), longer
                break
        else:
            return None
    return board


def _without(board: Board, *cells: int) -> Board:
    """The position of `board` with `cells` taken off, each side's stones in their order."""
    xs, os_ = (
        [c for c in board.moves if board.bits[mark] >> c & 1 and c not in cells] for mark in SIDES
    )
    return Board.from_moves([c for pair in zip(xs, os_) for c in pair] + xs[len(os_) :])


def check(board: Board, length: int, search: ThreatSearch) -> Puzzle | None:
    """The puzzle at `board` if it is a fair one: no win at once, the shortest forced win by
    threats exactly `length` own moves, and some plausible move (a threat, or the heuristic's
    favourite) that does not win."""
    me, you = board.pair()
    if board.is_over() or winning_mask(me, you):
        return None
    line = search.forced_win(me, you)
    if line is None or own_moves(line) != length:
        return None
    scores = score_cells(board, board.turn)
    favourite = max(scores, key=scores.__getitem__)
    plausible = sorted(set(iter_bits(threat_moves(me, you))) | {favourite})
    if all(judge(board, cell, search).outcome in WINNING for cell in plausible):
        return None
    return Puzzle(tuple(board.moves), tuple(line))


class Effect(Enum):
    """What a move of the attacker's does to its forced win."""

    SOLVED = "solved"  # four in a line, or two threats the defender cannot both stop
    GOES_ON = "goes on"  # a forced win remains after the defender's best reply
    LOSES = "loses"  # it leaves the defender a win at once
    BLOCKED = "blocked"  # a threat whose forced block leaves no forced win
    ANSWERED = "answered"  # a quiet move the defender answers, leaving no forced win


WINNING = (Effect.SOLVED, Effect.GOES_ON)


@dataclass(frozen=True)
class Judgement:
    """A move's outcome and the defender's reply (none when SOLVED)."""

    outcome: Effect
    reply: int | None = None


def judge(board: Board, cell: int, search: ThreatSearch) -> Judgement:
    """What the side to move playing `cell` (legal) does to its forced win, against the best
    defence: after a threat the block is forced; after a quiet move the defender plays
    `defence.best_defence`, ranked by score: the best-scored reply that stops the forced win
    (a three that only delays it is no answer) if one exists, else the one after which the
    win takes the most own moves. Raises OutOfBudget."""
    me, you = board.pair()
    bit = 1 << cell
    mine = me | bit
    made = winning_mask(mine, you)
    theirs = winning_mask(you, mine)
    if winning_mask(me, you) & bit or (made & (made - 1) and not theirs):
        return Judgement(Effect.SOLVED)
    if theirs:
        return Judgement(Effect.LOSES, lowest(theirs))
    if made:
        block = lowest(made)
        if search.forced_win(mine, you | 1 << block, shortest=False) is None:
            return Judgement(Effect.BLOCKED, block)
        return Judgement(Effect.GOES_ON, block)
    scores = score_cells(board, board.turn.other)
    ranked = [c for c in sorted(scores, key=lambda c: -scores[c]) if c != cell]
    replies = [c for c in scores if c != cell]

    def longest(defender: int, attacker: int) -> int:  # the reply the win takes longest after
        return max(
            replies, key=lambda c: own_moves(search.forced_win(attacker, defender | 1 << c) or ())
        )

    reply, stops = best_defence(search, you, mine, ranked, search.forced_win(mine, you), longest)
    return Judgement(Effect.ANSWERED if stops else Effect.GOES_ON, reply)
