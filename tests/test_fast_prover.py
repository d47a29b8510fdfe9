"""The compiled prover (numba, the solver extra) against the Python one it must agree with."""

import io
import random
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

pytest.importorskip("numba")

from qubic.core.board import Board, winning_mask
from qubic.core.geometry import CUBE
from qubic.core.notation import parse_moves
from qubic.core.symmetry import stabilizer
from qubic.proof.book import write_book
from qubic.proof.checkpoint import Checkpoint
from qubic.proof.fast_prover import RF_USED, T_NODES, TT_USED, USED_LOG, FastProver
from qubic.proof.solve import Solver
from qubic.proof.unit import last_budget
from qubic.proof.walk import walk
from qubic.search import strategy
from qubic.search.prover import DISPROVED, PROVED, Prover
from tests.positions import COUNTERED, QUIET_WIN, bits

# In a fresh process: the compiled prover's and setup search's answers, then how many
# functions it compiled (none when numba's cache held them all).
SEARCHES = """
import sys
from numba.core.dispatcher import Dispatcher
from qubic.core.board import Board
from qubic.core.notation import parse_moves
from qubic.proof import fast_prover as f
x, o = Board.from_moves(parse_moves(sys.argv[1])).bits
setups = f.FastSetupSearch(f.FastThreatSearch(2_000_000, pure=True), True, free_blocks=True)
print(f.FastProver(tt_bits=16).prove(x, o, 5_000).status, setups.forced_win(x, o, 1))
compiled = [v for v in vars(f).values() if isinstance(v, Dispatcher)]
print(sum(sum(v.stats.cache_misses.values()) for v in compiled))
"""


@pytest.mark.slow  # a second or two, once the searches are in numba's cache
def test_a_second_process_loads_every_compiled_search_from_the_cache():
    command = [sys.executable, "-c", SEARCHES, "111 114 444 222 441"]
    first, second = (
        subprocess.run(command, capture_output=True, text=True, timeout=120) for _ in range(2)
    )
    assert first.returncode == 0 and second.returncode == 0, first.stderr + second.stderr
    answers = first.stdout.split("\n")[0]
    assert second.stdout.split("\n")[:2] == [answers, "0"]  # the same answers, nothing compiled
    assert answers.split()[1] != "None"  # the setup search, and its recursion, ran


@pytest.fixture(scope="module")
def fast() -> FastProver:
    """One prover for the module, its tables allocated once."""
    return FastProver(tt_bits=16)


@pytest.mark.slow
def test_it_searches_exactly_as_the_python_prover_does(fast):
    # Without symmetries to merge (the position has none), the two searches are the same
    # search: the same numbers after every budget.
    x, o = bits(QUIET_WIN)
    assert len(stabilizer(CUBE, x, o)) == 1
    for nodes in (1, 10, 20, 50, 100, 200, 500):
        expected = Prover().prove(x, o, nodes)
        got = FastProver(tt_bits=16).prove(x, o, nodes)
        assert (got.status, got.pn, got.dn, got.expanded) == (
            expected.status,
            expected.pn,
            expected.dn,
            expected.expanded,
        ), nodes
    assert got.status == PROVED


@pytest.mark.slow
@pytest.mark.parametrize("first_nodes", [300, 100_000])
def test_a_cleared_prover_answers_as_a_new_one(first_nodes):
    # Its clear empties the slots it remembers filling, or the whole tables past what it
    # remembers: 300 expansions stay within that, 100,000 go past it in both tables.
    prover = FastProver()
    prover.prove(*bits("111 112"), first_nodes)
    used = prover.tables.stats[[TT_USED, RF_USED]]
    assert all(used > USED_LOG) if first_nodes > 300 else all(used <= USED_LOG)
    for moves, nodes in (("111 112", 500), (QUIET_WIN, 50), (QUIET_WIN, 500)):
        prover.clear()
        new = FastProver()
        spent = [p.tables.stats[T_NODES] for p in (prover, new)]
        x, o = bits(moves)
        got, expected = prover.prove(x, o, nodes), new.prove(x, o, nodes)
        assert (got.status, got.pn, got.dn, got.expanded) == (
            expected.status,
            expected.pn,
            expected.dn,
            expected.expanded,
        )
        threat_nodes = [p.tables.stats[T_NODES] - s for p, s in zip((prover, new), spent)]
        assert threat_nodes[0] == threat_nodes[1]  # the threat search remembered nothing


