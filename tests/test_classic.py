"""The classic level against docs/classic.md: the tables, each step of the turn, whole games.

Positions and moves are written in our notation (level, column, row). The comments that derive
the expected replies by hand follow the spec and so use the listing's notation (level, row,
column) in square brackets: [323] is our 332. Line numbers are the listing's 1..76 and sums
are in the listing's units (human 1, machine 5, mark 1/8).
"""

from __future__ import annotations

from itertools import zip_longest

import pexpect
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qubic.core.board import Board, Mark
from qubic.core.geometry import CUBE
from qubic.core.notation import format_cell, parse_cell, parse_moves
from qubic.play.session import AT_THE_END_WORDS, Session
from qubic.play.settings import Settings
from qubic.play.sitting import Stage
from qubic.players.base import PLAIN_ANNOUNCEMENT, Reply
from qubic.players.classic import (
    GET_OUT,
    LIKES,
    LINES,
    LISTING_LINES,
    LISTING_PREFERRED,
    NICE_TRY,
    PREFERRED,
    TAKES,
    YOU_FOX,
    ClassicPlayer,
    from_listing,
)
from tests.conftest import expect_goodbye, expect_prompt, run_piped, spawn

VOICES = {PLAIN_ANNOUNCEMENT, NICE_TRY, GET_OUT, YOU_FOX, TAKES, LIKES}
ONE_TO_FOUR = range(1, 5)


def listing_number(level: int, row: int, column: int) -> int:
    """The listing's cell number, computed from the spec's formula (1-based)."""
    return 16 * (level - 1) + 4 * (row - 1) + column


def listing_numbers(names: str) -> tuple[int, ...]:
    """The listing's cell numbers of cells named in its notation, e.g. '141 132'."""
    return tuple(listing_number(*(int(d) for d in name)) for name in names.split())


def listing(name: str) -> int:
    """Our cell for a cell named in the listing's notation, e.g. '323'."""
    return from_listing(listing_number(*(int(d) for d in name)))


def position(human: str, machine: str) -> Board:
    """The position with these stones (our notation), the machine (O) to move.

    The stones are played alternately from an empty board: the human first when it has one
    more stone, else the machine.
    """
    xs = parse_moves(human)
    os = parse_moves(machine)
    first = Mark.X if len(xs) > len(os) else Mark.O
    leader, follower = (xs, os) if first is Mark.X else (os, xs)
    moves = [c for pair in zip_longest(leader, follower) for c in pair if c is not None]
    board = Board.from_moves(moves, first=first)
    assert board.turn is Mark.O and not board.is_over()
    return board


def reply(human: str, machine: str) -> tuple[str, str]:
    """The classic machine's announcement and move (our notation) in that position."""
    move = ClassicPlayer().choose(position(human, machine))
    return move.announcement, format_cell(move.cell)


# --- The tables and the translation between notations ---


def test_listing_323_is_our_332():
    assert from_listing(listing_number(3, 2, 3)) == parse_cell("332")
    assert format_cell(listing("323")) == "332"


def test_every_listing_cell_translates_to_the_cell_with_column_and_row_swapped():
    cells = set()
    for level in ONE_TO_FOUR:
        for row in ONE_TO_FOUR:
            for column in ONE_TO_FOUR:
                cell = from_listing(listing_number(level, row, column))
                assert format_cell(cell) == f"{level}{column}{row}"
                cells.add(cell)
    assert cells == set(CUBE.cells)


def test_the_line_table_is_the_specs_scan_order():
    t = ONE_TO_FOUR
    expected = [
        *([(L, R, i) for i in t] for L in t for R in t),
        *([(i, R, C) for i in t] for C in t for R in t),
        *([(L, i, C) for i in t] for C in t for L in t),
        *([(L, i, i) for i in t] for L in t),
        *([(L, 5 - i, i) for i in t] for L in t),
        *([(i, i, C) for i in t] for C in t),
        *([(5 - i, i, C) for i in t] for C in t),
        *([(i, R, i) for i in t] for R in t),
        *([(5 - i, R, i) for i in t] for R in t),
    ]
    diagonals = [
        listing_numbers(names)
        for names in ("111 222 333 444", "144 233 322 411", "114 223 332 441", "141 232 323 414")
    ]
    assert list(LISTING_LINES) == [
        *(tuple(listing_number(*cell) for cell in line) for line in expected),
        *diagonals,
    ]
    # The spec's own examples of lines 53, 61 and 69.
    assert LISTING_LINES[52] == listing_numbers("141 132 123 114")
    assert LISTING_LINES[60] == listing_numbers("411 321 231 141")
    assert LISTING_LINES[68] == listing_numbers("411 312 213 114")


