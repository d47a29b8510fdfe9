"""Level hard: forced wins by threats for itself, and a defence against the opponent's.

In order: win now; block a win; start a forced win by threats; if the opponent has one, play a
move after which it has none; among such safe moves, prefer one that sets up a forced win of
its own (the opponent must then find the answer), then the guide's heuristic score.
"""

from __future__ import annotations

import random

from qubic.core.board import Board, Mark
from qubic.players.base import Reply, new_seed, position_rng
from qubic.search.budget import clock
from qubic.search.defence import defend, forced_move
from qubic.search.exposure import SETUP_DEPTH, forcing_moves
from qubic.search.scoring import score_cells
from qubic.search.threats import (
    OutOfBudget,
    ThreatSearch,
    new_threats,
)

NODES = 150_000  # threat-search positions per move: about a second here, and reproducible
SECONDS = 1.8  # never more than this, whatever the nodes: a move answers within 2 s
SETUP_BONUS = 100.0  # a quiet move that leaves us a forced win if the opponent does nothing
SHORTLIST = 6  # quiet moves whose opponent's forcing replies are counted
FORCING_PENALTY = 20.0  # per forcing reply of the opponent's (`exposure.forcing_moves`)
# Until the board holds OPENING stones, quiet moves keep to the key cells (the geometry's cells
# on the most lines: on the 4x4x4 cube the corners and the eight centre cells, on 7 lines,
# the rest on 4). Measured, it turns a second player that loses a fifth of its games against
# normal into one that loses one in twenty.
OPENING = 12


class HardPlayer:
    """Threat-space search with a heuristic for quiet moves; reproducible by seed."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = new_seed(seed)

    def choose(self, board: Board, seconds: float | None = None) -> Reply:
        search = ThreatSearch(
            NODES if seconds is None else None,
            SECONDS if seconds is None else seconds,
            board.geometry,
        )
        return Reply(decide(board, search, self.seed))


def decide(board: Board, search: ThreatSearch, seed: int) -> int:
    """The hard level's move for the side to move (the board is not changed)."""
    return position_rng(seed, board).choice(choices(board, search))


def choices(board: Board, search: ThreatSearch) -> list[int]:
    """The moves hard might play here: the one the position calls for, or the equally good
    quiet moves its seed chooses among. When the budget runs out, each stage answers with
    the best it has found so far."""
    me, you = board.pair()
    scores = score_cells(board, board.turn)
    ranked = sorted(scores, key=lambda c: -scores[c])
    try:
        move, threat = forced_move(search, me, you)
    except OutOfBudget:
        return ranked[:1]
    if move is not None:
        return [move]
    if threat:
        return [defend(search, me, you, ranked, threat)]
    return quiet_choices(search, me, you, scores)


def playout(
    board: Board,
    search: ThreatSearch,
    seed: int,
    deadline: float | None = None,
    limit: int | None = None,
    per_move: int = NODES,
) -> Mark | None:
    """The winner when hard plays on for both sides, searching at most `per_move` positions a
    move (the board is not changed). `search` may bring what it learnt in earlier playouts;
    OutOfBudget when the clock passes `deadline` or its node count reaches `limit` before the
    game ends."""
    pushed = 0
    try:
        while not board.is_over():
            nodes = per_move if limit is None else min(per_move, limit - search.nodes)
            if nodes <= 0:
                raise OutOfBudget
            search.set_budget(nodes, None if deadline is None else deadline - clock())
            board.push(decide(board, search, seed))
            pushed += 1
            if deadline is not None and clock() > deadline:
                raise OutOfBudget
        return board.winner
    finally:
        for _ in range(pushed):
            board.pop()


def quiet_ranking(
    search: ThreatSearch, me: int, you: int, scores: dict[int, float], rng: random.Random
) -> list[int]:
    """Quiet moves, best first (see `quiet_values`); the best is chosen among equals by
    `rng`; when the budget runs out, the best found so far."""
    values, shortlist = quiet_values(search, me, you, scores)
    choice = rng.choice(best_of(values, shortlist))
    first = set(opening_cells(search, me, you, scores))
    others = sorted([c for c in scores if c != choice], key=lambda c: -values[c])
    return [choice] + [c for c in others if c in first] + [c for c in others if c not in first]


def quiet_choices(search: ThreatSearch, me: int, you: int, scores: dict[int, float]) -> list[int]:
    """Every quiet move `quiet_ranking` might put first, whatever its `rng`."""
    return best_of(*quiet_values(search, me, you, scores))


def best_of(values: dict[int, float], shortlist: list[int]) -> list[int]:
    """The cells of `shortlist` with the highest value, in shortlist order."""
    best = max(values[c] for c in shortlist)
    return [cell for cell in shortlist if values[cell] == best]


def opening_cells(search: ThreatSearch, me: int, you: int, scores: dict[int, float]) -> list[int]:
    """The cells quiet moves are chosen from: in the opening the key cells, else all."""
    key = search.geometry.key_cells
    if (me | you).bit_count() < OPENING and key & scores.keys():
        return [c for c in scores if c in key]
    return list(scores)


def quiet_values(
    search: ThreatSearch, me: int, you: int, scores: dict[int, float]
) -> tuple[dict[int, float], list[int]]:
    """Every empty cell's value as a quiet move, and the shortlist the best is chosen from.

    The value is the heuristic score, a bonus for setting up a forced win of our own, and,
    for the most promising few (the shortlist), a penalty for each forcing reply of the
    opponent's (`exposure.forcing_moves`). The penalty is only counted
    while it can change which cells are best. In the opening only key cells are valued. When
    the budget runs out, the shortlist is the best found so far."""

    def value(cell: int) -> float:
        mine = me | 1 << cell
        # A threat is answered at once, and the root search already saw what follows it.
        setup = (
            not new_threats(mine, you, cell, search.geometry)
            and search.forced_win(mine, you, SETUP_DEPTH, shortest=False) is not None
        )
        return scores[cell] + SETUP_BONUS * setup

    first = opening_cells(search, me, you, scores)
    values = dict(scores)
    try:
        for cell in first:
            values[cell] = value(cell)
        shortlist = sorted(first, key=lambda c: -values[c])[:SHORTLIST]
        best = None
        for cell in shortlist:
            if best is not None and values[cell] < best:
                break  # a penalty only lowers a value: none of the rest can reach the best
            values[cell] -= FORCING_PENALTY * forcing_moves(search, you, me | 1 << cell)
            best = values[cell] if best is None else max(best, values[cell])
    except OutOfBudget:
        shortlist = sorted(first, key=lambda c: -values[c])[:1]
    return values, shortlist
