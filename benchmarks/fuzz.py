"""The fuzz suite's long run: the doors of tests/test_fuzz.py (the save loader, the config
reader, the record reader, the engine and each console question), each fed many more random
and hostile examples than CI's, at random rather than CI's fixed few, printed as a Markdown
table of examples, failures and seconds per door.

    pip install -e '.[test]' && python benchmarks/fuzz.py                  # 1,000 a door
    python benchmarks/fuzz.py --examples 5000 --door engine --door REVIEW

A failure is counted and the run goes on (a door whose program died is started again); the
first few of each door are printed after the table, to be made into tests.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

from bench import table
from hypothesis import Phase, given, settings
from hypothesis.errors import UnsatisfiedAssumption

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.test_fuzz import FUZZ, doors, opened  # noqa: E402 (the repository's root first)

SHOWN = 3  # failures printed per door


def run_door(door: Any, examples: int) -> tuple[int, list[str], float]:
    """Run `door` on `examples` random examples; the examples run, the failures (what each
    was, in a few lines) and the seconds taken."""
    ran = 0
    failures: list[str] = []

    @settings(FUZZ, max_examples=examples, derandomize=False, phases=[Phase.generate])
    @given(door.strategy)
    def check(example: Any) -> None:
        nonlocal ran
        try:
            door.check(example)
        except UnsatisfiedAssumption:
            raise  # not an example: hypothesis draws another
        except AssertionError as error:
            failures.append(f"{example!r:.200}: {str(error)[:300]}")
            restart(door)
        except Exception:
            failures.append(f"{example!r:.200}: {traceback.format_exc(limit=-3)[:600]}")
            restart(door)
        ran += 1

    start = time.perf_counter()
    with opened(door):
        check()
    return ran, failures, time.perf_counter() - start


def restart(door: Any) -> None:
    """After a failure, the door's program anew (it may have died)."""
    if hasattr(door, "open"):
        with contextlib.suppress(AssertionError):  # the failure is counted already
            door.close()
        door.open()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=1000, help="examples a door (1000)")
    parser.add_argument(
        "--door", action="append", help="only the doors whose name starts so (repeatable)"
    )
    args = parser.parse_args()
    rows, shown = [], []
    with tempfile.TemporaryDirectory(prefix="qubic-fuzz-") as folder:
        for door in doors(Path(folder)):
            if args.door and not any(door.name.startswith(name) for name in args.door):
                continue
            ran, failures, seconds = run_door(door, args.examples)
            rows.append([door.name, ran, len(failures), f"{seconds:.1f}"])
            shown += [f"{door.name}: {failure}" for failure in failures[:SHOWN]]
            print(f"{door.name}: {ran} examples, {len(failures)} failures", file=sys.stderr)
    print(table(["surface", "examples", "failures", "seconds"], rows))
    for failure in shown:
        print(f"\n{failure}")


if __name__ == "__main__":
    main()
