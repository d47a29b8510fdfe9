"""A unit of the proof: one position proved by df-pn within a budget of nodes, run in a
worker process, by the compiled prover when the solver extra is installed."""

from __future__ import annotations

import importlib.util
import resource
import threading
import time
from dataclasses import replace
from typing import TYPE_CHECKING, NamedTuple

from qubic.core.geometry import CUBE
from qubic.search.prover import PROVED, UNKNOWN, X_WIDTH, Prover, Result

if TYPE_CHECKING:
    from qubic.proof.fast_prover import FastProver

UNIT_NODES = {"python": 20_000, "fast": 300_000}  # df-pn expansions per unit: at most some
# two to four seconds here, the Python prover under PyPy, the compiled one under CPython
UNIT_WIDTH = {"python": X_WIDTH, "fast": 8}  # X's moves a unit tries: at 300,000 nodes,
# width 8 proved 7 of 30 positions where width 3 proved none (widths 16 and 64 did no better)
UNIT_GROWTH = 4  # a unit left unknown runs again with this many times its nodes, ...
UNIT_RUNS = 3  # ... up to this many runs, before the upper tree expands it: one with 300,000
# nodes left 111 222 144 223 unknown, one with 1,200,000 proved it (344,163 expanded)


class Answer(NamedTuple):
    """A unit's answer: the search's result, its quiet X moves when proved (canonical
    position and move), the CPU seconds it took and its process's peak memory in KB."""

    result: Result
    moves: list[tuple[int, int, int]]
    cpu_seconds: float
    peak_kb: int


def last_budget(nodes: int, runs: int = UNIT_RUNS) -> int:
    """The nodes of a unit's last run, when its first has `nodes`."""
    return nodes * UNIT_GROWTH ** (runs - 1)


def fast_prover_available() -> bool:
    """Whether numba is installed (the `solver` extra), so the compiled prover can run."""
    return importlib.util.find_spec("numba") is not None


_local = threading.local()  # a worker's compiled provers by width (`provers`), kept between
# units so that their tables are allocated once; one set a thread (a Dask worker may run
# units in several threads)


def unit(
    x: int, o: int, nodes: int, width: int = X_WIDTH, prover: str = "python", moves: bool = False
) -> Answer:
    """Prove `(x, o)` within `nodes` expansions, trying X's `width` best moves, with the
    `prover` named ("python" or "fast"), and list the proof's quiet moves if `moves`. Runs in
    a worker process. The same arguments give the same answer."""
    start = time.process_time()
    search: Prover | FastProver
    if prover == "fast":
        from qubic.proof.fast_prover import FastProver  # numba: only where the extra is installed

        provers: dict[int, FastProver] = _local.__dict__.setdefault("provers", {})
        if width not in provers:
            provers[width] = FastProver(width=width)
        search = provers[width]
        search.clear()  # a unit's answer must not depend on the units before it
    else:
        search = Prover(width=width)
    result = search.prove(x, o, nodes)
    quiet = []
    if result.status == PROVED and moves:
        try:
            for px, po, cell in search.strategy(x, o):
                key, symmetry = CUBE.orient(px, po)
                quiet.append((*key, symmetry[cell]))
        except RuntimeError:  # the fast prover's tables forgot part of the proof: not proved
            result, quiet = replace(result, status=UNKNOWN, pn=1, dn=1), []
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return Answer(result, quiet, time.process_time() - start, peak)