@pytest.mark.slow
def test_its_quiet_moves_make_a_strategy_the_verifier_accepts(fast):
    x, o = bits(QUIET_WIN)
    assert fast.prove(x, o, 5_000).status == PROVED
    quiet = list(fast.strategy(x, o))
    assert quiet
    book = {}
    for px, po, cell in quiet:
        assert px.bit_count() == po.bit_count() and not (px | po) >> cell & 1
        assert not winning_mask(po, px)  # quiet: no block forced
        key, symmetry = CUBE.orient(px, po)
        book[key] = symmetry[cell]
    result = walk(parse_moves(QUIET_WIN), book)
    assert result.failures == [] and result.answered["book"] > 0


@pytest.mark.slow
def test_on_random_positions_its_verdicts_match_the_python_prover(fast):
    rng = random.Random(7)
    compared = settled = 0
    while compared < 40:
        cells = rng.sample(range(64), rng.randrange(8, 20))
        x = sum(1 << c for c in cells[0::2])
        o = sum(1 << c for c in cells[1::2])
        if any(m & x == m or m & o == m for m in CUBE.line_masks):
            continue
        if len(stabilizer(CUBE, x, o)) > 1:
            continue
        expected = Prover().prove(x, o, 300)
        got = FastProver(tt_bits=16).prove(x, o, 300)
        assert (got.status, got.pn, got.dn) == (expected.status, expected.pn, expected.dn)
        compared += 1
        settled += got.status in (PROVED, DISPROVED)
    assert settled >= 10  # the comparison covers settled verdicts, not only open numbers


@pytest.mark.slow
def test_the_solver_runs_its_units_with_the_fast_prover(tmp_path):
    path = tmp_path / "proof.txt.xz"
    start = bits(QUIET_WIN)
    with ThreadPoolExecutor(1) as executor:
        solver = Solver(Checkpoint(path), 40, io.StringIO(), start, prover="fast")
        assert solver.solve(executor, 1, None) is True
    checkpoint = Checkpoint(path)
    assert checkpoint.settled[CUBE.canonical(*start)] is True
    moves = parse_moves(QUIET_WIN)
    book_path = tmp_path / "strategy.txt"
    most = last_budget(40)  # as --book gives
    assert write_book(checkpoint, book_path, moves, "fast", most, io.StringIO()) == 0
    assert walk(moves, strategy.load(book_path)).failures == []


@pytest.mark.parametrize("pure", [False, True])
def test_its_threat_search_finds_the_python_searchs_lines_and_keeps_its_budget(pure: bool):
    from qubic.proof.fast_prover import FastThreatSearch
    from qubic.search.threats import OutOfBudget, PureThreatSearch, ThreatSearch

    python = PureThreatSearch if pure else ThreatSearch
    rng = random.Random(11)
    compared = found = 0
    while compared < 60:
        cells = rng.sample(range(64), 2 * rng.randrange(6, 14))
        me, you = sum(1 << c for c in cells[0::2]), sum(1 << c for c in cells[1::2])
        if winning_mask(you, me) or winning_mask(me, you):
            continue
        expected = python(10**7).forced_win(me, you, shortest=False)
        assert FastThreatSearch(10**7, pure=pure).forced_win(me, you, shortest=False) == expected
        compared += 1
        found += expected is not None
    assert found >= 10  # wins found, not only none
    search = FastThreatSearch(5, pure=pure)
    with pytest.raises(OutOfBudget):  # a search needing more positions than the budget
        for seed in range(200):
            rng = random.Random(seed)
            cells = rng.sample(range(64), 16)
            me, you = sum(1 << c for c in cells[0::2]), sum(1 << c for c in cells[1::2])
            if not winning_mask(me, you) and not winning_mask(you, me):
                search.forced_win(me, you, shortest=False)