def test_the_listing_lines_are_exactly_our_76_lines():
    ours = {frozenset(line.cells) for line in CUBE.lines}
    assert len(LINES) == 76
    assert {frozenset(line) for line in LINES} == ours


def test_the_preferred_squares_are_corners_then_centres_in_our_notation():
    names = "111 411 414 114 141 441 444 144 222 323 223 322 232 332 233 333"
    assert listing_numbers(names) == LISTING_PREFERRED
    assert " ".join(format_cell(c) for c in PREFERRED) == (
        "111 411 441 141 114 414 444 144 222 332 232 322 223 323 233 333"
    )


def test_plane_groups_5_to_8_and_9_to_12_are_the_same_planes_and_rows_are_missed():
    def cells(group: int) -> frozenset[int]:
        return frozenset(c for line in LINES[4 * group - 4 : 4 * group] for c in line)

    groups = [cells(group) for group in range(1, 19)]
    assert groups[4:8] == groups[8:12]
    row_planes = [frozenset(c for c in CUBE.cells if CUBE.coords[c][2] == r) for r in range(4)]
    assert not set(row_planes) & set(groups)


# --- Each step of the turn, in a position worked by hand ---


def test_step_3_it_completes_its_own_three_before_blocking():
    # Line 1 [111][112][113] is a human three (sum 3) and comes first, but step 3 looks for 15
    # before step 4 looks for 3: line 5 [211][212][213] sums 15, its empty cell is [214].
    assert reply(human="111 121 131", machine="211 221 231") == (PLAIN_ANNOUNCEMENT, "241")


def test_step_4_blocks_the_first_three_in_line_order():
    # Two human threes: line 9 [311][312][313] (empty [314]) and line 32 [244][344][444]
    # (empty [144]). Line 9 comes first, so [314] = our 341, though our 144 is the lower cell.
    human, machine = "311 321 331 244 344 444", "123 134 212 423 432"
    assert position(human, machine).winning_cells(Mark.X) == [parse_cell("144"), parse_cell("341")]
    assert reply(human, machine) == (NICE_TRY, "341")


def test_step_5_plays_its_own_fork_with_a_taunt():
    # Machine [111][112][123][133]. Line 1 [111][112] sums 10: mark [113] [114]. Line 41
    # [113][123][133][143] then sums 10 1/8 (> 10): FORK(41), its first marked cell [113];
    # the sum is not below 5, so the taunt. (Line 49 [111][133] also sums 10, but later.)
    assert reply(human="411 421 412 443", machine="111 121 132 133") == (GET_OUT, "131")


def test_step_5_fork_takes_the_first_of_two_marked_cells():
    # Machine [111][112][123][133][141][142]. Lines 1 [111][112], 4 [141][142],
    # 33 [111][141] and 37 [112][142] sum 10 and mark [113][114], [143][144], [121][131],
    # [122][132]. Line 41 [113][123][133][143] then sums 10 1/4: FORK(41) takes the first
    # marked cell in line order, [113], not [143].
    assert reply(human="422 442 423 244 321 343", machine="111 121 132 133 114 124") == (
        GET_OUT,
        "131",
    )


def test_step_6_takes_a_middle_cell_of_a_line_with_one_stone_and_three_marks():
    # Machine [414][114][224][344][124][322]: lines 29 [114][414], 30 [124][224],
    # 45 [114][124], 51 [322][344] and 60 [114][224] each sum 10; their empties get marks,
    # no two share a cell, so no fork. Line 47 [314][324][334][344] is then 5 3/8, the first
    # such line: 47 mod 4 = 3, so DIAG looks at its middles [324][334]: [324] is marked.
    assert reply(human="224 331 424 212 421 134", machine="441 141 242 344 142 322") == (
        TAKES,
        "342",
    )


