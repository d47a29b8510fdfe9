"""Level expert: hard, plus proofs over quiet moves, playouts, and an opening book.

A quiet move that would leave us a forced win by threats if the opponent did nothing is a
*setup*: the opponent must spend its move refuting it. Expert proves wins made of setups and
threats, trying every refutation (an AND/OR search, deepened one setup at a time inside the
budget, with a table of refuted positions). With no such win, it ranks its candidate moves the
way hard does, drops those after which the opponent has such a win of its own, and plays out
the rest (hard for both sides, in the manner of Tesauro and Galperin's rollouts): the move
whose playouts score best is played. Moving second on the 4x4x4 cube, where the first player
wins, it plays the best of its candidates that the prover does not show lost
(`vetting.least_lost`). The first moves come from the opening book.
"""

from __future__ import annotations

import contextlib
import sys
from dataclasses import dataclass

from qubic.core.board import Board
from qubic.core.geometry import CUBE
from qubic.core.symmetry import distinct, stabilizer
from qubic.players import hard
from qubic.players.base import Reply, new_seed, position_rng
from qubic.players.hard import quiet_ranking
from qubic.players.opening import book_move
from qubic.search.budget import clock
from qubic.search.defence import Longest, forced_move, resisting, stopping
from qubic.search.exposure import Exposure, count_setups, exposure, forcing_moves
from qubic.search.scoring import score_cells
from qubic.search.setups import MAX_SETUPS, SetupSearch
from qubic.search.threats import (
    OutOfBudget,
    ThreatSearch,
)
from qubic.search.vetting import least_lost

SECONDS = 4.5  # a move never takes longer, whatever the counts: a safety net only
PROOF_SHARE = 0.5  # of that time, at most this much for the proofs
ATTACK_SHARE = 0.4  # of the proofs' budget, at most this much looking for our own setup wins
DEEP_CHECKS = 3  # moves checked for the opponent's wins with two setups
DEEP_NODES = 50_000  # threat-search positions for each such check
PLAYOUT_CANDIDATES = 8  # moves that survive the proofs and are then played out
PLAYOUTS = 8  # playouts at most for one candidate
PLAYOUTS_PER_ROUND = 2  # playouts per candidate before the weaker half is dropped
# Threat-search positions for each move of a playout: hard's own budget made its playouts so
# long that in the opening not even the first round finished within the playouts' budget.
PLAYOUT_MOVE_NODES = 2000
SECOND_ATTACK_NODES = 60_000  # moving second, at most this much looking for our own setup wins
# Threat-search positions for a whole move moving second on the cube: the prover's vetting
# gets what the rest of the move left. Without this total the slowest moves of the ladder's
# run here took 2.3 s.
SECOND_POSITIONS = 800_000
# Moving second, the cap is lower: by their counts alone, the slowest moves of the ladder's
# run take 1.4 to 1.65 s here, replayed one at a time.
SECOND_SECONDS = 1.8


@dataclass(frozen=True)
class Vetting:
    """How the prover vets the second player's best moves on the cube."""

    exposed: int  # quiet moves, hard's best, whose exposure is measured
    candidates: int  # of the least exposed, those the prover looks at
    expansions: int  # df-pn expansions for all of them


@dataclass(frozen=True)
class Effort:
    """How long a move is thought about, in threat-search positions (and the prover's
    expansions): the level's own, or less for the ladder's steps below it."""

    nodes: int = 150_000  # moving first, for the proofs
    setups: int = MAX_SETUPS  # setups in the wins it proves, moving first
    playout_nodes: int = 300_000  # moving first, for all playouts
    second_nodes: int = 250_000  # moving second, for the threat searches
    exposure_nodes: int = 400_000  # then this many more to measure the candidates' exposure
    second_playout_nodes: int = 150_000  # then at most this many to play the least exposed out
    vet: Vetting = Vetting(16, 3, 2_000)


EXPERT = Effort()


class ExpertPlayer:
    """Hard's play plus setup wins, setup defence, playouts and the opening book moving first;
    moving second, the least exposed of the moves that stop the first player, vetted by the
    prover on the cube. Reproducible by seed: its budgets are counts of positions."""

    def __init__(self, seed: int | None = None, effort: Effort = EXPERT) -> None:
        self.seed = new_seed(seed)
        self.effort = effort
        book_move(Board())  # reads the opening book now, not in the first move's time

    def choose(self, board: Board, seconds: float | None = None) -> Reply:
        effort = self.effort
        if board.turn is not board.first:
            cap = SECOND_SECONDS if seconds is None else seconds
            nodes = effort.second_nodes if seconds is None else None
            search = ThreatSearch(nodes, cap, board.geometry)
            return Reply(second_move(board, search, self.seed, effort))
        limit = SECONDS if seconds is None else seconds
        deadline = clock() + limit
        nodes = effort.nodes if seconds is None else None
        threats = ThreatSearch(nodes, limit * PROOF_SHARE, board.geometry)
        share: Share = (nodes and int(nodes * ATTACK_SHARE), limit * PROOF_SHARE * ATTACK_SHARE)
        return Reply(decide(board, threats, share, self.seed, deadline, effort))