def test_its_pure_searches_find_no_win_that_needs_o_to_make_threes():
    # Each search by itself and beside one of the other kind, in either order: the tables
    # they share or keep must not carry one rule into the other.
    from qubic.proof.fast_prover import FastThreatSearch, FreshThreatSearch

    me, you = Board.from_moves(COUNTERED).bits
    for _ in range(2):
        for pure in (True, False):
            for search in (FastThreatSearch(10**6, pure=pure), FreshThreatSearch(10**6, pure)):
                line = search.forced_win(me, you, shortest=False)
                assert (line is None) == pure


def test_its_fresh_threat_search_answers_as_a_new_python_search_does():
    # The strategy's question at the book's positions and after its moves, at a budget that
    # binds (the compiled search gives up and asks the Python one) and one that does not: the
    # same line, the same none, the same running out.
    from qubic.proof.fast_prover import ABORTED, FreshThreatSearch
    from qubic.search.threats import OutOfBudget, ThreatSearch

    def answer(search: ThreatSearch, me: int, you: int) -> object:
        try:
            return search.forced_win(me, you, shortest=False)
        except OutOfBudget:
            return "out of budget"

    outcomes: set[str] = set()
    handed_over = 0
    fresh = {nodes: FreshThreatSearch(nodes) for nodes in (30, 200_000)}
    for (x, o), cell in sorted(strategy.shipped().items())[::50]:
        for me, you in ((x, o), (x | 1 << cell, o)):
            if winning_mask(you, me) or winning_mask(me, you):
                continue
            for nodes, search in fresh.items():
                expected = answer(ThreatSearch(nodes), me, you)
                assert answer(search, me, you) == expected
                handed_over += bool(search.tables.stats[ABORTED])
                outcomes.add(expected if isinstance(expected, str) else type(expected).__name__)
    assert outcomes == {"list", "NoneType", "out of budget"}
    assert handed_over > 0


@pytest.mark.slow
def test_its_setup_search_answers_as_the_python_one_does():
    # At the book's positions, at a budget that binds and one that does not, in either order
    # (quiet setups first or not), with blocks as setups or free: the same move, the same
    # none, the same running out, a new search for each question.
    from qubic.proof.fast_prover import FastSetupSearch, FastThreatSearch
    from qubic.search.setups import SetupSearch
    from qubic.search.threats import OutOfBudget

    def answer(search: SetupSearch, x: int, o: int, nodes: int) -> object:
        search.threats.set_budget(nodes)
        try:
            return search.forced_win(x, o, 2)
        except OutOfBudget:
            return "out of budget"

    outcomes: set[str] = set()
    orders_differ = blocks_differ = False
    for (x, o), _ in sorted(strategy.shipped().items())[::300]:
        for nodes in (100_000, 2_000_000):
            answers = []
            for quiet_first, free_blocks in ((False, False), (True, False), (True, True)):
                python = SetupSearch(FastThreatSearch(nodes), quiet_first, free_blocks)
                expected = answer(python, x, o, nodes)
                fast = FastSetupSearch(FastThreatSearch(nodes), quiet_first, free_blocks)
                assert answer(fast, x, o, nodes) == expected
                outcomes.add(expected if isinstance(expected, str) else type(expected).__name__)
                answers.append(expected)
            orders_differ |= answers[0] != answers[1]
            blocks_differ |= answers[1] != answers[2]
    assert outcomes == {"int", "NoneType", "out of budget"}
    assert orders_differ
    assert blocks_differ


@pytest.mark.slow
def test_the_book_is_the_same_with_the_compiled_setup_search(tmp_path):
    # The setup search's threat searches compiled: the same book, byte for byte.
    from tests.test_solve import unprovable_root

    path, moves = unprovable_root(tmp_path)
    books = []
    for prover in ("python", "fast"):
        book_path = tmp_path / f"{prover}.txt"
        checkpoint = Checkpoint(path)
        assert write_book(checkpoint, book_path, moves, prover, 1_500, io.StringIO()) == 0
        books.append(book_path.read_bytes())
    assert books[0] == books[1]
