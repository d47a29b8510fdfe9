"""The perfect first players of benchmarks/perfect_x.py: each wins every sampled game; and the
post-mortem of a game O lost early."""

from __future__ import annotations

import pytest

from qubic.core.board import Board
from qubic.core.notation import format_cell, parse_cell, parse_moves
from qubic.proof.opening_build import read_games
from qubic.search import strategy
from tests.scripts import load_script

pytest.importorskip("numba")  # their prover is the compiled one (the `solver` extra)


p = load_script("benchmarks", "perfect_x")


@pytest.mark.slow
@pytest.mark.parametrize("x", ["seeded", "quickest", "fastest"])
@pytest.mark.parametrize("o", ["random", "easy"])
def test_each_perfect_x_wins_against_the_defenders(x: str, o: str) -> None:
    game = p.play(x, o, 5)
    assert game.winner == "X", game.moves
    board = Board.from_moves(game.moves)
    assert board.winner is not None and board.winner.name == "X"


# Perfect as O against the book's X: O's 423 at ply 10 stops X's forced win, then six X threes
# are blocked and X's quiet 322 leaves a forced win that nothing stops.
LOST = (
    "111 114 141 441 121 131 323 444 223 423 222 424 224 221 414 232 313 212 333 343 443 113 "
    "322 133 122 422 421 124 311 344 312 314 324 321 144 234 411 211 233"
)


def test_the_post_mortem_finds_os_last_free_move_before_the_decisive_quiet_move() -> None:
    moves = parse_moves(LOST)
    assert p.first_forced_win(moves) == 24
    said = p.decided(moves, 24)
    assert said.startswith(
        "X's quiet 322 at ply 23 decided it, 6 exchanges of threes after "
        "O's last free move, 423 at ply 10"
    ), said
    assert "after every move of O's but 224 334 442 443 (224 334 442 443: O's threes" in said


def test_the_record_of_os_games_reads_as_the_opening_build_reads_games(tmp_path) -> None:
    moves = parse_moves(LOST)
    games = [
        p.Game("book", "perfect", 3, moves, "X"),
        p.Game("seeded", "expert", 4, moves[:9], "draw"),
    ]
    path = tmp_path / "games.txt"
    p.record(games, str(path))
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0] == f"perfect perfect-book 3 X: {LOST}"
    assert lines[1].startswith("expert perfect-seeded 4 -: 111 114")
    assert read_games([path]) == [moves]  # the games O lost


def test_x_other_plays_the_strategy_book_it_is_given(tmp_path) -> None:
    # A book of one entry, X's first move: 114 where the shipped book plays 111.
    path = tmp_path / "strategy.txt"
    path.write_text(strategy.format_entries([((0, 0), parse_cell("114"))]), encoding="ascii")
    game = p.play("other", "random", 1, str(path))
    assert format_cell(game.moves[0]) == "114"
    shipped = p.play("other", "easy", 5, str(strategy.SHIPPED))
    assert shipped.winner == "X"
    assert shipped.moves == p.play("book", "easy", 5).moves


def test_x_other_needs_its_book() -> None:
    with pytest.raises(ValueError, match="--other"):
        p.make_x("other", 1)