Share = tuple[int | None, float | None]  # nodes and seconds for a setup search


def decide(
    board: Board,
    threats: ThreatSearch,
    share: Share,
    seed: int,
    deadline: float,
    effort: Effort = EXPERT,
) -> int:
    """The expert level's move for the first player (the board is not changed); `share` is
    the part of the budget our own setup search may use, `deadline` when the move is due."""
    setups = SetupSearch(threats)
    move, choices, _ = called_for(board, threats, setups, share, seed, None, effort.setups)
    if move is not None:
        return move
    me, you = board.pair()
    candidates = shortlist(setups, me, you, choices)
    ranking = rank_by_playouts(board, threats, candidates, seed, deadline, effort.playout_nodes)
    return ranking[0]


def called_for(
    board: Board,
    threats: ThreatSearch,
    setups: SetupSearch,
    share: Share,
    seed: int,
    longest: Longest | None = None,
    most_setups: int = MAX_SETUPS,
) -> tuple[int | None, list[int], bool]:
    """What the position calls for, either side moving: the opening book's move, a win, a
    block, a forced win by threats, the move that holds the opponent's forced win off longest
    when none stops it (by `longest`, if given and it knows, else `defence.resisting`), or a
    win built from setups (`share` of the budget) as the move; else no move and the moves to
    choose among: those that stop the opponent's forced win (with True), or hard's quiet
    moves, best first. Out of budget, the heuristic's best move."""
    move = book_move(board)
    if move is not None:
        return move, [], False
    me, you = board.pair()
    scores = score_cells(board, board.turn)
    ranked = sorted(scores, key=lambda c: -scores[c])
    try:
        move, threat = forced_move(threats, me, you)
        if move is not None:
            return move, [], False
        if threat:
            stops, others = stopping(threats, me, you, ranked, threat)
            if stops:
                return None, stops, True
            return resisting(threats, me, you, ranked, others, longest), [], True
        with contextlib.suppress(OutOfBudget):
            move = setups.forced_win(me, you, most_setups, *share)
            if move is not None:
                return move, [], False
        return None, quiet_ranking(threats, me, you, scores, position_rng(seed, board)), False
    except OutOfBudget:
        return ranked[0], [], False


def second_move(
    board: Board,
    threats: ThreatSearch,
    seed: int,
    effort: Effort = EXPERT,
    longest: Longest | None = None,
) -> int:
    """The second player's move: the opening book's, where it holds the position; else what
    the position calls for; else, among the moves that stop the first player's forced win (or,
    with none, hard's quiet moves), the least exposed (`qubic.search.exposure`), which holds
    against any style of first player, the best by playouts where several are as little
    exposed; on the cube, the first of the best `vet.candidates` that the prover does not
    show lost within `vet.expansions` in all (`vetting.least_lost`), `effort`'s, and within
    what the move left of SECOND_POSITIONS. Budgets are counts.
    `longest`: as for `called_for`."""
    start = threats.nodes
    setups = SetupSearch(threats)
    share = (SECOND_ATTACK_NODES, None)
    move, choices, defending = called_for(board, threats, setups, share, seed, longest)
    if move is not None:
        return move
    vet = effort.vet
    if not defending:
        choices = choices[: vet.exposed]
    if len(choices) == 1:  # the only stop: measuring it would change nothing
        return choices[0]
    me, you = board.pair()
    threats.set_budget(effort.exposure_nodes, threats.budget.seconds_left())
    ranking = by_exposure(threats, me, you, choices)
    if board.geometry is not CUBE or ranking[0][1] is None:
        return ranking[0][0]
    # The prover only weighs moves as little exposed as the best: one with more lost replies
    # is plainly worse, though the prover, trying X's few best moves, may not show it lost.
    fewest = ranking[0][1].lost
    best = [cell for cell, found in ranking if found is not None and found.lost == fewest]
    if len(best) > 1:  # as little exposed, the playouts (hard for both sides) decide
        left = threats.budget.seconds_left()
        deadline = clock() + (SECOND_SECONDS if left is None else left)
        best = rank_by_playouts(
            board, threats, best[:PLAYOUT_CANDIDATES], seed, deadline, effort.second_playout_nodes
        )
    left = SECOND_POSITIONS - (threats.nodes - start)
    return least_lost(you, me, best[: vet.candidates], vet.expansions, threats.budget, left)