def test_step_6_takes_a_cell_of_a_line_of_four_marks():
    # Machine pairs on lines 3 [131][132], 7 [231][232], 19 [131][231], 23 [132][232] and
    # 67 [131][232] mark ten distinct cells, no fork. Line 71 [431][332][233][134] holds four
    # marks (sum 1/2), the first line summing 1/2 or 5 3/8: 71 mod 4 = 3, middles, [332].
    assert reply(human="232 321 324 421 211 432", machine="113 231 444 123 213 223") == (
        TAKES,
        "323",
    )


def test_step_8_blocks_the_humans_fork_just_in_time():
    # No machine pair. Human line 1 [111][112] sums 2: mark [113] [114]; line 41
    # [113][123][133][143] then sums 2 1/8: FORK(41), first mark [113], sum below 5.
    assert reply(human="111 121 132 133", machine="444 321 214") == (YOU_FOX, "131")


def test_step_9_takes_an_end_of_a_line_with_a_human_stone_and_three_marks():
    # Human pairs on lines 9 [312][314], 21 [312][412], 29 [214][314], 41 [133][143] and
    # 49 [111][133] mark distinct cells, no fork; the machine has no pair. Line 1 is
    # [111] + three marks = 1 3/8: 1 mod 4 = 1, so the ends [111][114]: [114] is marked.
    assert reply(human="111 321 421 133 134 241 341", machine="212 234 342 413 444 223") == (
        TAKES,
        "141",
    )


def test_step_9_after_the_machines_own_marks_are_cleared():
    # The colours of the four-marks position above swapped. The machine's pairs (lines 21, 26,
    # 39) mark six cells in step 5: no fork, and no line sums 1/2 or 5 3/8, so step 7 clears
    # them. The human's pairs then mark as the machine's did: line 71 sums 1/2, [332].
    assert reply(human="113 231 444 123 213 223", machine="232 321 324 421 211 432") == (
        TAKES,
        "323",
    )


def test_step_10_a_plane_takes_a_marked_corner_before_any_empty_cell():
    # Human [111][114][142][143] on level 1; line 1 [111][114] and line 4 [142][143] sum 2
    # and mark [112][113][141][144]; no fork, no 1/2 or 1 3/8 line. Group 1 (lines 1-4) sums
    # 4 1/2: DIAG(i, 1/8) on lines 1..4 before any DIAG(i, 0). Line 1's ends are human,
    # line 2's and 3's middles are empty, line 4's ends are [141] (marked) and [144]: [141].
    assert reply(human="111 141 124 134", machine="233 344 422") == (TAKES, "114")


def test_step_10_a_plane_without_marks_takes_an_empty_diagonal_cell():
    # Human [112][124][131][143], no two on a line: no marks anywhere. Group 1 (level 1) sums
    # 4 + 5 = 9 with the machine's [111]. DIAG(i, 1/8) fails on all four lines; DIAG(1, 0):
    # line 1's ends are [111] (machine) and [114] (empty): [114].
    assert reply(human="121 142 113 134", machine="111 233 344") == (TAKES, "141")


def test_step_10_never_looks_at_the_fixed_row_planes():
    # Human [112][214][311][413] all lie in the plane of row 1, with the machine's [111]: that
    # plane sums 9, but the listing's groups never cover it. The groups it does cover sum 1, 5,
    # 6 or 16: none is in range. No two stones of a colour share a line, so no marks:
    # the preferred list, [111] taken, gives [411]. Scanning all 18 planes would take a cell.
    human, machine = "121 241 311 431", "111 233 344"
    board = position(human, machine)
    assert plane_sum(board, [c for c in CUBE.cells if CUBE.coords[c][2] == 0]) == 9
    assert {plane_sum(board, plane) for plane in listing_planes()} == {1, 5, 6, 16}
    assert reply(human, machine) == (PLAIN_ANNOUNCEMENT, "411")


