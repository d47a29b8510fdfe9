"""Building the opening book (`python -m qubic.proof opening`): answering, with the stronger
search offline, the positions where the gauntlet beat the second player.

The book is `--out`'s: the build starts from the entries that file holds (none if it does not
exist yet) and keeps them. The build reads the gauntlet's games (`--games FILE`, written by
`benchmarks/gauntlet.py --record` or `benchmarks/perfect_x.py --record`) and, for every game O
lost, answers each position of SHALLOW to `--deepest` stones that O met there while its moves
followed the book and that the book lacks (one O must answer at once, a win or a block, is left
to the game). The answer is the reply that leaves X furthest from a forced win: first the reply
after which X's forced win needs the most setups (quiet moves that threaten one,
`qubic.search.setups`, counted to SETUPS within SETUP_NODES positions), then the reply whose
loss is hardest to show: every kind of reply is handed to the compiled prover (df-pn,
`fast_prover`) for a fixed number of expansions; the replies it cannot show lost are the
hardest, then those whose proofs took the most expansions. Near the start (fewer than TWO_PLY
stones) the replies not shown lost are told apart two plies deep, fewest first: X's replies
after which the prover shows every answer of O's lost within the same budget, a win X finds
within the bound. A position where X wins with SETUPS setups or fewer after every reply is left
to the game's search: the count no longer tells the replies apart. None of this assumes how the
first player plays: the second player is lost against perfect play, and a loss that needs many
quiet moves, or that a strong search finds only late, is one that a weaker first player misses
and a perfect one takes long to win. The same inputs give the same book, byte for byte.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from qubic.core import files
from qubic.core.board import Board, winning_mask
from qubic.core.geometry import CUBE
from qubic.core.notation import format_cell, parse_cell, parse_moves
from qubic.players.opening import BOOK_FILE, orientation, parse_lines
from qubic.proof.pool import Journal, digest, run_tasks, workers
from qubic.proof.progress import duration
from qubic.proof.unit import fast_prover_available, unit
from qubic.search.prover import DISPROVED, PROVED, Result
from qubic.search.threats import OutOfBudget

T = TypeVar("T", bound=tuple[int, ...])
R = TypeVar("R")

FIRST_MOVE = "111"  # X's first move: the corner, which the proof shows winning
NODES = 200_000  # df-pn expansions for each reply that survives the screen
SCREEN = 20_000  # expansions for every reply first: most are shown lost well within it
DEEPEST = 25  # stones on the board in the deepest position answered (O's thirteenth move)
# Against the perfect first players, from 21 stones on X won with at most SETUPS setups after
# every reply, and the build left those positions to the game's search.
# Positions of fewer stones are not answered: at one stone the prover shows none of O's
# replies lost within 2,000,000 expansions, and their proof numbers are alike (571 to 832).
SHALLOW = 3
# At three stones one ply does not tell the replies apart: of those to 111 114 441 the prover
# shows 15 kinds of 21 lost within 140,000 expansions and the other 6 not within 2,000,000,
# with proof numbers 60 to 205 (the two given 20,000,000 kept theirs). Two plies do: the X
# replies after which every answer is shown lost within 200,000 range from 0 to 12 of 60.
TWO_PLY = 5  # positions of fewer stones are measured two plies deep
WIDTH = 8  # X's quiet moves the prover tries at a position (the solver's width)
SETUPS = 5  # X's setups counted after a reply: replies that need more are alike
# At `111 114 141 441 121 131 323` X wins with three setups after O's 444 and 223, four after
# 414 and five after 222, and has none with five after 232 and 333 (75 s and 5.5 minutes
# alone). Counted to four, 222 ties with those two, and its games were the shorter
# (docs/levels.md, the opening book).
SETUP_NODES = 3_000_000_000  # threat-search positions for the count after each reply


def hardest_first(result: Result) -> tuple[int, int]:
    """A sort key, the reply whose loss is hardest to show first: not shown lost (the prover's
    X finding no win at all, then running out of expansions, the larger proof number first:
    the further from a proof), then shown lost, in the most expansions first."""
    if result.status == PROVED:
        return (0, -result.expanded)
    if result.status == DISPROVED:
        return (-2, 0)
    return (-1, -result.pn)


def describe(result: Result) -> str:
    """The prover's verdict on a reply, as the book's comment."""
    if result.status == PROVED:
        return f"shown lost in {result.expanded} expansions"
    if result.status == DISPROVED:
        return "not lost to X's best moves"
    return f"not shown lost in {result.expanded} expansions (pn {result.pn})"


class Setups(NamedTuple):
    """`setups_needed`'s answer: the setups counted, and whether X's win was found with them
    (else X has none with fewer, and with `setups` the search ran out of budget or, past
    SETUPS, was not made)."""

    setups: int
    found: bool


def describe_setups(setups: Setups, most: int) -> str:
    """`setups_needed`'s answer after a reply, counted to `most`, as the book's comment."""
    if setups.found:
        return f"X wins with {setups.setups} setup{'' if setups.setups == 1 else 's'}"
    if setups.setups > most:
        return f"X has no win with {most} setup{'' if most == 1 else 's'}"
    return f"X's win with {setups.setups} setups not searched to the end"


def measure(task: tuple[int, int, int]) -> Result:
    """The prover's verdict on the position `(x, o)`, X to move, within `nodes` expansions,
    from clear tables (so the answer does not depend on what the worker proved before)."""
    x, o, nodes = task
    return unit(x, o, nodes, WIDTH, "fast").result


def setups_needed(task: tuple[int, int, int, int]) -> Setups:
    """The fewest setups with which X, to move at `(x, o)`, has a forced win, counted to
    `most` (0: a forced win by threats), within `nodes` threat-search positions. A count the
    budget did not reach the end of is ranked with the wins that need that many."""
    from qubic.proof.fast_prover import FastSetupSearch, FastThreatSearch  # the solver extra

    x, o, most, nodes = task
    search = FastSetupSearch(FastThreatSearch(nodes))
    for setups in range(most + 1):
        try:
            if search.forced_win(x, o, setups) is not None:
                return Setups(setups, True)
        except OutOfBudget:
            return Setups(setups, False)
    return Setups(most + 1, False)


@dataclass
class Choice:
    """A position O is to answer (its moves, in the book's orientation) and the answer."""

    moves: list[int]
    reply: int = -1
    verdict: str = ""


def every_kind(board: Board) -> list[int]:
    """One legal move of each symmetric kind, the lowest cell of each."""
    return list(kinds(board))


def kinds(board: Board) -> dict[int, int]:
    """The lowest legal move of each symmetric kind, and how many moves the kind holds. Two
    moves are one kind when the positions after them are images of each other: coarser than
    `symmetry.orbits` under the symmetries fixing the position: after X 244 and O 114, X's
    moves 121 and 412 lead to images of each other, though no symmetry fixing the position
    maps one onto the other."""
    lowest: dict[tuple[int, int], int] = {}
    found: dict[int, int] = {}
    for cell in board.legal_moves():
        board.push(cell)
        first = lowest.setdefault(CUBE.canonical(*board.bits), cell)
        board.pop()
        found[first] = found.get(first, 0) + 1
    return found


class Verdicts:
    """The prover's verdicts by position and budget, and X's setups counted after each reply,
    found in `executor`'s workers (else here) and kept in `journal` so that a rebuild searches
    nothing twice: from clear tables, the same question always gets the same answer. Setups
    are counted to `most` within `setup_nodes` positions."""

    def __init__(
        self,
        executor: Executor | None,
        journal: Journal,
        setup_nodes: int = SETUP_NODES,
        most: int = SETUPS,
    ) -> None:
        self.executor = executor
        self.journal = journal
        self.setup_nodes = setup_nodes
        self.most = most

    def run(self, tasks: list[tuple[int, int, int]]) -> list[Result]:
        """The verdicts on `tasks` (x, o, budget), proving those the journal lacks."""
        return self._answers("verdict", measure, tasks, _encode, _decode)

    def setups(self, positions: list[tuple[int, int]]) -> list[Setups]:
        """`setups_needed` at each position (x, o), X to move."""
        tasks = [(x, o, self.most, self.setup_nodes) for x, o in positions]
        return self._answers("setups", setups_needed, tasks, list, Setups._make)

    def _answers(
        self,
        kind: str,
        run: Callable[[T], R],
        tasks: list[T],
        encode: Callable[[R], Any],
        decode: Callable[[Any], R],
    ) -> list[R]:
        new = list(dict.fromkeys(tasks))
        keys = [digest(kind, *task) for task in new]
        found = run_tasks(run, new, keys, self.journal, encode, decode, self.executor)
        known = dict(zip(new, found))
        return [known[task] for task in tasks]


def _encode(result: Result) -> list[Any]:
    return [result.status, result.pn, result.dn, result.expanded]


def _decode(data: list[Any]) -> Result:
    status, pn, dn, expanded = data
    return Result(status, pn, dn, expanded, 0.0)


def verdicts(
    positions: Sequence[list[int]], known: Verdicts, nodes: int, screen: int
) -> list[dict[int, Result]]:
    """The prover's verdict on every kind of reply at each position (its moves, O to move):
    each is screened with `screen` expansions, and those not shown lost searched again with
    `nodes`."""
    boards = [Board.from_moves(moves) for moves in positions]

    def run(pairs: list[tuple[int, int]], budget: int) -> dict[tuple[int, int], Result]:
        tasks = []
        for index, cell in pairs:
            board = boards[index]
            tasks.append((board.bits[board.first], board.bits[board.turn] | 1 << cell, budget))
        return dict(zip(pairs, known.run(tasks)))

    screened = run(
        [(i, cell) for i, board in enumerate(boards) for cell in every_kind(board)], screen
    )
    found = screened | run([pair for pair, r in screened.items() if r.status != PROVED], nodes)
    answers: list[dict[int, Result]] = [{} for _ in positions]
    for (index, cell), result in found.items():
        answers[index][cell] = result
    return answers


def choose(positions: Sequence[Choice], known: Verdicts, nodes: int, screen: int = SCREEN) -> None:
    """Answer each position with the reply that leaves X furthest from a forced win: the most
    setups X needs (`setups_needed`), then the prover's verdict (`verdicts`, by its kind:
    not lost, not shown lost, shown lost), then, among those alike, near the start `exposed`,
    then the loss hardest to show; ties to the lower cell. A position where X wins with as
    many setups as are counted or fewer after every reply is left unanswered (its reply -1)
    to the second player's own search, which measures each reply's exposure: there the count
    no longer tells the replies apart, and against the perfect first players the game's search
    played such positions better than the prover's ranking (docs/levels.md)."""
    found = verdicts([choice.moves for choice in positions], known, nodes, screen)
    for choice, results in zip(positions, found):
        board = Board.from_moves(choice.moves)
        x, o = board.bits[board.first], board.bits[board.turn]
        cells = sorted(results)
        setups = dict(zip(cells, known.setups([(x, o | 1 << cell) for cell in cells])))
        first = {cell: (-setups[cell].setups, hardest_first(results[cell])[0]) for cell in cells}
        best = [cell for cell in cells if first[cell] == min(first.values())]
        choice.verdict = describe_setups(setups[best[0]], known.most)
        if all(setups[cell].found for cell in best):
            continue
        deep: dict[int, tuple[int, int]] = {}
        if len(choice.moves) < TWO_PLY:
            deep = exposed(board, [c for c in best if results[c].status != PROVED], known, nodes)
        reply = choice.reply = min(best, key=partial(rank, results, deep))
        said = describe_setups(setups[reply], known.most)
        choice.verdict = f"{said}; {describe(results[reply])}"
        if reply in deep:
            lost, replies = deep[reply]
            choice.verdict += f"; {lost} of X's {replies} replies leave every answer shown lost"


def rank(
    results: dict[int, Result], deep: dict[int, tuple[int, int]], cell: int
) -> tuple[int, int]:
    """A sort key among replies alike in setups and the prover's kind of verdict, the best
    first: `exposed` where it was measured (`deep`), then the loss hardest to show."""
    return deep.get(cell, (0, 0))[0], hardest_first(results[cell])[1]


def exposed(
    board: Board, replies: list[int], known: Verdicts, nodes: int
) -> dict[int, tuple[int, int]]:
    """For each of O's `replies` at `board`: how many of X's replies (each cell of a symmetric
    kind counted) leave every answer of O's shown lost within `nodes` expansions, out of how
    many. The answers are proved in rounds, the next answer to every X reply still open in one
    batch; an answer not shown lost closes its X reply."""
    counts: dict[int, list[int]] = {}
    open_: list[tuple[int, int, int, int, list[int]]] = []  # reply, weight, x, o, answers left
    for reply in replies:
        board.push(reply)
        moves = kinds(board)
        counts[reply] = [0, sum(moves.values())]
        for cell, weight in moves.items():
            board.push(cell)
            if board.is_over():  # X's reply wins at once
                counts[reply][0] += weight
            else:
                x, o = board.bits
                open_.append((reply, weight, x, o, every_kind(board)))
            board.pop()
        board.pop()
    while open_:
        results = known.run([(x, o | 1 << answers[0], nodes) for _, _, x, o, answers in open_])
        still = []
        for (reply, weight, x, o, answers), result in zip(open_, results):
            if result.status != PROVED:
                continue
            if len(answers) == 1:
                counts[reply][0] += weight
            else:
                still.append((reply, weight, x, o, answers[1:]))
        open_ = still
    return {reply: (lost, replies) for reply, (lost, replies) in counts.items()}


def must_answer(board: Board) -> bool:
    """O has a win or must block one: the game's own search answers."""
    me, you = board.pair()
    return bool(winning_mask(me, you) or winning_mask(you, me))


def read_games(paths: Iterable[Path]) -> list[list[int]]:
    """The moves of every game O lost in the records ('level opponent seed winner: moves', the
    winner X, O or -). A perfect X's games count too: it wins whatever O plays, and where it
    wins soon, O's replies there left it a win with few setups."""
    games = []
    for path in paths:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            heading, _, moves = line.partition(":")
            words = heading.split()
            if len(words) == 4 and words[3] == "X":
                with where(path, number):
                    games.append(parse_moves(moves))
    return games


@contextlib.contextmanager
def where(path: Path, number: int) -> Iterator[None]:
    """Name the file and line in a ValueError raised while reading it (as ValueError)."""
    try:
        yield
    except ValueError as error:
        raise ValueError(f"{path}, line {number}: {error}") from None


def canonical_moves(moves: list[int]) -> tuple[tuple[int, int], list[int]]:
    """The position's canonical key and its moves mapped into the key's orientation."""
    key, symmetry = orientation(Board.from_moves(moves))
    return key, [symmetry[cell] for cell in moves]


def same_position(a: list[int], b: list[int]) -> bool:
    return CUBE.canonical(*Board.from_moves(a).bits) == CUBE.canonical(*Board.from_moves(b).bits)


def build(
    out: Path,
    games: list[list[int]],
    deepest: int,
    nodes: int,
    count: int,
    screen: int = SCREEN,
    shallow: int = SHALLOW,
    journal: Journal | None = None,
    setup_nodes: int = SETUP_NODES,
) -> list[Choice]:
    """Answer, with `choose`, every position of `shallow` to `deepest` stones, O to move, that
    the book in `out` lacks and that one of the `games` reaches while O's moves there follow
    the book (as answered so far); write the book with its answers and the new ones to `out`
    (less those that no order of their moves reaches on the book: `on_book`) and return the
    new ones. The prover runs in `count` worker processes, its verdicts kept in `journal`."""
    answers = book_entries(out)
    alive = list(games)
    new: list[Choice] = []
    began = time.perf_counter()
    with workers(count) as team:
        known = Verdicts(team.executor, journal or Journal(None), setup_nodes)
        for stones in range(1, deepest + 1, 2):
            if stones >= shallow:
                todo: dict[tuple[int, int], Choice] = {}
                for game in alive:
                    board = Board.from_moves(game[:stones])
                    if not board.is_over() and not must_answer(board):
                        key, image = canonical_moves(game[:stones])
                        if key not in answers:
                            todo.setdefault(key, Choice(image))
                choose(list(todo.values()), known, nodes, min(screen, nodes))
                answered = {key: c for key, c in todo.items() if c.reply >= 0}
                answers.update(answered)
                new += answered.values()
                print(
                    f"{stones} stones: {len(answered)} positions answered, "
                    f"{len(todo) - len(answered)} left to the game's search "
                    f"({duration(time.perf_counter() - began)})",
                    flush=True,
                )
            alive = [game for game in alive if follows(game, stones, answers)]
    after = replied(answers)
    write(out, parse_cell(FIRST_MOVE), [c for c in answers.values() if on_book(c.moves, after)])
    return new


def replied(answers: dict[tuple[int, int], Choice]) -> dict[tuple[int, int], tuple[int, int]]:
    """For each answered position (its key): the canonical position after the book's reply."""
    return {
        key: CUBE.canonical(*Board.from_moves([*c.moves, c.reply]).bits)
        for key, c in answers.items()
    }


def on_book(moves: list[int], after: dict[tuple[int, int], tuple[int, int]]) -> bool:
    """Whether some order of `moves` (each side's stones in any order, the sides in turn)
    reaches their position with O playing the book's answer (`after`, from `replied`)
    wherever the book holds the position: an entry that no order reaches is dead (a shallower
    answer changed), and the build drops it. Orders matter: a line the book left may still be
    reached another way."""
    xs, os = moves[0::2], moves[1::2]
    done = (1 << len(xs)) - 1, (1 << len(os)) - 1
    dead: set[tuple[int, int]] = set()  # (X's stones placed, O's) as masks of their indices

    def reach(placed_x: int, placed_o: int, x: int, o: int) -> bool:
        if (placed_x, placed_o) == done:
            return True
        if (placed_x, placed_o) in dead:
            return False
        if placed_x.bit_count() == placed_o.bit_count():  # X to move: any of its stones
            found = any(
                reach(placed_x | 1 << i, placed_o, x | 1 << cell, o)
                for i, cell in enumerate(xs)
                if not placed_x >> i & 1
            )
        else:
            answer = after.get(CUBE.canonical(o, x))
            found = any(
                reach(placed_x, placed_o | 1 << i, x, o | 1 << cell)
                for i, cell in enumerate(os)
                if not placed_o >> i & 1
                and (answer is None or CUBE.canonical(x, o | 1 << cell) == answer)
            )
        if not found:
            dead.add((placed_x, placed_o))
        return found

    return reach(0, 0, 0, 0)


def follows(game: list[int], stones: int, answers: dict[tuple[int, int], Choice]) -> bool:
    """Whether the game goes on past O's move after `stones` stones, as the book plays it."""
    if len(game) <= stones + 1:
        return False
    answer = answers.get(canonical_moves(game[:stones])[0])
    return answer is None or same_position([*answer.moves, answer.reply], game[: stones + 1])


def book_entries(path: Path) -> dict[tuple[int, int], Choice]:
    """The O entries of the book at `path` (if any), by canonical position, with their
    comments."""
    kept: dict[tuple[int, int], Choice] = {}
    if not path.is_file():
        return kept
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        with where(path, number):
            for moves, reply in parse_lines(line):
                if moves:
                    key, symmetry = orientation(Board.from_moves(moves))
                    image = [symmetry[cell] for cell in moves]
                    kept[key] = Choice(image, symmetry[reply], line.partition("#")[2].strip())
    return kept


def write(out: Path, first: int, chosen: list[Choice]) -> None:
    lines = [
        "# QUBIC opening book, written by `python -m qubic.proof opening`.",
        "# moves from the start -> the reply  # why: its games against hard (wins draws losses;"
        " earlier builds), or the prover's verdict",
        f"-> {format_cell(first)}  # X: the corner, which the proof wins with",
    ]
    for choice in sorted(chosen, key=lambda c: (len(c.moves), c.moves)):
        moves = " ".join(format_cell(cell) for cell in choice.moves)
        lines.append(f"{moves} -> {format_cell(choice.reply)}  # {choice.verdict}")
    files.write_atomic(out, "\n".join(lines) + "\n")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--out",
        type=Path,
        default=Path(__file__).parent.parent / "players" / BOOK_FILE,
        help="the book to extend: its entries are kept, the answers added, and the file "
        "rewritten; a new file starts from an empty book (default: the package's)",
    )
    parser.add_argument(
        "--games",
        type=Path,
        nargs="*",
        default=[Path(__file__).parent / "opening-games.txt"],
        metavar="FILE",
        help="records of games (benchmarks/gauntlet.py or perfect_x.py --record) whose "
        "positions O answers "
        "(default: the package's, qubic/proof/opening-games.txt)",
    )
    parser.add_argument(
        "--deepest",
        type=int,
        default=DEEPEST,
        metavar="STONES",
        help=f"answer positions of up to this many stones (default {DEEPEST})",
    )
    parser.add_argument(
        "--nodes",
        type=int,
        default=NODES,
        help=f"df-pn expansions for each reply not shown lost by the screen (default {NODES})",
    )
    parser.add_argument(
        "--setup-nodes",
        type=int,
        default=SETUP_NODES,
        metavar="N",
        help=f"threat-search positions for each count of X's setups after a reply "
        f"(default {SETUP_NODES:,})",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        help="processes running the searches (default: %(default)s, the cores)",
    )
    parser.add_argument(
        "--verdicts",
        type=Path,
        default=Path(__file__).parent / "opening.verdicts",
        metavar="FILE",
        help="the searches' answers, kept so that a rebuild or a stopped build searches "
        "nothing twice (default: qubic/proof/opening.verdicts)",
    )


def opening(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """`opening`: rebuild expert's opening book."""
    missing = [str(path) for path in args.games if not path.is_file()]
    if missing:
        parser.error(f"no such file: {', '.join(missing)}")
    if not fast_prover_available():
        parser.error("the build needs the compiled prover: pip install -e '.[solver]'")
    journal = Journal(args.verdicts)
    try:
        new = build(
            args.out,
            read_games(args.games),
            args.deepest,
            args.nodes,
            args.workers,
            journal=journal,
            setup_nodes=args.setup_nodes,
        )
    except ValueError as error:  # a line of the book or of a games file that does not read
        parser.error(str(error))
    except KeyboardInterrupt:
        print(f"stopped; the verdicts so far are kept in {args.verdicts}: run again to resume")
        return 130
    finally:
        journal.close()
    print(f"{len(new)} positions answered; the book is {args.out}", flush=True)
    return 0