def by_exposure(
    threats: ThreatSearch, me: int, you: int, choices: list[int]
) -> list[tuple[int, Exposure | None]]:
    """`choices` (best first) ranked by `Exposure`, the least exposed first, each with its
    measure; among the least exposed, those leaving us more forcing moves first; else earlier
    choices first. A move that a symmetry of the position maps an earlier choice onto is left
    out: it measures the same. When the budget runs out, those not measured follow in their
    order (with None)."""
    choices = distinct(choices, stabilizer(threats.geometry, me, you))
    measured: dict[int, Exposure] = {}
    bound: Exposure | None = None
    # The moves that leave the fewest setups are measured first: they tend to leave the fewest
    # lost replies too, and a low bound soon cuts the measuring of the rest short.
    cheap: dict[int, int] = {}
    with contextlib.suppress(OutOfBudget):
        for cell in choices:
            cheap[cell] = count_setups(threats, me, you, cell)
    with contextlib.suppress(OutOfBudget):
        for cell in sorted(choices, key=lambda c: cheap.get(c, sys.maxsize)):
            found = exposure(threats, me, you, cell, bound)
            if found is not None:
                measured[cell] = found
                bound = found if bound is None else min(bound, found)
    best = [cell for cell in measured if measured[cell] == bound]
    score: dict[int, int] = {}
    if len(best) > 1:
        with contextlib.suppress(OutOfBudget):
            for cell in best:
                score[cell] = forcing_moves(threats, me | 1 << cell, you, True)
    order = {cell: rank for rank, cell in enumerate(choices)}
    ranked = sorted(measured, key=lambda c: (measured[c], -score.get(c, -1), order[c]))
    return [(cell, measured[cell]) for cell in ranked] + [
        (cell, None) for cell in choices if cell not in measured
    ]


def shortlist(setups: SetupSearch, me: int, you: int, candidates: list[int]) -> list[int]:
    """Up to PLAYOUT_CANDIDATES of `candidates` (best first) after which the opponent has no
    forced win with one setup, less those of the first few that lose to two setups (unless
    that leaves none); the first candidate if none is safe. Unfinished searches count as wins."""
    safe: list[int] = []
    with contextlib.suppress(OutOfBudget):
        for cell in candidates:
            if setups.forced_win(you, me | 1 << cell, 1) is None:
                safe.append(cell)
                if len(safe) == PLAYOUT_CANDIDATES:
                    break
    if not safe:
        return candidates[:1]
    lost = set()
    for cell in safe[:DEEP_CHECKS]:
        try:
            if setups.forced_win(you, me | 1 << cell, 2, DEEP_NODES) is not None:
                lost.add(cell)
        except OutOfBudget:
            lost.add(cell)
    return [cell for cell in safe if cell not in lost] or safe


def rank_by_playouts(
    board: Board,
    threats: ThreatSearch,
    candidates: list[int],
    seed: int,
    deadline: float,
    nodes: int,
) -> list[int]:
    """The candidates, best first, by how their playouts (the game played out by hard for
    both sides) score for the side to move: a win 1, a draw 0, a loss -1; earlier candidates
    win ties, and those dropped in a later round rank above those dropped earlier.

    Symmetric candidates are played out apart: hard breaks ties by cell order, so it need not
    answer two images of a position alike. Successive halving: each round plays every
    remaining candidate out a few more times with fresh seeds, then keeps the better half.
    No round starts that would take the playouts past `nodes` at the rate so far (early
    in the game, when playouts are long, there are fewer rounds), and a round that overruns
    it anyway, or the time safety net, is abandoned: the ranking after the last whole round
    stands."""
    mark = board.turn
    remaining = list(candidates)
    dropped: list[int] = []
    totals = dict.fromkeys(remaining, 0)
    played = done = 0  # playouts per remaining candidate, and in all
    start = threats.nodes
    while len(remaining) > 1 and played < PLAYOUTS:
        spent = threats.nodes - start
        if done and spent + spent / done * len(remaining) * PLAYOUTS_PER_ROUND > nodes:
            break
        for cell in remaining:
            board.push(cell)
            try:
                for _ in range(PLAYOUTS_PER_ROUND):
                    winner = hard.playout(
                        board, threats, seed + played, deadline, start + nodes, PLAYOUT_MOVE_NODES
                    )
                    totals[cell] += 0 if winner is None else 1 if winner is mark else -1
                    done += 1
            except OutOfBudget:
                return remaining + dropped  # the ranking after the last whole round
            finally:
                board.pop()
        played += PLAYOUTS_PER_ROUND
        remaining.sort(key=lambda c: -totals[c])  # stable: earlier candidates win ties
        keep = max(1, len(remaining) // 2)
        remaining, dropped = remaining[:keep], remaining[keep:] + dropped
    return remaining + dropped