def test_step_10_stops_at_group_18_the_space_diagonals_are_no_plane():
    # Human [141][441][332][333]: pairs on lines 11, 20 and 75 mark [331][334], [241][341],
    # [114][223]; no fork, no 1 3/8 line. Groups 1-18 sum 11 1/8, 1/4, 7 3/8, 1, 7 3/8, 6,
    # 1 1/8, 5 1/4 (twice over), 6, 8 1/2, 3 1/2, 1, 6, 2 1/4: none in range, so the
    # preferred [111]. Lines 73-76 together would sum 4 1/4, but they are not a group.
    assert reply(human="114 414 323 333", machine="344 112 123") == (PLAIN_ANNOUNCEMENT, "111")


def test_step_11_the_first_preferred_square():
    # Nothing on the board: [111]. After the human's [111]: no pair, no plane in range, [411].
    assert ClassicPlayer().choose(Board(first=Mark.O)) == Reply(parse_cell("111"))
    assert reply(human="111", machine="") == (PLAIN_ANNOUNCEMENT, "411")


def test_step_11_clears_the_marks_before_the_preferred_list():
    # Human pillar 17 [211][311] marks [111] and [411] in step 8; no fork, two marks, and no
    # plane reaches 4 (or 9 with the machine's [444]). Step 11 clears the marks: [111].
    assert reply(human="211 311", machine="444") == (PLAIN_ANNOUNCEMENT, "111")


FALLBACK_HUMAN = "141 133 114 124 221 212 222 232 243 332 342 333 324 411 413 423 444"
FALLBACK_MACHINE = "111 131 132 144 242 213 223 233 321 322 323 334 441 442 433 414 424"


def listing_planes() -> list[list[int]]:
    """The 18 groups of the plane pass as planes, from the spec's description of the lines."""
    # Our 0-based coordinates are (level, column, row); the listing's R is our row.
    rules = [
        *((lambda level, column, row, k=k: level == k) for k in range(4)),
        *((lambda level, column, row, k=k: column == k) for k in range(4)),
        *((lambda level, column, row, k=k: column == k) for k in range(4)),
        lambda level, column, row: row == column,
        lambda level, column, row: row + column == 3,
        lambda level, column, row: level == row,
        lambda level, column, row: level + row == 3,
        lambda level, column, row: level == column,
        lambda level, column, row: level + column == 3,
    ]
    return [[cell for cell in CUBE.cells if rule(*CUBE.coords[cell])] for rule in rules]


def plane_sum(board: Board, cells: list[int]) -> int:
    """The listing's sum of these cells, without marks: human 1, machine 5."""
    return sum({Mark.X: 1, Mark.O: 5}[m] for m in map(board.mark_at, cells) if m is not None)


def test_step_12_the_first_empty_cell_in_the_listings_order():
    board = position(FALLBACK_HUMAN, FALLBACK_MACHINE)
    x, o = board.counts
    # Every line holding two or more stones holds both colours: no sum is 15, 3, 10 or 2, so
    # steps 3 to 5 and 8 find nothing and place no marks, and steps 6 and 9 need marks.
    assert all(x[i] + o[i] < 2 or (x[i] and o[i]) for i in range(len(CUBE.lines)))
    # No group of the plane pass sums 4 or 9 (no marks, so the sums are whole).
    assert not {plane_sum(board, plane) for plane in listing_planes()} & {4, 9}
    assert all(board.mark_at(c) is not None for c in PREFERRED)
    # Listing order: [111] is taken, [112] is empty. (Our order would give our 112 = [121].)
    assert board.mark_at(parse_cell("112")) is None
    assert reply(FALLBACK_HUMAN, FALLBACK_MACHINE) == (LIKES, "121")


# --- Whole games through the Session ---


def play_classic(human: str, human_first: bool) -> list[str]:
    """Everything the session prints while the human plays the moves `human` (our notation,
    separated by spaces) against the classic level."""
    session = Session(Settings(level="classic"))
    session.start()
    session.answer("no")
    session.answer("yes" if human_first else "no")
    moves = iter(human.split())
    printed: list[str] = []
    while session.stage is Stage.MOVE:
        machine = session.machine_to_move
        output = session.machine_move() if machine else session.answer(next(moves))
        printed += [line for line in output if isinstance(line, str)]  # the final board aside
    assert next(moves, None) is None, "the game ended before the human's last move"
    assert printed.pop() == AT_THE_END_WORDS, "the game's own words close it, not the machine's"
    return printed


