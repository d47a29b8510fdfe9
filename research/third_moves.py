"""How far the choice of X's third moves could thin the strategy book, as a Markdown table.

    pip install -e '.[solver]' && python research/third_moves.py   # about a minute

For each entry of 4 stones in the shipped book (X's third move), the classes of O's replies
after it that leave X no forced win by threats: each is a position the strategy must answer
with an entry of 6 stones. Against it, the fewest such replies over every quiet move of X
there (one that makes no three), whether or not the move wins: no choice of quiet third
moves needs fewer entries of 6 stones than that. A move that makes a three leaves O one reply,
the block, whose position needs an entry in turn: for those, the fewest open replies over X's
quiet fourth moves after the block, and the better of the two at each entry. Last, how often
the book's fourth moves repeat: the replies after each entry of 4 stones that the book
answers with an entry of 6, against X's different answers to them (cells as the entry of 4
stones lies), summed over the entries.
"""

from __future__ import annotations

from collections import Counter

from qubic.core.board import winning_mask
from qubic.core.geometry import CUBE
from qubic.core.symmetry import lookup, orbits, stabilizer
from qubic.proof.leaf import strategy_threats
from qubic.proof.unit import fast_prover_available
from qubic.search.strategy import THREAT_NODES, Entries, shipped
from qubic.search.threats import ThreatSearch, new_threats


def open_replies(x: int, o: int, cell: int, search: ThreatSearch) -> int:
    """The classes of O's replies to X's `cell` at `(x, o)` after which X has no forced win by
    threats (replies that leave X a three are lost at once: not counted)."""
    mine = x | 1 << cell
    empty = CUBE.full_mask & ~(mine | o)
    count = 0
    for reply in orbits(empty, stabilizer(CUBE, mine, o)):
        yours = o | 1 << reply
        if not winning_mask(mine, yours) and search.forced_win(mine, yours, shortest=False) is None:
            count += 1
    return count


def fewest_open(x: int, o: int, search: ThreatSearch) -> int | None:
    """The fewest open replies (`open_replies`) after any quiet move of X at `(x, o)`, one
    that makes no three; None if X has none."""
    empty = CUBE.full_mask & ~(x | o)
    return min(
        (
            open_replies(x, o, cell, search)
            for cell in orbits(empty, stabilizer(CUBE, x, o))
            if not new_threats(x | 1 << cell, o, cell)
        ),
        default=None,
    )


def after_a_three(x: int, o: int, search: ThreatSearch) -> int | None:
    """The fewest open replies (`open_replies`) over X's quiet fourth moves after a third
    move that makes one three and O's block (one that makes no three of O's), over every such
    third move; None if there is none."""
    fewest = None
    empty = CUBE.full_mask & ~(x | o)
    for cell in orbits(empty, stabilizer(CUBE, x, o)):
        three = new_threats(x | 1 << cell, o, cell)
        if not three or three & (three - 1):
            continue  # no three, or two: X wins
        mine, yours = x | 1 << cell, o | three
        if winning_mask(yours, mine):
            continue
        count = fewest_open(mine, yours, search)
        if count is not None:
            fewest = count if fewest is None else min(fewest, count)
    return fewest


def fourth_moves(book: Entries, x: int, o: int, cell: int) -> tuple[int, int]:
    """The classes of O's replies to X's `cell` at `(x, o)` that the book answers with an
    entry, and X's different answers to them."""
    mine = x | 1 << cell
    empty = CUBE.full_mask & ~(mine | o)
    answered, answers = 0, set()
    for reply in orbits(empty, stabilizer(CUBE, mine, o)):
        yours = o | 1 << reply
        if winning_mask(mine, yours) or winning_mask(yours, mine):
            continue  # X wins or blocks: no entry
        answer = lookup(book, mine, yours)
        if answer is not None:
            answered += 1
            answers.add(answer)
    return answered, len(answers)


def main() -> None:
    search = strategy_threats(fast_prover_available()) or ThreatSearch(THREAT_NODES)
    book = shipped()
    played: Counter[int] = Counter()
    fewest: Counter[int] = Counter()
    threes = answered = different = forced = forced_open = either = 0
    for (x, o), cell in sorted(book.items()):
        if x.bit_count() + o.bit_count() != 4:
            continue
        least = fewest_open(x, o, search)
        assert least is not None, "X has a quiet move at 4 stones"
        threes += new_threats(x | 1 << cell, o, cell) != 0
        played[open_replies(x, o, cell, search)] += 1
        fewest[least] += 1
        after = after_a_three(x, o, search)
        if after is not None:
            forced, forced_open = forced + 1, forced_open + after
        either += least if after is None else min(least, 1 + after)
        these, apart = fourth_moves(book, x, o, cell)
        answered, different = answered + these, different + apart
    print("| open replies | entries, the book's move | entries, the fewest over quiet moves |")
    print("|---|---|---|")
    for count in sorted(played.keys() | fewest.keys()):
        print(f"| {count} | {played[count]} | {fewest[count]} |")
    total = sum(k * v for k, v in played.items()), sum(k * v for k, v in fewest.items())
    print(f"| all | {total[0]:,} over {played.total()} entries | {total[1]:,} |")
    print(f"\nThe book's move makes a three at {threes} of the entries (O's one reply: the block).")
    print(
        f"A three, O's block and the best quiet fourth move instead: {forced_open:,} open replies "
        f"(of 8 stones) over the {forced} entries that have such a three, each with its entry "
        f"of 6 stones."
    )
    print(
        f"The better of the two at each entry (a quiet move, or a three, the block and the "
        f"entry after it): {either:,} open replies of 6 and 8 stones."
    )
    print(
        f"The book answers {answered:,} of O's replies after them with an entry of 6 stones, "
        f"with {different:,} different moves (per entry of 4 stones, summed)."
    )


if __name__ == "__main__":
    main()