def test_a_game_the_machine_wins_with_a_fork():
    assert play_classic("114 414 314 311 444 144 131 431 321", human_first=True) == [
        # [141]: no pair, no plane reaches 4: preferred [111].
        "MACHINE MOVES TO 111",
        # [441]: pillar 20 [141][441] marks [241][341]; no plane in range: [411].
        "MACHINE MOVES TO 411",
        # [341]: line 20 sums 3: [241].
        "NICE TRY. MACHINE MOVES TO 214",
        # [311] kills pillar 17, the machine's only pair; line 35 [311][341] marks [321][331];
        # the planes sum at most 2.25 or at least 5: preferred [414].
        "MACHINE MOVES TO 441",
        # [444]: machine lines 13 and 65 mark four cells, no 1/2 or 5 3/8 line; human lines
        # 16, 35, 68 mark six, no 1/2 or 1 3/8 line; no plane in range: preferred [114].
        "MACHINE MOVES TO 141",
        # [144]: machine pairs on lines 1, 13, 29, 65, 69 mark ten cells of the row-1 plane,
        # no fork; line 21 [112][212][312][412] is all marks, 1/2: ends, [112].
        "MACHINE TAKES 121",
        # [113] kills line 1; lines 13, 29, 65, 69 mark again; line 21 is [112] + three
        # marks, 5 3/8: ends, [112] is the machine's, [412] is marked.
        "MACHINE TAKES 421",
        # [413] kills line 13. Line 21 [112][412] marks [212][312], line 29 marks [214][314];
        # line 65 [111][212][313][414] then sums 10 1/8: FORK(65), [212].
        "LET'S SEE YOU GET OUT OF THIS:  MACHINE MOVES TO 221",
        # [312] blocks line 21 but line 65 sums 15: [313].
        "MACHINE MOVES TO 331",
        "MACHINE WINS. THE LINE: 111 221 331 441",
    ]


def test_a_game_the_human_wins_against_the_first_block_in_line_order():
    assert play_classic("333 323 313 311 233 413 113 443 433 133", human_first=True) == [
        # [333]: preferred [111].
        "MACHINE MOVES TO 111",
        # [332]: line 11 marks [331][334]; no plane in range: [411].
        "MACHINE MOVES TO 411",
        # [331]: line 11 sums 3: [334].
        "NICE TRY. MACHINE MOVES TO 343",
        # [311]: lines 35 [311][331] and 51 [311][333] mark [321][341][322][344]; group 3
        # (level 3) sums 4 + 5 + 1/2 = 9 1/2: line 9's ends hold no mark, line 10's middle
        # [322] does.
        "MACHINE TAKES 322",
        # [233]: human lines 27, 35, 71 mark six cells, no fork, no 1 3/8 line, no plane in
        # range: preferred [414].
        "MACHINE MOVES TO 441",
        # [431]: line 71 [431][332][233] sums 3: [134].
        "NICE TRY. MACHINE MOVES TO 143",
        # [131]: pillar 19 [131][331][431] sums 3: [231].
        "NICE TRY. MACHINE MOVES TO 213",
        # [434]: line 67 [131][333][434] sums 3: [232].
        "NICE TRY. MACHINE MOVES TO 223",
        # [433] makes two threes: line 15 (empty [432]) and pillar 27 (empty [133]). The
        # first in line order is blocked.
        "NICE TRY. MACHINE MOVES TO 423",
        "YOU WIN! THE LINE: 133 233 333 433",
    ]


def test_a_game_the_machine_starts_and_wins_down_a_pillar():
    assert play_classic("223 342 434 324 233", human_first=False) == [
        # Empty board: [111].
        "MACHINE MOVES TO 111",
        # The human's stones [232][324][443][342] never share a line or the row-1 plane, and no
        # group gets more than two of them, so no plane sum reaches 4 or 9 (or 9 with the
        # machine's 5): the preferred list, [411], [414], [114].
        "MACHINE MOVES TO 411",
        "MACHINE MOVES TO 441",
        "MACHINE MOVES TO 141",
        # The four corners of the row-1 plane pair up on lines 1, 13, 17, 29, 65, 69 and mark
        # their middles, no fork; line 5 [211][212][213][214] is all marks, 1/2: ends, [211].
        "MACHINE TAKES 211",
        # The human ignores pillar 17 [111][211][411], which sums 15: [311].
        "MACHINE MOVES TO 311",
        "MACHINE WINS. THE LINE: 111 211 311 411",
    ]


# --- Determinism and legality from any position ---


@settings(max_examples=200, deadline=None)
@given(
    st.permutations(range(64)), st.integers(0, 63), st.sampled_from([Mark.X, Mark.O]), st.integers()
)
def test_any_position_gets_a_legal_move_and_always_the_same_one(order, length, first, seed):
    board = Board(first=first)
    for cell in order[:length]:
        if board.is_over():
            break
        board.push(cell)
    if board.is_over():
        return
    moves = list(board.moves)
    first_reply = ClassicPlayer(seed).choose(board)
    assert board.is_legal(first_reply.cell)
    assert first_reply.announcement in VOICES
    assert board.moves == moves
    assert ClassicPlayer().choose(board) == first_reply


# --- The real program ---

MOVE = r"YOUR MOVE\?"


def start(*args: str) -> pexpect.spawn:
    child = spawn(*args)
    expect_prompt(child, r"DO YOU WANT INSTRUCTIONS\?")
    child.sendline("no")
    expect_prompt(child, r"DO YOU WANT TO MOVE FIRST\?")
    child.sendline("yes")
    return child


def leave(child: pexpect.spawn) -> None:
    expect_prompt(child, MOVE)
    child.sendcontrol("d")
    expect_goodbye(child)


@pytest.mark.slow
def test_the_classic_machine_speaks_in_its_own_words_in_a_terminal():
    # [111] -> [411]; [112] -> [414] (line 1 marks [113][114], no plane in range); [113] makes
    # line 1 a three: blocked at [114].
    child = start("--level", "classic")
    for move, line in [
        ("111", "MACHINE MOVES TO 411"),
        ("121", "MACHINE MOVES TO 441"),
        ("131", "NICE TRY. MACHINE MOVES TO 141"),
    ]:
        expect_prompt(child, MOVE)
        child.sendline(move)
        child.expect_exact(line + "\r\n")
    leave(child)


@pytest.mark.slow
def test_level_classic_mid_game_changes_the_voice():
    child = start("--seed", "5")
    expect_prompt(child, MOVE)
    child.sendline("111")
    child.expect(r"MACHINE MOVES TO (\d{3})\r\n")
    normal = child.match.group(1)
    expect_prompt(child, MOVE)
    child.sendline("LEVEL classic")
    child.expect_exact("THE LEVEL IS NOW CLASSIC.")
    # A line through 111 that the normal machine left open and that misses the preferred
    # squares 411, 441 and 141.
    line = next(
        cells
        for cells in (
            ["111", "112", "113", "114"],
            ["111", "122", "133", "144"],
            ["111", "212", "313", "414"],
            ["111", "222", "333", "444"],
        )
        if normal not in cells
    )
    # The human's pair on the line marks its two empties; one machine stone, no fork, no
    # plane reaching 4 (or 9 with the machine's 5): the first free preferred square.
    preferred = next(cell for cell in ("411", "441", "141") if cell != normal)
    expect_prompt(child, MOVE)
    child.sendline(line[1])
    child.expect_exact(f"MACHINE MOVES TO {preferred}\r\n")
    # The third stone is the human's only three and the machine has no pair: blocked.
    expect_prompt(child, MOVE)
    child.sendline(line[2])
    child.expect_exact(f"NICE TRY. MACHINE MOVES TO {line[3]}\r\n")
    leave(child)


def test_help_lists_the_classic_level():
    result = run_piped("--help")
    assert result.returncode == 0
    assert "classic" in result.stdout and "BASIC" in result.stdout
